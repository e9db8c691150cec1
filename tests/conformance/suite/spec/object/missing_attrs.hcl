a = "present"
