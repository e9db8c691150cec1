name = "${x}"
