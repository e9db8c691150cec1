# A variable used inside two blocks of a block list.

result_type = list(number)
result = [8001, 8002]
