# a child module with nothing in it
