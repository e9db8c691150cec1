a = 1
this_is_a_very_long_attribute_name_indeed = 2
b = 3
