#!/usr/bin/env python3
"""Writes cases.jsonl.gz: seeded random HCL expressions and the newest reference's answers.

A differential suite of the whole evaluator beside tests/golden/eval (whose
cases are written by hand or taken from tables): expressions made at random
from a fixed seed, well-typed and ill-typed, over the shared variables
(the shared directory's bench/vars.json, copied as ../eval/vars-bench.json)
and ../eval/vars-values.json:

  - operators (arithmetic, comparison, equality, logic, unary), conditionals,
    `for` expressions (tuple, object, grouping, `if`), splats (`[*]`, `.*`),
    index and attribute access, templates (interpolation, `%{if}`, `%{for}`,
    strip markers, heredocs), tuple and object constructors, `...`
    expansion, try() and can();
  - every function of the go-cty table (the reference's gohcl-bench), about
    150 calls each, with edge arguments: null, typed nulls, values of no
    particular type, negative, huge, tiny and fractional numbers, empty
    strings and collections, wrong types, wrong argument counts.

The answers are the newest reference's (hcl v2.24.0 + go-cty v1.18.1):
gohcl-bench's own source built with ../eval/gen.py's batch mode against the
newest reference's sources (the same parser call, function table, variables
loader and value printer as `gohcl-bench eval`, every diagnostic with its
range), and a sample of the cases is checked against the installed
gohcl-bench itself. The reference marks no values (the go-cty table has no
sensitive()), so no case is marked; unknown values appear only where the
reference makes them (contains(x, null) is cty.DynamicVal).

Where the reference answers differently from run to run (a "Did you mean"
picked in Go's map order), every answer seen in RERUNS runs is kept
(`alt`). Cases whose answer would be longer than MAX_ANSWER bytes (the
whole of a large variable) are dropped to keep the file small.

One case a line, a JSON object: "e" the expression, "v" its variables
("bench" for ../eval/vars-bench.json, "values" for ../eval/vars-values.json),
"w" the answer: {"value": V, "type": T} (cty JSON, numbers as exact
decimal text, as ../eval/cases.jsonl writes them), {"repr": R, "type": T}
with cty's Go syntax for what JSON cannot hold (infinities, unknowns), or
{"errors": [[SUMMARY, DETAIL, RANGE, BYTES, VALUES?], ...]} with every
error diagnostic in the reference's order (RANGE "line:col-line:col" and
BYTES "start-end" of the subject, null without one; VALUES, when present,
the statements about variables the reference's text renderer lists under
the diagnostic; where a function panicked, the Go stack trace that follows
the panic's message in the detail is left out) and "parse": true when parsing failed; "alt" other
answers. eval_random_test replays it.

Usage: gen.py [--seed 25] [--count 21000] [--out cases.jsonl.gz]
Needs what ../eval/gen.py needs (Go, the newest reference's sources and
gohcl-bench, the shared directory). Byte-for-byte reproducible.
"""

import argparse
import gzip
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EVAL_DIR = os.path.normpath(os.path.join(HERE, "..", "eval"))
# The batch oracle of ../eval/gen.py (loaded under a name of its own).
_spec = importlib.util.spec_from_file_location("eval_gen", os.path.join(EVAL_DIR, "gen.py"))
evalgen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(evalgen)

MAX_ANSWER = 2000
RERUNS = 20
CROSSCHECK = 400
# The reference has no limits: some calls (indent(1e10, s), setproduct of
# large variables) take more memory than a machine has. Each batch runs
# with this much address space and time; cases that exceed it are dropped.
BATCH_MEMORY_KB = 4_000_000
BATCH_SECONDS = 120

# --- atoms --------------------------------------------------------------------------

NUM_LIT = ["0", "1", "-1", "2", "3", "7", "10", "100", "0.5", "-2.5", "1.5", "1e3", "1e21",
           "1e300", "-1e300", "1e-300", "0.1", "123456789012345678901234567890",
           "9223372036854775807", "9223372036854775808", "-9223372036854775809",
           "18446744073709551616", "-0", "0.000001", "(1/3)", "2.718281828459045", "-7.25",
           "4294967296", "65", "1023"]
STR_LIT = ['""', '"a"', '"abc"', '"Hello, World"', '"héllo"', '"ÀÉÎ"', '"🎉"', '"👍🏽x"', '"1"',
           '"-2.5"', '"1e3"', '"true"', '"false"', '"null"', '"a,b,,c"', '"  pad  "', '"x\\ny"',
           '"tab\\there"', '"Ünïcödé"', '"日本語"', '"a-b_c.d"', '"0x10"', '" 42 "', '"abcabc"',
           '"%s"', '"$${x}"', '"line\\n"', '"ǅ"', '"ß"']
