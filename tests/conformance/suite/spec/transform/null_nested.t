# coalesce() replaces the null from an absent attribute.

result_type = string
result = "fallback"
