num_from_string  = "12.5"
string_from_num  = 7
string_from_bool = true
bool_from_string = "false"