BOOL_LIT = ["true", "false"]
TUPLE_LIT = ["[]", "[1, 2, 3]", '["a", "b", "c"]', '["b", "a", "b"]', '[1, "a", true]', "[null]",
             "[null, 1]", "[[1, 2], [3]]", "[[], [1]]", "[{a = 1}, {a = 2}]",
             '[{a = 1}, {b = "x"}]', '["1", 2]', "[1.5, -2, 1e300]", "[true, false, true]",
             '["x", null, "y"]', "[-1, 0, 1]", '["c", "a", "b", "a"]']
OBJ_LIT = ["{}", "{a = 1}", '{a = "x", b = "y"}', '{a = 1, b = "x", c = true}',
           '{"key with space" = 1}', "{a = [1, 2], b = {c = 3}}", "{a = null}",
           "{x = 1, y = 2, z = 3}", "{b = 2, a = 1}", '{name = "n", id = 7}']
COLL_LIT = ["tolist([])", 'tolist(["x", "y"])', "tolist([1, 2, 2])", 'toset(["a", "b"])',
            "toset([])", "toset([3, 1, 2, 1])", 'tomap({a = "x", b = "y"})', "tomap({})",
            "tomap({k = 1})", 'tolist(["b", "a", "b"])', "toset([[1], [2]])",
            "tolist([{a = 1}, {a = 2}])", 'tomap({a = ["x"], b = []})']
NULL_LIT = ["null", "tostring(null)", "tonumber(null)", "tolist(null)", "tomap(null)",
            "(true ? null : {a = 1})", "(false ? [1] : null)"]

# The variables of each variables file, by kind (attribute paths included).
PROFILES = {
    "bench": {
        "num": ["a", "b", "c", "n", "age", "items[3]", "items[99]", "config.services.api.replicas",
                "deep.l1.l2.l3.l4.n", "defaults.retries", "defaults.timeout", "overrides.timeout",
                "users[5].id", "config.services.web.endpoints[1].port"],
        "str": ["env", "name", "csv", "words[0]", "words[9]", "users[0].name", "users[1].address.city",
                "defaults.region", "deep.l1.l2.l3.l4.value", "config.services.web.endpoints[1].path",
                "users[3].dept"],
        "bool": ["flag", "defaults.debug", "overrides.debug", "users[1].active", "users[0].active"],
        "null": [],
        "tuple": ["words", "items", "users", "config.services.api.endpoints",
                  "config.services.worker.endpoints", "users[*].name", "users[*].address",
                  "config.services.web.endpoints[*].port"],
        "object": ["defaults", "overrides", "deep", "config.services", "users[0]", "users[2].address",
                   "deep.l1", "config.services.web"],
        "attrs": ["name", "id", "dept", "active", "address", "city", "zip", "port", "path", "replicas",
                  "endpoints", "region", "debug", "timeout", "retries", "l1", "value", "n", "api",
                  "web", "nope", "Name"],
        "missing": ["nosuch", "user", "item", "default", "config.nope", "users[0].nope", "deep.l2",
                    "defaults.regoin", "itmes"],
    },
    "values": {
        "num": ["num", "neg", "frac", "zero", "nums[0]", "by_key.b", "count.index", "matrix[1][2]"],
        "str": ["str", "empty_str", "digits", "bool_str", "num_str", "space_str", "strs[1]", "smap.x",
                "obj.b", "each.key", "var.region"],
        "bool": ["yes", "no", "obj.c", "bools[1]"],
        "null": ["nothing", "obj.d", "mixed[3]"],
        "tuple": ["empty_list", "nums", "strs", "mixed", "nested_list", "bools", "num_strs", "users",
                  "hetero", "matrix", "list_of_lists", "objlist.items", "var.names"],
        "object": ["empty_obj", "obj", "smap", "deep", "by_key", "objlist", "count", "each", "var",
                   "users[0]"],
        "attrs": ["a", "b", "c", "d", "x", "y", "name", "age", "tags", "team", "id", "sub", "v",
                  "items", "key", "value", "region", "names", "nope", "B", "_"],
        "missing": ["nosuch", "strs2", "numz", "obj.e", "deep.a.x", "users[0].nope", "Str"],
    },
}

