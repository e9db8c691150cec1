# A value that repeats a shared part: each level is a tuple of nine
# references to the level below, twelve levels deep (9^12 paths). It takes
# a few hundred bytes of memory; its text would take terabytes.
laughs = [for x11 in [[for x10 in [[for x9 in [[for x8 in [[for x7 in [[for x6 in [[for x5 in [[for x4 in [[for x3 in [[for x2 in [[for x1 in [[for x0 in [["lol","lol","lol","lol","lol","lol","lol","lol","lol"]]: [x0, x0, x0, x0, x0, x0, x0, x0, x0]][0]]: [x1, x1, x1, x1, x1, x1, x1, x1, x1]][0]]: [x2, x2, x2, x2, x2, x2, x2, x2, x2]][0]]: [x3, x3, x3, x3, x3, x3, x3, x3, x3]][0]]: [x4, x4, x4, x4, x4, x4, x4, x4, x4]][0]]: [x5, x5, x5, x5, x5, x5, x5, x5, x5]][0]]: [x6, x6, x6, x6, x6, x6, x6, x6, x6]][0]]: [x7, x7, x7, x7, x7, x7, x7, x7, x7]][0]]: [x8, x8, x8, x8, x8, x8, x8, x8, x8]][0]]: [x9, x9, x9, x9, x9, x9, x9, x9, x9]][0]]: [x10, x10, x10, x10, x10, x10, x10, x10, x10]][0]]: [x11, x11, x11, x11, x11, x11, x11, x11, x11]][0]
small  = length([1, 2])
