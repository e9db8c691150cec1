# One object for a block_list: a list of one block.

result_type = list(number)
result = [80]