# Edge arguments of function parameters, by the kind of parameter.
EDGE = {
    "num": ["0", "-0", "1", "-1", "2.5", "-2.5", "0.5", "1e300", "-1e300", "1e-300",
            "123456789012345678901234567890", "9223372036854775808", "-9223372036854775809",
            "(1/3)", "10", "3", "2", "1e3", "0.1", "null", "tonumber(null)", '"5"', '" 5"', '"x"',
            "true", "[]", "{}", "1e21", "-7", "63", "64", "1023", "1024", "-1074", "-1075", "0.25",
            "100", "37"],
    "int": ["0", "1", "2", "3", "-1", "-3", "10", "100", "2.5", "1e3", "1e30", "null", '"2"', "-0", "0.5",
            "9223372036854775808", "-2147483649", '"x"', "true"],
    "str": ['""', '"a"', '"Hello World"', '"  spaced  "', '"a,b,,c"', '"héllo wörld"', '"🎉👍🏽"',
            '"line1\\nline2\\n"', '"\\t x \\r\\n"', '"x${"y"}z"', '"%s"', '"abc"', "null",
            "tostring(null)", "5", "true", "[]", "{}", '"ABC def"', '"a b c"', '"aaa"', '"ǅungla"',
            '"éa\\u0301"', '"x\\n\\n"', '"\\r\\n"', '"-"', '"0"', '"1.5"'],
    "list": ["[]", "[1, 2, 3]", '["a", "b", "c"]', '["b", "a", "b"]', '[1, "a"]', "[null]",
             "[null, 1]", "[[1, 2], [3]]", "[[], [1]]", "tolist([])", 'tolist(["x", "y"])',
             'toset(["a", "b"])', "toset([])", "null", '"str"', "{a = 1}", "tolist(null)",
             '[1, "1", true]', "[{a = 1}, {a = 1}]", '["", "a", ""]', "[1, 2, 2, 1]",
             '["x", null]', "[[1], [2, 3], []]", "[true, false]", "[-1.5, 10, 2]"],
    "map": ["{}", "{a = 1}", '{a = "x", b = "y"}', '{a = 1, b = "x"}', 'tomap({a = "x"})',
            "tomap({})", "null", "[1]", '"s"', "{a = null}", '{b = 2, a = 1, c = 3}',
            '{a = {x = 1}, b = [2]}', 'tomap({a = 1, b = 2})', "tomap(null)"],
    "any": ["null", "1", '"a"', "true", "[]", "{}", "[1, 2]", '{a = "x"}', "tolist([1])",
            'toset(["a"])', 'tomap({a = 1})', "tostring(null)", "-1e300", '""', "[null]"],
    "regex": ['"a"', '"(a)(b)?"', '"(?P<x>\\\\d+)"', '"["', '"^$"', '".*"', '"\\\\w+"',
              '"(?i)ABC"', '"a|b"', '"(x)"', '"(?P<k>\\\\w)=(?P<v>\\\\w)"', '""', '"\\\\pL+"'],
    "fmt": ['"%s"', '"%d"', '"%v"', '"%#v"', '"%5.2f"', '"%q"', '"%t"', '"%%"', '"%-5s|"',
            '"%[2]s %[1]s"', '"%x"', '"%o"', '"%e"', '"%g"', '"%b"', '"%*d"', '"%"', '"no verbs"',
            '"%s %s"', '"%X"', '"%.3s"', '"%08.3f"', '"%+d"', '"%#v %v"', '"% d"', '"%.0f"',
            '"%[3]v"', '"%s-%d"', '"%10v|"'],
    "time": ['"2017-11-22T00:00:00Z"', '"2017-11-22T23:59:59+05:30"', '"2017-11-22"', '"bad"',
             '"2017-11-22T24:00:00Z"', '"2020-02-29T12:30:45.123Z"', '"1999-12-31T23:59:59-08:00"',
             "null", '"0001-01-01T00:00:00Z"'],
    "datefmt": ['"YYYY-MM-DD"', '"DD MMM YYYY hh:mm ZZZ"', '"EEEE, h:mmaa"', "\"'quoted' YY\"",
                '"YYYYY"', '"H"', '"ZZZZZ"', '"EEE"', '"MMMM D"', '"ss.s"', '""', "\"'\""],
    "duration": ['"1h"', '"-30m"', '"1h30m45s"', '"10ms"', '"1.5h"', '"bad"', '""', '"1d"', '"0s"',
                 '"-1ns"', '"1000000h"'],
    "json": ['"{\\"a\\":1}"', '"[1,2]"', '"null"', '"1e400"', '"\\"x\\""', '"{"', '""',
             '"[1,\\"a\\",{\\"b\\":null}]"', '"{\\"a\\":1,\\"a\\":2}"', '"{\\"a\\":1,\\"a\\":\\"s\\"}"',
             '"true"', '" 12.50 "', '"[]"', '"{\\"z\\":{}, \\"a\\":[]}"'],
    "csv": ['"a,b\\n1,2\\n"', '"a\\n"', '""', '"a,b\\n1\\n"', '"\\"q\\",b\\n1,2\\n"', '"a,a\\n1,2\\n"',
            '"x,y\\n\\"1,5\\",2\\n3,4"', "null"],
    "base": ["10", "2", "16", "8", "36", "1", "37", "0", "-2", "2.5", '"16"'],
    "numstr": ['"100"', '"-ff"', '"0x10"', '"FF"', '"zz"', '"1010"', '""', '"123456789012345678901234567890"',
               '" 1"', '"+7"', '"1.5"', '"-"'],
}

