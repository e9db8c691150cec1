#!/bin/sh
# Regenerates expected.jsonl from cases.txt with the reference oracle
# (see gen.py); review the diff before committing it.
exec python3 "$(dirname "$0")/gen.py" "$@"
