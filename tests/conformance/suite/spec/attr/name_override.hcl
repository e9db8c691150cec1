input_name = "value"
