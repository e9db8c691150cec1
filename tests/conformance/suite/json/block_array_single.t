# A one-element array for a single block.

result_type = number
result = 3
