ä = 1
äb = 2
名前 = 3
abcd = 4
x = "👨‍👩‍👧" # fam
yy = "éé" # e
zzz = "ab" # ab
