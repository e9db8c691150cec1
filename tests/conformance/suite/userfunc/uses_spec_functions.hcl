v = shout("hey")
