# Two equal blocks meet min_items = 2 and collapse to one element.

result_type = set(string)
result = ["a"]
