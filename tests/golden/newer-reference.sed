# Where the newest reference (hashicorp/hcl) differs from the 2.14.1 oracle
# that records diag/*.ref.json, the newest wins: run.sh --refresh applies
# these edits to what the oracle printed. One line per difference.
s/incorrect parethesis nesting/incorrect parenthesis nesting/
