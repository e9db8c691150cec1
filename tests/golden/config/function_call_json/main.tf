# Errors of function calls during validation: validate -json describes the
# called function ("function_call": its signature, types as cty writes them).
locals {
  join_null     = join(",", null)
  bad_arg       = cidrhost("nonsense", 1)
  too_many      = upper("a", "b")
  not_enough    = cidrsubnet("10.0.0.0/8", 4)
  call_error    = cidrsubnet("10.0.0.0/8", 30, 1)
  expand_bad    = min("3"...)
  namespaced    = core::split(",")
  merge_bad     = merge({ a = 1 }, "x")
  variadic_none = coalesce()
  objects       = zipmap(["a"], 1)
  ok            = upper("fine")
}
