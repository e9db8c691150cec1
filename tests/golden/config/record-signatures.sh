#!/usr/bin/env bash
# Records the signatures of Terraform's functions, as `terraform metadata
# functions -json` describes them, into function-signatures.txt: one line a
# function, "name(param TYPE, ..., variadic... TYPE) RETURN", types as cty
# writes them in JSON. config_test compares the signatures hclvm puts in
# `check --format terraform-json` with these. Needs terraform on PATH (the
# recorded file is what Terraform 1.11.4 printed).
set -euo pipefail
cd "$(dirname "$0")"
TF_CLI_CONFIG_FILE=/dev/null terraform metadata functions -json | python3 -c '
import json, sys
sigs = json.load(sys.stdin)["function_signatures"]
t = lambda x: json.dumps(x, separators=(",", ":"))
for name in sorted(sigs):
    s = sigs[name]
    ps = [p["name"] + " " + t(p["type"]) for p in s.get("parameters", [])]
    v = s.get("variadic_parameter")
    if v:
        ps.append(v["name"] + "... " + t(v["type"]))
    print(name + "(" + ", ".join(ps) + ") " + t(s["return_type"]))
' > function-signatures.txt