# The go-cty table (gohcl-bench funcs): each function's parameters by EDGE kind
# ("*kind" for a variadic parameter).
FUNCS = {
    "abs": ["num"], "ceil": ["num"], "floor": ["num"], "log": ["num", "num"],
    "max": ["*num"], "min": ["*num"], "parseint": ["numstr", "base"], "pow": ["num", "num"],
    "signum": ["num"], "chomp": ["str"], "format": ["fmt", "*any"], "formatlist": ["fmt", "*any"],
    "indent": ["int", "str"], "join": ["str", "*list"], "lower": ["str"], "regex": ["regex", "str"],
    "regexall": ["regex", "str"], "replace": ["str", "str", "str"], "split": ["str", "str"],
    "strlen": ["str"], "strrev": ["str"], "substr": ["str", "int", "int"], "title": ["str"],
    "trim": ["str", "str"], "trimprefix": ["str", "str"], "trimspace": ["str"],
    "trimsuffix": ["str", "str"], "upper": ["str"], "chunklist": ["list", "int"],
    "coalesce": ["*any"], "coalescelist": ["*list"], "compact": ["list"], "concat": ["*list"],
    "contains": ["list", "any"], "distinct": ["list"], "element": ["list", "int"],
    "flatten": ["list"], "keys": ["map"], "length": ["any"], "lookup": ["map", "str", "any"],
    "merge": ["*map"], "range": ["*int"], "reverse": ["list"], "setintersection": ["list", "*list"],
    "setproduct": ["*list"], "setsubtract": ["list", "list"], "setunion": ["list", "*list"],
    "slice": ["list", "int", "int"], "sort": ["list"], "values": ["map"], "zipmap": ["list", "list"],
    "csvdecode": ["csv"], "jsondecode": ["json"], "jsonencode": ["any"],
    "formatdate": ["datefmt", "time"], "timeadd": ["time", "duration"], "tobool": ["any"],
    "tolist": ["any"], "tomap": ["any"], "tonumber": ["any"], "toset": ["any"], "tostring": ["any"],
    "try": ["*any"], "can": ["any"],
}
KIND_OF = {"num": "num", "int": "num", "base": "num", "str": "str", "regex": "str", "fmt": "str",
           "time": "str", "datefmt": "str", "duration": "str", "json": "str", "csv": "str",
           "numstr": "str", "list": "tuple", "map": "object", "any": "any"}
# What each function returns, for nesting calls inside other expressions.
RETURNS = {
    "num": ["abs", "ceil", "floor", "log", "max", "min", "parseint", "pow", "signum", "strlen",
            "length", "tonumber"],
    "str": ["chomp", "format", "indent", "join", "lower", "replace", "strrev", "substr", "title",
            "trim", "trimprefix", "trimspace", "trimsuffix", "upper", "jsonencode", "formatdate",
            "timeadd", "tostring", "lookup", "element", "coalesce"],
    "bool": ["contains", "can", "tobool"],
    "tuple": ["formatlist", "regexall", "split", "chunklist", "coalescelist", "compact", "concat",
              "distinct", "flatten", "keys", "range", "reverse", "setintersection", "setproduct",
              "setsubtract", "setunion", "slice", "sort", "values", "csvdecode", "tolist", "toset"],
    "object": ["merge", "zipmap", "jsondecode", "tomap", "regex"],
}

