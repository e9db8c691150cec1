# A two-parameter function inside a template; the number argument is rendered as text.

result_type = string
result = "<x-1>"
