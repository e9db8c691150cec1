# Two blocks, between min_items 1 and max_items 3, with a bare attr as nested spec.

result_type = list(number)
result = [1, 2]
