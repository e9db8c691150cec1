# reverse() inside, then upper() in a template outside.

result_type = string
result = "DESSERTS!"
