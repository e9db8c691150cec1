v = flag ? yes : no
