#!/bin/sh
# Regenerates expected.tsv from cases.txt with the newest reference oracle
# (see gen.py); review the diff before committing it.
exec python3 "$(dirname "$0")/gen.py" "$@"
