#!/bin/sh
# Regenerates cases.txt from Go's math package (see gen.go); review the diff.
cd "$(dirname "$0")" && GO111MODULE=off GOFLAGS= go run gen.go > cases.txt