ARITH = ["+", "-", "*", "/", "%"]
COMPARE = ["<", "<=", ">", ">="]
EQUAL = ["==", "!="]
LOGIC = ["&&", "||"]


class Gen:
    """Random expressions from [rng] over the variables of [profile]."""

    def __init__(self, rng, profile):
        self.r = rng
        self.p = profile

    def pick(self, xs):
        return self.r.choice(xs)

    def chance(self, p):
        return self.r.random() < p

    def atom(self, kind):
        """A literal or variable of [kind]; sometimes null or of another kind."""
        if self.chance(0.03):
            return self.pick(NULL_LIT + self.p["null"])
        if self.chance(0.015):
            return self.pick(self.p["missing"])
        if kind == "any" or self.chance(0.04):
            kind = self.pick(["num", "str", "bool", "tuple", "object", "coll"])
        lits = {"num": NUM_LIT, "str": STR_LIT, "bool": BOOL_LIT, "tuple": TUPLE_LIT, "object": OBJ_LIT,
                "coll": COLL_LIT}[kind]
        vars_ = self.p.get(kind, [])
        if vars_ and self.chance(0.45):
            return self.pick(vars_)
        return self.pick(lits)

    def paren(self, e):
        return "(" + e + ")" if self.chance(0.7) else e

    def expr(self, kind="any", depth=2):
        """An expression meant to be of [kind] (it may not be)."""
        if depth <= 0 or self.chance(0.25):
            return self.atom(kind)
        if kind == "any":
            kind = self.pick(["num", "str", "bool", "tuple", "object", "any2"])
        d = depth - 1
        if kind == "num":
            return self.pick([
                lambda: self.paren(self.expr("num", d)) + " " + self.pick(ARITH) + " " + self.paren(self.expr("num", d)),
                lambda: "-" + self.paren(self.expr("num", d)),
                lambda: self.cond("num", d),
                lambda: self.index(d),
                lambda: self.call(self.pick(RETURNS["num"]), d),
                lambda: self.paren(self.expr("str", d)) + " * 1",
            ])()
        if kind == "str":
            return self.pick([
                lambda: self.template(d),
                lambda: self.cond("str", d),
                lambda: self.call(self.pick(RETURNS["str"]), d),
                lambda: self.index(d),
                lambda: self.attr(d),
            ])()
        if kind == "bool":
            return self.pick([
                lambda: self.paren(self.expr("num", d)) + " " + self.pick(COMPARE) + " " + self.paren(self.expr("num", d)),
                lambda: self.paren(self.expr("any", d)) + " " + self.pick(EQUAL) + " " + self.paren(self.expr("any", d)),
                lambda: self.paren(self.expr("bool", d)) + " " + self.pick(LOGIC) + " " + self.paren(self.expr("bool", d)),
                lambda: "!" + self.paren(self.expr("bool", d)),
                lambda: self.cond("bool", d),
                lambda: self.call(self.pick(RETURNS["bool"]), d),
            ])()
        if kind == "tuple":
            return self.pick([
                lambda: self.for_tuple(d),
                lambda: self.splat(d),
                lambda: "[" + ", ".join(self.expr("any", d) for _ in range(self.r.randint(0, 3))) + "]",
                lambda: self.call(self.pick(RETURNS["tuple"]), d),
                lambda: self.cond("tuple", d),
            ])()
        if kind == "object":
            return self.pick([
                lambda: self.for_object(d),
                lambda: self.object_cons(d),
                lambda: self.call(self.pick(RETURNS["object"]), d),
                lambda: self.cond("object", d),
            ])()
        return self.pick([  # any2: constructs of any result
            lambda: self.index(d),
            lambda: self.attr(d),
            lambda: self.cond("any", d),
            lambda: self.call(self.pick(list(FUNCS)), d),
            lambda: self.paren(self.expr("any", d)) + " " + self.pick(ARITH + COMPARE + EQUAL + LOGIC) + " " + self.paren(self.expr("any", d)),
            lambda: self.heredoc(d),
        ])()

    def cond(self, kind, d):
        other = kind if self.chance(0.85) else "any"
        c = self.expr("bool", d) if self.chance(0.9) else self.expr("any", d)
        return "%s ? %s : %s" % (self.paren(c), self.paren(self.expr(kind, d)), self.paren(self.expr(other, d)))

    def key(self, d):
        if self.chance(0.5):
            return self.pick(["0", "1", "2", "-1", "99", "100", "1.5", '"0"', '"a"', '"name"', "null",
                              "true", "[0]", "1e300", "0.9999999999999999999"])
        return self.expr(self.pick(["num", "str"]), d)

    def index(self, d):
        if self.chance(0.6):  # a key that fits the collection
            if self.chance(0.5):
                coll = self.pick(self.p["tuple"] + TUPLE_LIT[1:] + COLL_LIT[1:3])
                return coll + "[" + self.pick(["0", "1", "2", "0", "1", "-1", "3", "(1 + 1)", '"1"']) + "]"
            coll = self.pick(self.p["object"] + OBJ_LIT[1:] + COLL_LIT[6:9])
            return coll + "[" + self.pick(['"' + a + '"' for a in self.p["attrs"]] + ['"a"', '"b"', '"x"', '"k"']) + "]"
        coll = self.expr(self.pick(["tuple", "object", "tuple", "str"]), d)
        return self.paren(coll) + "[" + self.key(d) + "]"

    def attr(self, d):
        if self.chance(0.5):  # a path that exists, mostly
            return self.pick(self.p["num"] + self.p["str"] + self.p["bool"] + self.p["object"])
        base = self.pick(self.p["object"] + self.p["tuple"] + OBJ_LIT + ["null"])
        if self.chance(0.3):
            base = "(" + self.expr("object", d) + ")"
        steps = "".join(self.pick(["." + self.pick(self.p["attrs"]), "[0]", ".0", "[*]." + self.pick(self.p["attrs"]),
                                   ".*." + self.pick(self.p["attrs"]), '["' + self.pick(self.p["attrs"]) + '"]'])
                        for _ in range(self.r.randint(1, 2)))
        return base + steps

    def splat(self, d):
        src = self.pick(self.p["tuple"] + self.p["object"] + TUPLE_LIT + COLL_LIT + ["null"])
        if self.chance(0.3):
            src = "(" + self.expr(self.pick(["tuple", "object", "any"]), d) + ")"
        tail = self.pick(["[*]", ".*", "[*]." + self.pick(self.p["attrs"]), ".*." + self.pick(self.p["attrs"]),
                          "[*][0]", "[*].*", "[*][*]", "[*]." + self.pick(self.p["attrs"]) + "." + self.pick(self.p["attrs"])])
        return src + tail

    def for_body(self, names, d):
        x = names[-1]
        k = names[0]
        return self.pick([x, x + " * 2", "upper(" + x + ")", '"${' + x + '}-"', x + "." + self.pick(self.p["attrs"]),
                          x + "[0]", "length(" + x + ")", "{v = " + x + "}", x + " == null", k,
                          "[" + k + ", " + x + "]", self.expr("any", d), x + " + " + k, "tostring(" + x + ")"])

    def for_coll(self, d):
        if self.chance(0.75):
            return self.pick(self.p["tuple"] + self.p["object"] + TUPLE_LIT + OBJ_LIT + COLL_LIT + ["null", '"str"', "5"])
        return self.paren(self.expr(self.pick(["tuple", "object"]), d))

    def for_names(self):
        return ["x"] if self.chance(0.5) else ["k", "v"] if self.chance(0.5) else ["i", "x"]

    def for_tuple(self, d):
        names = self.for_names()
        cond = (" if " + self.pick([names[-1] + " != null", names[0] + " != " + names[-1], self.expr("bool", d),
                                    names[-1], "true", "null"])) if self.chance(0.35) else ""
        return "[for %s in %s : %s%s]" % (", ".join(names), self.for_coll(d), self.for_body(names, d), cond)

    def for_object(self, d):
        names = self.for_names()
        keyexpr = self.pick([names[0], "tostring(" + names[-1] + ")", '"k${' + names[0] + '}"', names[-1],
                             '"same"', self.expr("str", d)])
        group = "..." if self.chance(0.2) else ""
        cond = (" if " + self.pick([names[-1] + " != null", self.expr("bool", d), "false"])) if self.chance(0.25) else ""
        return "{for %s in %s : %s => %s%s%s}" % (", ".join(names), self.for_coll(d), keyexpr,
                                                   self.for_body(names, d), group, cond)

    def object_cons(self, d):
        items = []
        for _ in range(self.r.randint(0, 3)):
            k = self.pick(["a", "b", "c", '"a"', '"x y"', "(" + self.expr("str", d) + ")", "1", "true",
                           "null", "a.b", "(null)"])
            items.append("%s = %s" % (k, self.expr("any", d)))
        return "{" + self.pick([", ", "\n"]).join(items) + "}"

    def template(self, d):
        parts = []
        for _ in range(self.r.randint(1, 3)):
            c = self.r.random()
            if c < 0.45:
                parts.append(self.pick(["a", "x-", " ", "é", "$$", "%%", "line\\n", ""]))
            elif c < 0.8:
                strip = self.pick(["", "", "~"]), self.pick(["", "", "~"])
                parts.append("${%s%s%s}" % (strip[0], self.expr("any", d), strip[1]))
            elif c < 0.92:
                parts.append("%%{if %s}%s%%{else}%s%%{endif}" % (
                    self.expr("bool", d), self.pick(["y", "${1}", ""]), self.pick(["n", ""])))
            else:
                names = self.for_names()
                parts.append("%%{for %s in %s}${%s},%%{endfor}" % (", ".join(names), self.for_coll(d),
                                                                   self.pick(names)))
        return '"' + "".join(parts) + '"'

    def heredoc(self, d):
        marker = self.pick(["<<", "<<-"])
        body = self.pick(["  line ${%s}\n" % self.expr("any", d), "a\n  b\n", "%%{if %s}yes%%{endif}\n" % self.expr("bool", d),
                          "${%s}\n" % self.expr("str", d)])
        return marker + "EOT\n" + body + "EOT\n"

    def arg(self, pkind, d):
        """An argument for a parameter of EDGE kind [pkind]."""
        c = self.r.random()
        if c < 0.6:
            return self.pick(EDGE[pkind])
        if c < 0.9:
            return self.expr(KIND_OF[pkind], d)
        return self.atom("any")

    def call(self, name, d, edge=False):
        params = FUNCS[name]
        args = []
        for p in params:
            if p.startswith("*"):
                for _ in range(self.r.choice([0, 1, 1, 2, 2, 3])):
                    args.append(self.arg(p[1:], d) if edge else self.expr(KIND_OF[p[1:]], d))
            else:
                args.append(self.arg(p, d) if edge else self.expr(KIND_OF[p], d))
        if edge and self.chance(0.06):
            if args and self.chance(0.5):
                args.pop()
            else:
                args.append(self.arg("any", d))
        expand = ""
        if edge and self.chance(0.05) and args:
            args[-1] = self.pick(["[1, 2]", '["a", "b"]', "[]", "null", '"x"', self.pick(EDGE["list"])])
            expand = "..."
        return name + "(" + ", ".join(args) + expand + ")"


