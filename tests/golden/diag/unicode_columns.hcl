a = "ééé" b
c = "éé" d
