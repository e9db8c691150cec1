# Two variables interpolated into one template.

result_type = string
result = "hello ada, you have 2 messages"