def run_batch(binary, requests, dropped):
    """The batch oracle's answers to [requests]; a case on which the reference
    runs out of memory or time gets None and is added to [dropped]."""
    inp = "".join(json.dumps({"expr": e, "vars": v}) + "\n" for e, v in requests)
    try:
        p = subprocess.run(["bash", "-c", "ulimit -v %d; exec \"$0\" batch-eval" % BATCH_MEMORY_KB, binary],
                           input=inp.encode(), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           timeout=BATCH_SECONDS)
        ok = p.returncode == 0
    except subprocess.TimeoutExpired:
        ok = False
    if ok:
        lines = p.stdout.decode().split("\n")[:-1]
        assert len(lines) == len(requests), (len(lines), len(requests))
        return [evalgen.jload(line) for line in lines]
    if len(requests) == 1:
        dropped.append(requests[0][0])
        return [None]
    half = len(requests) // 2
    return run_batch(binary, requests[:half], dropped) + run_batch(binary, requests[half:], dropped)


def generate(seed, count):
    """[count] unique (expression, variables file) pairs from [seed]."""
    rng = random.Random(seed)
    gens = {name: Gen(rng, prof) for name, prof in PROFILES.items()}
    out, seen = [], set()

    def add(expr, vars_file):
        if len(expr) > 300 or "\x00" in expr or (expr, vars_file) in seen:
            return
        seen.add((expr, vars_file))
        out.append((expr, vars_file))

    per_function = (count * 45 // 100) // len(FUNCS)
    for name in FUNCS:  # every function, with edge arguments
        for i in range(per_function):
            vf = "bench" if i % 4 else "values"
            add(gens[vf].call(name, rng.randint(0, 2), edge=True), vf)
    while len(out) < count:  # the rest: any construct
        vf = "bench" if rng.random() < 0.7 else "values"
        add(gens[vf].expr("any", rng.randint(1, 4)), vf)
    return out


def compact(want):
    """[want] (../eval/gen.py's form) as this file writes it."""
    if "error" not in want:
        return want
    out = []
    for d in [want] + want.get("more", []):
        # A panic inside a function: the reference's detail goes on with
        # the Go stack trace, then the detail's final period; the trace is
        # the reference's own and is left out (../eval/gen.py cut it).
        detail = d["detail"] + "." if d.get("detail_truncated") else d["detail"]
        item = [d["error"], detail, d["range"], d["bytes"]]
        if d.get("values"):
            item.append(d["values"])
        out.append(item)
    return {"errors": out}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=25)
    ap.add_argument("--count", type=int, default=21000)
    ap.add_argument("--bench", default=os.path.join(evalgen.NEWEST_BIN, "gohcl-bench"))
    ap.add_argument("--bench-src", default=os.path.join(evalgen.SHARED, "oracle", "gohcl-bench"))
    ap.add_argument("--out", default=os.path.join(HERE, "cases.jsonl.gz"))
    args = ap.parse_args()

    cases = generate(args.seed, args.count)
    work = tempfile.mkdtemp(prefix="hclvm-random-gen-")
    try:
        batch = evalgen.build_batch(args.bench_src, work)
        requests = [(e, os.path.join(EVAL_DIR, "vars-%s.json" % v)) for e, v in cases]
        too_big = []
        answers = run_batch(batch, requests, too_big)
        keep = [i for i, a in enumerate(answers) if a is not None]
        cases = [cases[i] for i in keep]
        requests = [requests[i] for i in keep]
        answers = [answers[i] for i in keep]
        again = run_batch(batch, requests, too_big)
        unstable = [i for i, (a, b) in enumerate(zip(answers, again))
                    if evalgen.jdump(a) != evalgen.jdump(b) or "Did you mean" in evalgen.jdump(a)]
        variants = {i: {evalgen.jdump(evalgen.want_of(answers[i])[0]): evalgen.want_of(answers[i])[0]}
                    for i in unstable}
        for _ in range(RERUNS):
            for i, ans in zip(unstable, run_batch(batch, [requests[i] for i in unstable], too_big)):
                w = evalgen.want_of(ans)[0]
                variants[i][evalgen.jdump(w)] = w
        rows, wants, dropped = [], [], 0
        for i, ((e, v), ans) in enumerate(zip(cases, answers)):
            want, parse_error = evalgen.want_of(ans)
            if "crash" in want:
                sys.exit("the reference crashed on %r: %s" % (e, want["crash"]))
            full = [want]
            if i in variants and len(variants[i]) > 1:
                full = [variants[i][k] for k in sorted(variants[i])]
            row = {"e": e, "v": v, "w": compact(full[0])}
            if parse_error:
                row["parse"] = True
            if len(full) > 1:
                row["alt"] = [compact(w) for w in full[1:]]
            if len(evalgen.jdump(row)) > MAX_ANSWER + len(e) + 40:
                dropped += 1
                continue
            rows.append(row)
            wants.append(full)

        # A sample checked against the installed gohcl-bench itself.
        sample = random.Random(args.seed).sample(range(len(rows)), min(CROSSCHECK, len(rows)))
        bad = []
        for k in sample:
            r, full = rows[k], wants[k]
            case = {"expr": r["e"], "vars": "vars-%s.json" % r["v"], "want": full[0], "alt_wants": full[1:]}
            msg = evalgen.crosscheck_one(args.bench, case)
            if msg:
                bad.append((r["e"], msg))
        for e, msg in bad:
            print("crosscheck %r: %s" % (e, msg), file=sys.stderr)
        if bad:
            sys.exit("%d cases disagree with %s" % (len(bad), args.bench))

        # Compressed: the rows are 4.7 MB as text, 0.7 MB gzipped.
        with gzip.open(args.out, "wt", encoding="utf-8", compresslevel=9) as f:
            for r in rows:
                f.write(evalgen.jdump(r) + "\n")
        n_err = sum(1 for r in rows if "errors" in r["w"])
        print("%d cases (%d values, %d errors of which %d parse errors; %d dropped as too long, "
              "%d as too big for the reference: %s; %d with several answers) -> %s" % (
                  len(rows), len(rows) - n_err, n_err, sum(1 for r in rows if r.get("parse")), dropped,
                  len(too_big), ", ".join(too_big), sum(1 for r in rows if "alt" in r), args.out))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
