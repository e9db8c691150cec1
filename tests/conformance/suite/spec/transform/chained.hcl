word = "stressed"
