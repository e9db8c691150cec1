# A null literal: null of the dynamic pseudo-type (printed as a bare null).

result_type = any
result = null
