#!/usr/bin/env bash
# Terraform's required_version constraints (go-version's grammar, read by
# RE2 in src/config/decode.cpp): for each constraint, the first diagnostic
# `hclvm check` reports on a module holding only it must be what
# `terraform validate -json` (Terraform 1.11.4) reported, recorded below.
#
#   version_constraints.sh HCLVM
set -euo pipefail
hclvm=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
while IFS='|' read -r constraint want; do
  printf 'terraform {\n  required_version = "%s"\n}\n' "$constraint" > "$tmp/main.tf"
  got=$({ "$hclvm" check --format json "$tmp" 2> /dev/null || true; } |
        /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); print(",".join(x["summary"] for x in d["diagnostics"]) or "ok")')
  if [ "$got" != "$want" ]; then
    echo "FAIL [$constraint]: hclvm '$got', terraform '$want'"
    fail=1
  fi
done << 'EOF_CASES'
>= 1.0, < 2.0|ok
~> 1.11.0|ok
~> 1.10|ok
1.11.4|ok
 >= 0.12 |ok
> 1.11.3|ok
= 1.11.3|Unsupported Terraform Core version
!= 1.11.4|Unsupported Terraform Core version
v1.0|Unsupported Terraform Core version
< 1.11.4|Unsupported Terraform Core version
>= 1.0.0-beta|Invalid required_version constraint
abc|Invalid version constraint
>== 1|Invalid version constraint
1.x|Invalid version constraint
EOF_CASES
[ $fail = 0 ] && echo "version_constraints: all agree with terraform"
exit $fail
