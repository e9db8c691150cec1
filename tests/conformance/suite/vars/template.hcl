greeting = "hello ${user}, you have ${n} messages"
