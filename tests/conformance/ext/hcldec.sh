#!/usr/bin/env bash
# The hcldec under test ($HCLDEC_UNDER_TEST) with --dynamic-blocks, for the
# tests of this directory, which the conformance harness runs with its own
# fixed flags.
exec "${HCLDEC_UNDER_TEST:?set HCLDEC_UNDER_TEST to an hcldec program}" --dynamic-blocks "$@"
