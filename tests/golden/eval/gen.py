#!/usr/bin/env python3
"""Writes cases.jsonl: HCL native-syntax expressions and the reference's answers.

The differential suite of the expression VM. Each case is one expression
(plus, optionally, a variables file in this directory) and what the newest
reference (hcl v2.24.0 + go-cty v1.18.1, the oracle `gohcl-bench eval`)
says of it: a value with its type, or the first error diagnostic with its
exact subject range. See README.md for the format and the sources.

How the answers are obtained: gohcl-bench prints diagnostics as wrapped text
without columns, so this script builds a second binary from gohcl-bench's
own source (shared/oracle/gohcl-bench/main.go, unchanged) plus one extra
file (BATCH_GO below) that adds a batch mode: same parser call, same
function table, same variables loader, same value printer, but every
diagnostic as JSON with its ranges. Every case is then also run through the
installed `gohcl-bench eval` and the two answers must agree (value, or first
error summary, detail and line); any disagreement aborts the run.

Usage: gen.py [--bench /opt/hcl-oracle/newest/bin/gohcl-bench]
              [--bench-src SHARED/oracle/gohcl-bench]
              [--no-crosscheck] [--jobs 2] [--out cases.jsonl]
Needs: python3, go (GOPATH mode over the newest reference's sources in
SHARED/oracle/newest, as its setup-newest.sh builds the tools), the newest
reference's gohcl-bench ($HCL_ORACLE_NEWEST_BIN, default
/opt/hcl-oracle/newest/bin), the Debian golang-github-hashicorp-hcl-v2-dev
package under /usr/share/gocode (hcl 2.14.1: only its test tables are read,
as inputs), and the shared directory SHARED ($HCLVM_SHARED_DIR, or the
directory `shared` beside the repository) with spec/, bench/, corpus/ and
oracle/.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GOCODE = "/usr/share/gocode"
# hcl 2.14.1's sources, for their test tables (the newest reference's sources
# in the shared directory have no tests).
HCL_TESTS_DIR = GOCODE + "/src/github.com/hashicorp/hcl/v2"
# The shared directory: $HCLVM_SHARED_DIR, or `shared` beside the repository.
SHARED = os.environ.get("HCLVM_SHARED_DIR") or os.path.normpath(
    os.path.join(HERE, "..", "..", "..", "..", "shared"))
# The GOPATH that builds against the newest reference, as setup-newest.sh does.
NEWEST_GOPATH = ":".join([os.path.join(SHARED, "oracle", "newest"),
                          os.path.join(SHARED, "oracle", "newest", "compat"), GOCODE])
NEWEST_BIN = os.environ.get("HCL_ORACLE_NEWEST_BIN", "/opt/hcl-oracle/newest/bin")

# ---------------------------------------------------------------------------
# JSON with exact numbers: cty numbers have up to 512 bits of mantissa, so
# they are kept as their decimal text and never go through a Python float.


class Num:
    """A JSON number kept as its text."""

    def __init__(self, text):
        self.text = text

    def __eq__(self, other):
        return isinstance(other, Num) and other.text == self.text

    def __hash__(self):
        return hash(self.text)

    def __repr__(self):
        return self.text


def jload(s):
    return json.loads(s, parse_float=Num, parse_int=Num)


_ESC = re.compile("[\u007f-\u009f\u2028\u2029]")


def jstr(s):
    out = json.dumps(s, ensure_ascii=False)
    # Characters that some line readers treat as line ends stay escaped.
    return _ESC.sub(lambda m: "\\u%04x" % ord(m.group(0)), out)


def jdump(v, indent=None, _level=0):
    """Compact (or indented) JSON; dict order is kept; Num is written raw."""
    if isinstance(v, Num):
        return v.text
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        return jstr(v)
    if isinstance(v, (list, tuple)):
        items = [jdump(x, indent, _level + 1) for x in v]
        if indent is None or not items:
            return "[" + ",".join(items) + "]"
        pad = "\n" + " " * (indent * (_level + 1))
        return "[" + ",".join(pad + x for x in items) + "\n" + " " * (indent * _level) + "]"
    if isinstance(v, dict):
        items = [jstr(k) + ":" + ("" if indent is None else " ") + jdump(x, indent, _level + 1)
                 for k, x in v.items()]
        if indent is None or not items:
            return "{" + ",".join(items) + "}"
        pad = "\n" + " " * (indent * (_level + 1))
        return "{" + ",".join(pad + x for x in items) + "\n" + " " * (indent * _level) + "}"
    raise TypeError("cannot encode %r" % (v,))


# ---------------------------------------------------------------------------
# The batch oracle: gohcl-bench's main.go plus this file, built in GOPATH mode.

BATCH_GO = r'''
// Added by tests/golden/eval/gen.py to a copy of gohcl-bench's source: a
// batch mode with the same parser call, function table, variables and value
// printer as `gohcl-bench eval`, printing every diagnostic as JSON.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

type batchPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

type batchRange struct {
	Start batchPos `json:"start"`
	End   batchPos `json:"end"`
}

type batchDiag struct {
	Severity string      `json:"severity"`
	Summary  string      `json:"summary"`
	Detail   string      `json:"detail"`
	Subject  *batchRange `json:"subject"`
	Context  *batchRange `json:"context"`
	Values   []string    `json:"values,omitempty"`
}

// The statements the reference's text writer lists under diagnostic d about
// the values of its expression's variables ("x as 3"), read back from its
// output (without source files, the list follows "(source code not
// available)").
func batchValues(d *hcl.Diagnostic) []string {
	if d.Expression == nil || d.EvalContext == nil || d.Subject == nil {
		return nil
	}
	var buf bytes.Buffer
	w := hcl.NewDiagnosticTextWriter(&buf, map[string]*hcl.File{}, 0, false)
	if err := w.WriteDiagnostic(d); err != nil {
		return nil
	}
	text := buf.String()
	marker := "(source code not available)\n\n"
	i := strings.Index(text, marker)
	if i < 0 {
		return nil
	}
	var out []string
	for _, line := range strings.Split(text[i+len(marker):], "\n") {
		if strings.HasPrefix(line, "with ") && len(out) == 0 {
			line = line[5:]
		} else if strings.HasPrefix(line, "     ") && len(out) > 0 {
			line = line[5:]
		} else {
			break
		}
		out = append(out, line[:len(line)-1])
		if strings.HasSuffix(line, ".") {
			break
		}
	}
	return out
}

func batchRng(r *hcl.Range) *batchRange {
	if r == nil {
		return nil
	}
	return &batchRange{batchPos{r.Start.Line, r.Start.Column, r.Start.Byte},
		batchPos{r.End.Line, r.End.Column, r.End.Byte}}
}

func batchDiags(diags hcl.Diagnostics) []batchDiag {
	out := []batchDiag{}
	for _, d := range diags {
		s := "error"
		if d.Severity == hcl.DiagWarning {
			s = "warning"
		}
		out = append(out, batchDiag{s, d.Summary, d.Detail, batchRng(d.Subject), batchRng(d.Context),
			batchValues(d)})
	}
	return out
}

// The expression node's Go type without its package, e.g. "BinaryOpExpr".
func nodeName(n interface{}) string {
	return strings.TrimPrefix(strings.TrimPrefix(fmt.Sprintf("%T", n), "*"), "hclsyntax.")
}

// One expression: parsed and evaluated exactly as cmdEval does.
func batchEval() {
	ctxs := map[string]*hcl.EvalContext{}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	for in.Scan() {
		var req struct {
			Expr string `json:"expr"`
			Vars string `json:"vars"`
		}
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fail("batch input: %s", err)
		}
		ctx, ok := ctxs[req.Vars]
		if !ok {
			ctx = evalContext(req.Vars)
			ctxs[req.Vars] = ctx
		}
		var out struct {
			ParseDiags []batchDiag `json:"parse_diags"`
			EvalDiags  []batchDiag `json:"eval_diags"`
			Result     *typedValue `json:"result"`
			Node       string      `json:"node"`
			Nodes      []string    `json:"nodes"`
			Panic      string      `json:"panic,omitempty"`
		}
		expr, diags := hclsyntax.ParseExpression([]byte(req.Expr), "<expr>", hcl.InitialPos)
		out.ParseDiags = batchDiags(diags)
		out.EvalDiags = []batchDiag{}
		out.Nodes = []string{}
		if expr != nil {
			out.Node = nodeName(expr)
			seen := map[string]bool{}
			hclsyntax.VisitAll(expr, func(n hclsyntax.Node) hcl.Diagnostics {
				name := nodeName(n)
				if !seen[name] {
					seen[name] = true
					out.Nodes = append(out.Nodes, name)
				}
				return nil
			})
		}
		if !diags.HasErrors() {
			// gohcl-bench itself crashes on a panic that escapes the
			// reference; here it is recorded and the batch goes on.
			func() {
				defer func() {
					if r := recover(); r != nil {
						out.Panic = fmt.Sprint(r)
					}
				}()
				val, vdiags := expr.Value(ctx)
				out.EvalDiags = batchDiags(vdiags)
				if !vdiags.HasErrors() {
					tv := valueJSON(val)
					out.Result = &tv
				}
			}()
		}
		if err := enc.Encode(out); err != nil {
			fail("batch output: %s", err)
		}
	}
}

// Every attribute expression of the given native-syntax files that parse
// cleanly, with the root names of the variables it refers to.
func batchAttrs(files []string) {
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	for _, fn := range files {
		src, err := os.ReadFile(fn)
		if err != nil {
			continue
		}
		f, diags := hclsyntax.ParseConfig(src, fn, hcl.InitialPos)
		if diags.HasErrors() || f == nil {
			continue
		}
		var walk func(b *hclsyntax.Body)
		walk = func(b *hclsyntax.Body) {
			for _, a := range sortedSyntaxAttrs(b) {
				r := a.Expr.Range()
				vars := []string{}
				for _, t := range a.Expr.Variables() {
					vars = append(vars, t.RootName())
				}
				enc.Encode(struct {
					File string   `json:"file"`
					Line int      `json:"line"`
					Expr string   `json:"expr"`
					Vars []string `json:"vars"`
					Node string   `json:"node"`
				}{fn, r.Start.Line, string(src[r.Start.Byte:r.End.Byte]), vars, nodeName(a.Expr)})
			}
			for _, blk := range b.Blocks {
				walk(blk.Body)
			}
		}
		walk(f.Body.(*hclsyntax.Body))
	}
}

func init() {
	if len(os.Args) >= 2 && os.Args[1] == "batch-eval" {
		batchEval()
		os.Exit(0)
	}
	if len(os.Args) >= 2 && os.Args[1] == "batch-attrs" {
		batchAttrs(os.Args[2:])
		os.Exit(0)
	}
}
'''

def build_batch(bench_src, workdir):
    """Builds gohcl-bench's source plus BATCH_GO; returns the binary's path."""
    src = os.path.join(workdir, "src")
    os.makedirs(src)
    shutil.copy(os.path.join(bench_src, "main.go"), os.path.join(src, "main.go"))
    with open(os.path.join(src, "zz_batch.go"), "w") as f:
        f.write(BATCH_GO)
    env = dict(os.environ, GO111MODULE="off", GOFLAGS="", GOPATH=NEWEST_GOPATH)
    if not env.get("GOCACHE"):
        env["GOCACHE"] = os.path.join(tempfile.gettempdir(), "hcl-oracle-newest-gocache-" + str(os.getuid()))
    out = os.path.join(workdir, "oracle-batch")
    subprocess.run(["go", "build", "-o", out, "."], cwd=src, env=env, check=True)
    return out


def run_batch(binary, requests):
    """Evaluates [(expr, vars_path)] in one process; returns the JSON answers."""
    inp = "".join(json.dumps({"expr": e, "vars": v or ""}) + "\n" for e, v in requests)
    p = subprocess.run([binary, "batch-eval"], input=inp.encode(), stdout=subprocess.PIPE,
                       check=True)
    lines = p.stdout.decode().split("\n")[:-1]
    assert len(lines) == len(requests), (len(lines), len(requests))
    return [jload(l) for l in lines]


# ---------------------------------------------------------------------------
# Source 2: the reference's hclsyntax test tables. A small reader of Go
# composite literals turns each table row into (input, context); the context's
# cty values become a variables file when they are plain values.

_GO_TOKEN = re.compile(r'''
    (?P<ws>\s+|//[^\n]*|/\*.*?\*/)
  | (?P<raw>`[^`]*`)
  | (?P<str>"(?:[^"\\\n]|\\.)*")
  | (?P<rune>'(?:[^'\\\n]|\\.)*')
  | (?P<num>\d[\w.]*(?:[eE][+-]?\d+)?)
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<punct>\.\.\.|&&|\|\||==|!=|<=|>=|:=|[{}()\[\],:;.&*+\-/<>=!%|^])
''', re.X | re.S)


def go_tokens(src):
    out = []
    pos = 0
    while pos < len(src):
        m = _GO_TOKEN.match(src, pos)
        if not m:
            raise ValueError("go tokenizer stuck at %r" % src[pos:pos + 40])
        pos = m.end()
        kind = m.lastgroup
        if kind == "ws":
            continue
        text = m.group(0)
        if kind == "raw":
            out.append(("str", text[1:-1].replace("\r", "")))
        elif kind == "str":
            out.append(("str", go_unquote(text)))
        else:
            out.append((kind, text))
    return out


def go_unquote(lit):
    """Decodes a Go interpreted string literal (UTF-8 bytes via \\x, \\nnn)."""
    body = lit[1:-1]
    buf = bytearray()
    i = 0
    simple = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92, '"': 34, "'": 39}
    while i < len(body):
        c = body[i]
        if c != "\\":
            buf += c.encode()
            i += 1
            continue
        e = body[i + 1]
        if e in simple:
            buf.append(simple[e])
            i += 2
        elif e == "x":
            buf.append(int(body[i + 2:i + 4], 16))
            i += 4
        elif e in "01234567":
            buf.append(int(body[i + 1:i + 4], 8))
            i += 4
        elif e == "u":
            buf += chr(int(body[i + 2:i + 6], 16)).encode()
            i += 6
        elif e == "U":
            buf += chr(int(body[i + 2:i + 10], 16)).encode()
            i += 10
        else:
            raise ValueError("bad escape in %s" % lit)
    return buf.decode("utf-8", errors="surrogateescape")


class GoParser:
    """Just enough of Go's expression grammar for test tables."""

    def __init__(self, toks, pos=0):
        self.t = toks
        self.p = pos

    def peek(self, off=0):
        i = self.p + off
        return self.t[i] if i < len(self.t) else ("eof", "")

    def take(self, text=None):
        tok = self.peek()
        if text is not None and tok[1] != text:
            raise ValueError("expected %r, got %r" % (text, tok))
        self.p += 1
        return tok

    def skip_balanced(self):
        """Skips one bracketed group starting at the current token."""
        pairs = {"(": ")", "[": "]", "{": "}"}
        close = pairs[self.take()[1]]
        depth = [close]
        while depth:
            tok = self.take()
            if tok[0] == "punct" and tok[1] in pairs:
                depth.append(pairs[tok[1]])
            elif tok[0] == "punct" and tok[1] == depth[-1]:
                depth.pop()

    def typ(self):
        """A Go type: returns its text."""
        tok = self.peek()
        if tok[1] == "*":
            self.take()
            return "*" + self.typ()
        if tok[1] == "[":
            self.take()
            self.take("]")
            return "[]" + self.typ()
        if tok[1] == "map":
            self.take()
            self.take("[")
            k = self.typ()
            self.take("]")
            return "map[%s]%s" % (k, self.typ())
        if tok[1] == "struct":
            self.take()
            self.skip_balanced()
            return "struct"
        if tok[1] == "func":
            self.take()
            self.skip_balanced()
            if self.peek()[1] == "(":
                self.skip_balanced()
            elif self.peek()[0] == "ident" or self.peek()[1] in ("*", "["):
                self.typ()
            return "func"
        name = self.take()[1]
        while self.peek()[1] == "." and self.peek(1)[0] == "ident":
            self.take()
            name += "." + self.take()[1]
        return name

    def expr(self):
        tok = self.peek()
        if tok[1] == "&":
            self.take()
            return ("addr", self.expr())
        if tok[1] == "-":
            self.take()
            return ("neg", self.expr())
        if tok[0] == "str":
            self.take()
            node = ("str", tok[1])
            while self.peek()[1] == "+" and self.peek(1)[0] == "str":
                self.take()
                node = ("str", node[1] + self.take()[1])
            return node
        if tok[0] == "num":
            self.take()
            return ("num", tok[1])
        if tok[1] == "func":
            self.typ()
            self.skip_balanced()  # the body
            return ("func",)
        if tok[1] == "{":
            return ("comp", None, self.elements())
        if tok[1] in ("[", "map", "struct"):
            t = self.typ()
            return ("comp", t, self.elements())
        if tok[0] != "ident":
            raise ValueError("unexpected %r" % (tok,))
        name = self.take()[1]
        while self.peek()[1] == "." and self.peek(1)[0] == "ident":
            self.take()
            name += "." + self.take()[1]
        node = ("ident", name)
        while True:
            nxt = self.peek()[1]
            if nxt == "(":
                self.take()
                args = []
                while self.peek()[1] != ")":
                    args.append(self.expr())
                    if self.peek()[1] == "...":
                        self.take()
                    if self.peek()[1] == ",":
                        self.take()
                self.take(")")
                node = ("call", node, args)
            elif nxt == "{" and node[0] == "ident":
                node = ("comp", node[1], self.elements())
            elif nxt == "." and self.peek(1)[0] == "ident":
                self.take()
                node = ("sel", node, self.take()[1])
            else:
                return node

    def elements(self):
        self.take("{")
        elems = []
        while self.peek()[1] != "}":
            v = self.expr()
            if self.peek()[1] == ":":
                self.take()
                elems.append((v, self.expr()))
            else:
                elems.append((None, v))
            if self.peek()[1] == ",":
                self.take()
        self.take("}")
        return elems


def go_table(path, func_name):
    """The rows of the `tests := ...{...}` table in func [func_name]."""
    src = open(path, encoding="utf-8").read()
    start = src.index("func %s(" % func_name)
    start = src.index("tests := ", start) + len("tests := ")
    toks = go_tokens(src[start:src.index("\nfunc ", start) if "\nfunc " in src[start:] else None])
    p = GoParser(toks)
    p.typ()
    return p.elements()


class Skip(Exception):
    pass


def cty_json(node, notes):
    """The JSON for a Go cty value literal; raises Skip when JSON cannot hold it."""
    kind = node[0]
    if kind == "ident":
        name = node[1]
        if name == "cty.True":
            return True
        if name == "cty.False":
            return False
        if name == "cty.Zero":
            return Num("0")
        if name == "cty.EmptyObjectVal":
            return {}
        if name == "cty.EmptyTupleVal":
            return []
        if name == "cty.DynamicVal":
            raise Skip("unknown value")
        raise Skip("value %s" % name)
    if kind == "neg":
        inner = cty_json(node[1], notes)
        if isinstance(inner, Num):
            return Num("-" + inner.text)
        raise Skip("negation")
    if kind == "num":
        return Num(node[1])
    if kind == "str":
        return node[1]
    if kind == "call":
        fn = node[1]
        if fn[0] == "sel":
            method = fn[2]
            if method in ("Mark", "WithMarks", "MarkWithPaths"):
                raise Skip("marked value")
            raise Skip("method %s" % method)
        name = fn[1]
        args = node[2]
        if name.rsplit(".", 1)[-1] in ("Mark", "WithMarks", "MarkWithPaths"):
            raise Skip("marked value")
        if name == "cty.StringVal":
            return cty_json(args[0], notes)
        if name in ("cty.NumberIntVal", "cty.NumberUIntVal", "cty.NumberFloatVal"):
            return cty_json(args[0], notes)
        if name == "cty.BoolVal":
            return cty_json(args[0], notes)
        if name == "cty.UnknownVal":
            raise Skip("unknown value")
        if name == "cty.NullVal":
            if args[0] != ("ident", "cty.DynamicPseudoType"):
                notes.add("typed null")
            return None
        if name in ("cty.ObjectVal", "cty.MapVal"):
            if name == "cty.MapVal":
                notes.add("map")
            lit = args[0]
            if lit[0] != "comp":
                raise Skip("non-literal map")
            return {cty_json(k, notes): cty_json(v, notes) for k, v in lit[2]}
        if name in ("cty.TupleVal", "cty.ListVal", "cty.SetVal"):
            if name != "cty.TupleVal":
                notes.add(name[4:-3].lower())
            lit = args[0]
            if lit[0] != "comp":
                raise Skip("non-literal list")
            return [cty_json(v, notes) for _, v in lit[2]]
        if name in ("cty.ListValEmpty", "cty.SetValEmpty"):
            notes.add(name[4:7].lower())
            return []
        if name == "cty.MapValEmpty":
            notes.add("map")
            return {}
        if name == "cty.CapsuleVal":
            raise Skip("capsule value")
        raise Skip("call %s" % name)
    if kind == "ident" and node[1] in ("true", "false"):
        return node[1] == "true"
    raise Skip("value node %s" % kind)


def bench_function_table(bench_src):
    """gohcl-bench's function table as name -> Go expression text."""
    src = open(os.path.join(bench_src, "main.go"), encoding="utf-8").read()
    body = src[src.index("func functionTable()"):]
    body = body[:body.index("\n}\n")]
    return dict(re.findall(r'"(\w+)":\s*([\w.]+(?:\([^)]*\))?)', body))


def eval_context(node, funcs, notes):
    """Variables (as JSON) of a Go *hcl.EvalContext literal; Skip when not expressible."""
    if node == ("ident", "nil"):
        return None
    if node[0] == "addr":
        node = node[1]
    if node[0] != "comp" or node[1] != "hcl.EvalContext":
        raise Skip("context %s" % (node[0],))
    variables = None
    for key, val in node[2]:
        field = key[1]
        if field == "Variables":
            variables = {cty_json(k, notes): cty_json(v, notes) for k, v in val[2]}
        elif field == "Functions":
            for k, v in val[2]:
                name = cty_json(k, notes)
                text = v[1] if v[0] == "ident" else None
                if text is None or funcs.get(name) != text:
                    raise Skip("custom function")
        else:
            raise Skip("context field %s" % field)
    return variables


# ---------------------------------------------------------------------------
# Variables files written by this script (vars-bench.json is copied from
# shared/bench). Top-level keys become variables; JSON arrays are tuples and
# JSON objects are objects (the oracle's -vars loader uses implied types).

VARS = {
    "vars-values.json": {
        "str": "hello", "empty_str": "", "num": 42, "neg": -7, "frac": 3.25, "zero": 0,
        "yes": True, "no": False, "nothing": None, "digits": "12345", "bool_str": "true",
        "num_str": "2.5", "space_str": "  padded\t\n",
        "empty_list": [], "empty_obj": {},
        "nums": [1, 2, 3, 4, 5], "strs": ["b", "a", "c", "a"], "mixed": [1, "two", True, None],
        "nested_list": [[1, 2], [3], []], "bools": [True, False],
        "num_strs": ["1", "2.5", "-3"],
        "obj": {"a": 1, "b": "two", "c": True, "d": None},
        "smap": {"x": "1", "y": "2", "z": "3"},
        "deep": {"a": {"b": {"c": [10, {"d": "deep"}]}}},
        "users": [
            {"name": "ann", "age": 31, "tags": ["a"], "team": "red"},
            {"name": "bob", "age": 17, "tags": [], "team": "blue"},
            {"name": "cy", "age": 45, "tags": ["b", "c"], "team": "red"},
        ],
        "hetero": [{"a": 1}, {"b": 2}],
        "by_key": {"b": 2, "a": 1, "c": 3, "B": 4, "_": 5, "10": 6, "9": 7},
        "matrix": [[1, 2, 3], [4, 5, 6]],
        "list_of_lists": [["a", "b"], ["c"]],
        "objlist": {"items": [{"id": 1, "sub": {"v": "x"}}, {"id": 2, "sub": {"v": "y"}}]},
        "count": {"index": 3}, "each": {"key": "k1", "value": "v1"},
        "var": {"region": "eu-west-1", "names": ["a", "b"], "settings": {"debug": True}},
    },
    "vars-null.json": {
        "n": None, "obj": {"a": None, "b": {"c": None}, "d": 1},
        "list": [None, 1], "all_null": [None, None], "empty_list": [], "empty_obj": {},
        "nested_empty": {"a": [], "b": {}, "c": [[]]}, "str": "s",
        "objs": [{"a": None}, {"a": 2}], "null_in_map": {"x": None, "y": "y"},
    },
    "vars-numbers.json": {
        "big": Num("123456789012345678901234567890"), "neg_big": Num("-98765432109876543210"),
        "tiny": Num("1e-30"), "huge": Num("1e300"), "max_i64": Num("9223372036854775807"),
        "min_i64": Num("-9223372036854775808"), "over_i64": Num("9223372036854775808"),
        "max_u64": Num("18446744073709551615"), "f_third": Num("0.3333333333333333"),
        "pi": Num("3.14159265358979323846264338327950288419716939937510582097494459"),
        "half": Num("0.5"), "neg_zero": Num("-0"), "exp": Num("1.5e10"), "small_int": Num("7"),
        "frac": Num("0.1"), "two53": Num("9007199254740993"), "list": [Num("1e3"), Num("-2.5"), Num("0.0001")],
    },
    "vars-unicode.json": {
        "cafe_nfc": "caf\u00e9", "cafe_nfd": "cafe\u0301", "emoji": "\U0001F44D\U0001F3FD",
        "family": "\U0001F468\u200d\U0001F469\u200d\U0001F467", "cjk": "\u65e5\u672c\u8a9e",
        "rtl": "\u05e9\u05dc\u05d5\u05dd", "mixed": "a\u00e9\u65e5\U0001F44D",
        "names": {"\u00e9": 1, "\u00e9x": 2, "\u65e5\u672c": 3, "z": 4, "E": 5},
        "words": ["\u00fcn\u00efc\u00f6d\u00e9", "\u00c0\u00c9\u00ce", "\u00df", "\u0130stanbul"],
        "zwj": "a\u200db", "nbsp": "\u00a0x\u00a0", "ideo_space": "\u3000y\u3000",
        "tab_nl": "a\tb\nc", "controls": "\u0001\u001f\u007f", "quote_bs": "\"\\",
        "dollar": "${not} %{interp}", "clef": "\U0001D11E", "hangul_nfd": "\u1112\u1161\u11ab",
        "flags": "\U0001F1EF\U0001F1F5\U0001F1FA\U0001F1F8", "combining": "a\u0300\u0301\u0302",
        "ohm": "\u2126", "angstrom": "\u212b", "greek": "\u039a\u03b1\u03bb\u03b7\u03bc\u03ad\u03c1\u03b1",
    },
    "vars-spec.json": {
        "var": {
            "region": "", "use_http": True, "environment": "staging", "business_unit_tag_name": "team",
            "list": [
                {"id": "i-1", "interfaces": [{"name": "eth0"}, {"name": "eth1"}]},
                {"id": "i-2", "interfaces": [{"name": "ens3"}]},
            ],
            "words": ["apple", "", "avocado", "banana"],
            "map": {"ab": "cde", "x": "yz"},
            "single_object": {"id": "solo"},
        },
        "local": {"http_files": ["a.cfg"], "cd_files": ["b.cfg"], "packages": ["git", "curl", "vim"],
                  "kickstart_config_path": "config/stage-ks.cfg"},
        "aws_instance": {"example": [{"id": "i-a"}, {"id": "i-b"}]},
        "tuple": [{"foo": {"bar": [1, 2]}}, {"foo": {"bar": [3, 4]}}],
        "any_number": 5, "any_object": {"id": "obj-1"}, "some_list": ["first", "second"],
        "default": "fallback", "empty_list": [], "a": 1, "b": 2, "x": 12, "y": 4, "z": 3,
        "foo": "FOO", "baz": "BAZ", "k": "key",
    },
}


def heredoc_nl(expr):
    """A heredoc's closing marker must end its line: the expression gets the newline a file has."""
    if expr.startswith("<<") and not expr.endswith("\n"):
        return expr + "\n"
    return expr


def spec_cases():
    """Every example expression of shared/spec (hclsyntax-spec.md, packer-expressions.md)."""
    s = "vars-spec.json"
    spec = "spec:hclsyntax-spec.md"
    packer = "spec:packer-expressions.md"
    rows = [
        # Literals and templates quoted in the text.
        (spec, '"hello"', None), (spec, '"hello true"', None), (spec, '"hello world"', None),
        (spec, '"true"', None), (spec, 'true', None), (spec, 'false', None), (spec, 'null', None),
        (spec, '"$${"', None), (spec, '"%%{"', None), (spec, '"${true}"', None),
        (spec, '"${"${true}"}"', None), (spec, '"hello ${true}"', None), (spec, '"${""}${true}"', None),
        (spec, '"%{ for v in [true] }${v}%{ endif }"', None),
        (spec, '"%{ for v in [true] }${v}%{ endfor }"', None),
        (spec, '"hello ${~ "world" }"', None), (spec, '"%{ if true ~} hello %{~ endif }"', None),
        (spec, '"${"hello" ~}${" world"}"', None),
        (spec, '"\\n\\r\\t\\"\\\\"', None), (spec, '"\\u00e9\\U0001F600"', None),
        # Collections.
        (spec, '["a", "b"]', None), (spec, '[0, 1]', None), (spec, '{a = 0, b = 1}', None),
        (spec, '{a = [0, 1], b = [2]}', None), (spec, '{foo = "baz"}', s), (spec, '{(foo) = "baz"}', s),
        (spec, '{for: 1, baz: 2}', s), (spec, '{baz: 2, for: 1}', s), (spec, '{(for): 1, baz: 2}', s),
        (spec, '[for, foo, baz]', s), (spec, '[(for), foo, baz]', s),
        # For expressions.
        (spec, '[for v in ["a", "b"]: v]', None), (spec, '[for i, v in ["a", "b"]: i]', None),
        (spec, '{for i, v in ["a", "b"]: v => i}', None),
        (spec, '{for i, v in ["a", "a", "b"]: k => v}', s),
        (spec, '{for i, v in ["a", "a", "b"]: v => i}', None),
        (spec, '{for i, v in ["a", "a", "b"]: v => i...}', None),
        (spec, '[for i, v in ["a", "b", "c"]: v if i < 2]', None),
        (spec, '[for v in tuple: v.foo.bar[0]]', s), (spec, '[for v in tuple: v.foo.bar][0]', s),
        # Splats.
        (spec, 'tuple.*.foo.bar[0]', s), (spec, 'tuple[*].foo.bar[0]', s),
        (spec, 'any_object.*.id', s), (spec, '[any_object.id]', s), (spec, 'any_number.*', s),
        (spec, '[any_number]', s), (spec, 'null.*', None), (spec, 'null[*]', None),
        # Operators.
        (spec, 'x / y * z', s), (spec, '(x / y) * z', s), (spec, '(a == b) == !(a != b)', s),
        (spec, '(a == b) == (b == a)', s), (spec, 'a == b', s), (spec, 'a != b', s), (spec, 'a < b', s),
        (spec, 'a <= b', s), (spec, 'a > b', s), (spec, 'a >= b', s), (spec, 'a + b', s),
        (spec, 'a - b', s), (spec, 'a * b', s), (spec, 'a / b', s), (spec, 'a % b', s), (spec, '-a', s),
        (spec, 'a && b', s), (spec, 'a || b', s), (spec, '!a', s), (spec, 'true && false', None),
        (spec, 'true || false', None), (spec, '!true', None),
        (spec, 'length(some_list) > 0 ? some_list[0] : default', s),
        (spec, 'length(empty_list) > 0 ? empty_list[0] : default', s),
        # Packer's guide.
        (packer, '{\nname = "John"\nage = 52\n}', None), (packer, '{name = "Mabel", age = 52}', None),
        (packer, '["us-west-1a", "us-west-1c"]', None), (packer, '["a", 15, true]', None),
        (packer, '15', None), (packer, '6.283185', None), (packer, '"15"', None), (packer, '"false"', None),
        (packer, 'var.region != "" ? var.region : "us-east-1"', s),
        (packer, 'var.use_http ? "/path/to/files" : null', s),
        (packer, 'var.use_http ? local.http_files : null', s),
        (packer, '!var.use_http ? local.cd_files : null', s),
        (packer, 'var.environment == "production" ?\n"config/prod-ks.cfg" :\n(var.environment == "staging" ?\n'
                 '"config/stage-ks.cfg" :\n"config/dev-ks.cfg")', s),
        (packer, 'file(local.kickstart_config_path)', s),
        (packer, '[for s in var.words : upper(s)]', s), (packer, '{for s in var.words : s => upper(s)}', s),
        (packer, '[for s in var.words : upper(s) if s != ""]', s),
        (packer, '[for k, v in var.map : length(k) + length(v)]', s),
        (packer, '{for s in var.words : substr(s, 0, 1) => s... if s != ""}', s),
        (packer, '[for o in var.list : o.id]', s), (packer, 'var.list[*].id', s),
        (packer, 'var.list[*].interfaces[0].name', s), (packer, '[for o in var.list : o.interfaces[0].name]', s),
        (packer, 'aws_instance.example[*].id', s), (packer, '[var.single_object.id]', s),
        (packer, '[var.single_object][*].id', s), (packer, 'var.single_object[*].id', s),
        (packer, '{(var.business_unit_tag_name) = "SRE"}', s),
        (packer, '<<EOF\nhello\nworld\nEOF', None), (packer, '<<-EOF\n  hello\n    world\n  EOF', None),
        (packer, '<<-EOF\n#!/bin/bash\nif [ ${length(local.packages)} -eq 0 ]; then\n'
                 'echo "No packages to install."\nexit 1\nfi\napt-get update\n%{ for package in local.packages ~}\n'
                 'apt-get install -y ${package}\n%{ endfor ~}\nEOF', s),
        (packer, '<<-EOF\n    #!/bin/bash\n    if [ ${length(local.packages)} -eq 0 ]; then\n'
                 '      echo "No packages to install."\n      exit 1\n    fi\n    apt-get update\n'
                 '    %{ for package in local.packages ~}\n    apt-get install -y ${package}\n'
                 '    %{ endfor ~}\n    EOF', s),
        (packer, 'setproduct(["a", "b"], [1, 2])', None), (packer, 'flatten([[1, 2], [3], []])', None),
    ]
    out = []
    for i, (src, expr, vars_file) in enumerate(rows):
        out.append({"id": "spec-%03d" % (i + 1), "src": src, "kind": "spec", "expr": heredoc_nl(expr),
                    "vars": vars_file})
    return out


def bench_cases():
    """shared/bench/expressions.txt with vars-bench.json."""
    out = []
    path = os.path.join(SHARED, "bench", "expressions.txt")
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, expr = line.split(None, 1)
        out.append({"id": "bench-" + name, "src": "bench:expressions.txt:" + name, "kind": "bench",
                    "expr": expr.strip(), "vars": "vars-bench.json"})
    return out


NOTE_TEXT = {
    "list": "a list in the Go test's context is a tuple here (JSON variables)",
    "set": "a set in the Go test's context is a tuple here (JSON variables)",
    "map": "a map in the Go test's context is an object here (JSON variables)",
    "typed null": "a typed null in the Go test's context is an untyped (dynamic) null here",
}


def hcltest_cases(bench_src, skipped):
    """Rows of the reference's hclsyntax test tables (see README.md for what is skipped)."""
    funcs = bench_function_table(bench_src)
    tables = [
        ("expression_test.go", "TestExpressionParseAndValue", "expr"),
        ("expression_test.go", "TestExpressionErrorMessages", "errmsg"),
        ("expression_template_test.go", "TestTemplateExprParseAndValue", "template"),
    ]
    out = []
    ctx_files = {}
    for fname, func, short in tables:
        rows = go_table(os.path.join(HCL_TESTS_DIR, "hclsyntax", fname), func)
        for i, (_, row) in enumerate(rows):
            fields = [v for _, v in row[2]]
            src = "hcl-test:hclsyntax/%s:%s[%d]" % (fname, func, i)
            inp = fields[0][1]
            notes = set()
            try:
                variables = eval_context(fields[1], funcs, notes)
            except Skip as e:
                skipped.append((src, str(e)))
                continue
            vars_file = None
            if variables is not None:
                key = jdump(variables)
                if key not in ctx_files:
                    ctx_files[key] = "vars-hcl-%02d.json" % (len(ctx_files) + 1)
                    VARS[ctx_files[key]] = variables
                vars_file = ctx_files[key]
            if short == "template":
                # A bare template becomes the body of a heredoc (which adds a final newline).
                marker = "EOT"
                while marker in inp:
                    marker += "X"
                expr = "<<%s\n%s\n%s\n" % (marker, inp, marker)
            else:
                expr = inp
            case = {"id": "hcl-%s-%03d" % (short, i), "src": src, "kind": "hcl-test", "expr": expr,
                    "vars": vars_file}
            if notes:
                case["note"] = "; ".join(NOTE_TEXT[n] for n in sorted(notes))
            out.append(case)
    return out


def corpus_cases(batch):
    """Attribute expressions of shared/corpus that use no variables: a deterministic sample."""
    corpus = os.path.join(SHARED, "corpus")
    files = []
    for line in open(os.path.join(corpus, "RESULTS.tsv"), encoding="utf-8"):
        cols = line.rstrip("\n").split("\t")
        if len(cols) > 3 and cols[1] == "native" and cols[3] == "ok":
            files.append(cols[0])
    attrs = []
    for i in range(0, len(files), 500):
        p = subprocess.run([batch, "batch-attrs"] + files[i:i + 500], cwd=corpus,
                           stdout=subprocess.PIPE, check=True)
        attrs += [json.loads(l) for l in p.stdout.decode().split("\n") if l]
    seen = {}
    for a in attrs:
        if a["vars"] or a["expr"] in seen or len(a["expr"]) > 2500 or "\x00" in a["expr"]:
            continue
        seen[a["expr"]] = a

    def key(e):
        return hashlib.sha1(e.encode()).hexdigest()

    groups = {}
    for e, a in seen.items():
        node = a["node"]
        if node == "TemplateExpr":
            if e.startswith("<<"):
                node = "heredoc"
            elif "${" in e or "%{" in e:
                node = "template"
            elif "\\" in e or any(ord(c) > 127 for c in e):
                node = "string-escapes"
            else:
                node = "string"
        groups.setdefault(node, []).append(e)
    quota = {"heredoc": 80, "string": 40, "string-escapes": 40, "TupleConsExpr": 50,
             "ObjectConsExpr": 50, "LiteralValueExpr": 30}
    unknown_calls = 0
    out = []
    for node in sorted(groups):
        exprs = sorted(groups[node], key=key)
        taken = 0
        for e in exprs:
            if taken >= quota.get(node, 10 ** 6):
                break
            m = re.match(r'"?\$?\{?(\w+)\(', e)
            if m and m.group(1) not in BENCH_FUNCS:
                # Calls to Terraform functions the oracle lacks: a few are enough.
                unknown_calls += 1
                if unknown_calls > 25:
                    continue
            a = seen[e]
            out.append({"id": "corpus-%s" % key(e)[:10], "src": "corpus:%s:%d" % (a["file"], a["line"]),
                        "kind": "corpus", "expr": heredoc_nl(e), "vars": None})
            taken += 1
    out.sort(key=lambda c: c["id"])
    return out


BENCH_FUNCS = set()


# ---------------------------------------------------------------------------
# Source 5: systematic cases. Each group is (kind, vars file, [expressions]).
# Expressions are Python strings holding HCL source: "\\n" is a backslash
# escape inside an HCL string, "\n" a real newline in the source.

V = "vars-values.json"
VN = "vars-null.json"
VNUM = "vars-numbers.json"
VU = "vars-unicode.json"

def matrix(ops, left, right=None, fmt="{a} {op} {b}"):
    right = left if right is None else right
    return [fmt.format(a=a, op=op, b=b) for op in ops for a in left for b in right]


def own_groups():
    g = []
    # -- literals ------------------------------------------------------------
    g.append(("literal-number", None, [
        "0", "1", "-1", "42", "1.5", "-1.5", "0.5", "1e3", "1E3", "1e+3", "1e-3", "1.5e3", "2.5E-3",
        "00012", "0012.50", "0.0", "1.0", "1.50", "100", "1e2", "1e0", "0e0", "123456789012345678901234567890",
        "0.1", "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899",
        "1e400", "1e-400", "-1e400", "1e21", "1e20", "0.000001", "0.0000001", "123456789.123456789",
        "1.23456789012345678901234567890123456789e-5", "2.5e-7", "9007199254740993", "9223372036854775807",
        "9223372036854775808", "18446744073709551616", "-0", "-0.0", "1.", ".5", "1e", "1e+", "0x10",
        "1_000", "1..2", "1.5.2", "1a", "0b101", "1e1000000000", "1e-1000000000", "07", "-(1)", "+1",
    ]))
    g.append(("literal-string", None, [
        '""', '"a"', '"hello world"', '"a\\nb"', '"a\\tb"', '"a\\rb"', '"\\"q\\""', '"\\\\"', '"\\\\n"',
        '"\\u00e9"', '"\\u00E9"', '"\\U0001F600"', '"\\U0001f600"', '"\\u0041\\u0301"', '"e\\u0301"',
        '"\\uD800"', '"\\uDFFF"', '"\\U00110000"', '"\\U0010FFFF"', '"\\u00"', '"\\u00zz"', '"\\U1234"',
        '"\\q"', '"\\x41"', '"\\0"', '"\\a"', '"\\/"', '"\\ "', '"\\$"', '"\\%"', '"$${x}"', '"%%{x}"',
        '"$$"', '"%%"', '"$"', '"%"', '"$x"', '"%x"', '"$$${1}"', '"%%%{if true}x%{endif}"', '"a$"',
        '"a%"', '"$${"', '"$$$${x}"', '"\u65e5\u672c\u8a9e"', '"\U0001F44D\U0001F3FD"', '"caf\u00e9"',
        '"cafe\u0301"', '"\u212b"', '"\u00a0"', '"tab\there"', '"multi\nline"', '"unterminated',
        '"a" "b"', "'single'", "`backtick`", '"\\u0000"', '"a\\u0000b"', '"\\u007f"', '"\\u2028"',
        '"\\r\\n"', '"\ufeff"', '"\\ufeff"',
    ]))
    g.append(("literal-other", None, [
        "true", "false", "null", "True", "FALSE", "Null", "nil", "(true)", "((null))", "[true, false, null]",
        "true.false", "null.x", "true[0]", "(null)", "\ufeff1", "\ufeff true", " 1 ", "\t1", "\n1", "1\n",
        "\n\n1\n\n", "/* c */ 1", "1 // c", "1 # c", "1 /* c */ + 2", "// only a comment", "", " ",
        "\r\n1\r\n",
    ]))
    # -- operators -----------------------------------------------------------
    arith = ["7", "0", "-2.5", '"3"', '"abc"', "true", "null", "[1]"]
    g.append(("op-arith", None, matrix(["+", "-", "*", "/", "%"], arith)))
    cmp_all = ["1", "2", "-0.5", '"2"', '"b"', "true", "null", "[1]"]
    cmp_num = ["1", "2", "-0.5", '"2"', '"10"']
    g.append(("op-compare", None, matrix(["<"], cmp_all) + matrix(["<=", ">", ">="], cmp_num)))
    eq = ["1", "1.0", '"1"', "true", '"true"', "null", "[1]", "[1.0]", "tolist([1])", "toset([1])",
          "{a=1}", "tomap({a=1})", '""', "[]", "{}"]
    g.append(("op-equal", None, matrix(["=="], eq) + matrix(["!="], ["1", '"1"', "null", "[1]", "{a=1}", "true"]) + [
        "null == null", "[null] == [null]", "{a=null} == {a=null}", "{a=null} == {}", "tolist([]) == []",
        "tomap({}) == {}", "toset([]) == toset([])", "toset([1, 2]) == toset([2, 1])",
        "tolist([1, 2]) == tolist([2, 1])", "[1, [2, {a=3}]] == [1, [2, {a=3}]]",
        "{a=1, b=2} == {b=2, a=1}", '{a=1} == {a="1"}', '[1] == ["1"]', "tomap({a=1}) == tomap({a=1})",
        '"\u00e9" == "e\u0301"', '"\\u00e9" == "e\\u0301"', "0.1 + 0.2 == 0.3", "-0 == 0", "1e400 == 1e400",
        "1 == 1.0000000000000000000001", "1/3 == 1/3", "[null] == [1]", "null != null", "1 == 1 == true",
        "(1 == 1) == (2 == 2)", '"a" == "A"', "[] == {}", "toset([]) == []", '"" == null',
        "tolist([]) == tolist([])", "tolist([1]) == tolist([1.0])", "[[]] == [[]]",
    ]))
    logic = ["true", "false", "null", '"true"', "1", '"false"']
    g.append(("op-logic", None, matrix(["&&", "||"], logic) + [
        "true && true && false", "false || false || true", "true || false && false", "(true || false) && false",
        "!true || true", "!(true || true)", "false && null", "true || null", "null && null",
        "false && 1/0 > 0", "true || [1][5]", "!!true", "! !false",
    ]))
    g.append(("op-unary", None, [
        "-1", "- 1", "-(-1)", "--1", "- -1", "-0", "-(0)", '-"2"', '-"x"', "-true", "-null", "-[1]", "-1e400",
        "-(1/0)", "!true", "!false", '!"true"', '!"false"', '!"yes"', "!1", "!null", "![true]", "!!false",
        "!!!true", "-!true", "!-1", "-{}", "!(1 == 1)", "- - - 1", "-(-(-(1)))",
    ]))
    ops = ["+", "-", "*", "/", "%"]
    prec = ["7 {} 3 {} 2".format(a, b) for a in ops for b in ops]
    prec += ["(7 {} 3) {} 2".format(a, b) for a in ops for b in ops if (a in "+-") != (b in "+-")]
    prec += ["7 {} (3 {} 2)".format(a, b) for a in ops for b in ops]
    prec += [
        "1 + 2 * 3 == 7", "1 + 2 * 3 == 7 && !false || 1 > 2", "1 < 2 == true", "1 < 2 == 2 > 1",
        "true == 1 < 2", "1 == 1 && 2 == 2", "-2 * -3", "-2 - -3", "-1 + 2 * -3", "!true == false",
        "!(true == false)", "1 + 2 > 2 + 0.5", "10 - 2 - 3", "100 / 10 / 5", "2 * 3 % 4", "2 % 3 * 4",
        "8 / 2 * 4", "1 - -1", "1--1", "1 -1", "1+-1", "1 +\n2", "(1 +\n2)", "[1 +\n2]", "1 < 2 < 3",
        "(1 < 2) < 3", "true ? 1 : 2 + 3", "(true ? 1 : 2) + 3", "1 + (true ? 1 : 2)", "true || false ? \"y\" : \"n\"",
        "false ? 1 : true ? 2 : 3", "true ? false ? 1 : 2 : 3", "1 == 1 ? 1 + 1 : 2 * 2", "!true ? 1 : 0",
        "-1 < 0 && 0 < 1", "2 + 3 * 4 - 5 / 5 % 3", "((((1))))", "(1)(2)", "1 + (2", "1 + 2)",
        "[1, 2][0] + [3][0] * 2", '{a=1}.a + {a=2}["a"]', "-[1, 2][1]", "!{a=true}.a",
    ]
    g.append(("precedence", None, prec))
    g.append(("number", None, [
        "1/3", "2/3", "10/3", "-1/3", "1/7", "22/7", "1e100", "1e-100", "1e400 * 10", "0.1 + 0.2", "1.0 * 1",
        "1.50 + 0", "123456789012345678901234567890 + 1", "123456789012345678901234567890 * 10",
        "9007199254740993 + 0", "9223372036854775807 + 1", "18446744073709551616 * 2", "2 * 0.5", "0 * -1",
        "-0 + 0", "0 - 0", "tostring(-0)", "tostring(0 * -1)", "11 % 5.1", "-7 % 3", "7 % -3", "-7 % -3",
        "5 % 0", "5.5 % 2", "1 % 0.3", "-5 % 0", "0 % 5", "0/0", "1/0", "-1/0", "1/0 - 1/0", "1/0 * 0",
        "0 * (1/0)", "(1/0) > 1e400", "(1/0) == (1/0)", "tostring(1/0)", "1/0 + 1", "-(1/0)", "(1/0) % 2",
        "2 % (1/0)", "1/3 * 3", "1/3 + 1/3 + 1/3 == 1", "length([1,2,3])/length([1,2,3,4,5,6,7])", "3/7",
        "length([1,2,3])/7", "3/length([1,2,3,4,5,6,7])", "length([1])/3 == 1/3", "length([1]) * 0.1",
        "pow(10, 400)", "pow(2, 0.5)", "pow(2, 64)", "pow(2, 63) + 1", "pow(3, 40)", "log(8, 2)",
        "log(100, 10)", "floor(-0.5)", "ceil(-0.5)", "floor(1e400)", "floor(1/0)", "abs(-0)", "abs(1e400)",
        "parseint(\"ff\", 16)", "parseint(\"-101\", 2)", "parseint(\"zz\", 36)",
        "parseint(\"123456789012345678901234567890\", 10)", "parseint(\"FF\", 16) / 3",
        "tonumber(\"1e3\")", "tonumber(\"0x10\")", "tonumber(\" 1\")", "tonumber(\"1_000\")",
        "tonumber(\"Inf\")", "tonumber(\"-0\")", "tonumber(\".5\")", "tonumber(\"5.\")", "tonumber(\"1e400\")",
        "tonumber(\"0.1\") + tonumber(\"0.2\")", "max(1, 2.5, -3)", "min(1/3, 0.3)", "signum(-0)",
        "signum(-2.5)", "signum(1e-400)", "tostring(1/3)", "\"${1/3}\"", "\"${1e30}\"", "\"${2e-7}\"",
        "\"${1e21}\"", "\"${-0}\"", "\"${100.0}\"", "jsonencode(1/3)", "jsonencode(1e30)", "jsonencode(-0)",
        "jsonencode(2e-7)", "format(\"%f\", 1/3)", "format(\"%.2f\", 2.675)", "format(\"%d\", 1e20)",
        "format(\"%e\", 12345.678)", "format(\"%g\", 0.0000123)", "format(\"%d\", 2.5)", "format(\"%v\", 1/3)",
        "format(\"%s\", 1/3)", "format(\"%.0f\", 0.5)", "format(\"%.0f\", 1.5)", "format(\"%x\", 255)",
        "0.5 * 2 == 1", "3 * 1.1", "10 - 9.99", "1e-7 * 1e7", "-(1/3)", "1 - 1e-30", "1 + 1e-300 == 1",
        "1e300 * 1e300", "1e-300 * 1e-300", "1e308 * 10", "2 * 1e400", "1e400 - 1e400", "1e400 / 1e400",
        "0.3 - 0.1", "1.1 * 1.1", "100 / 3", "1000000 / 7", "1 / 1024", "1 / 3e10", "7 / 0.1",
        "tostring(0.1 + 0.2)", "tostring(123456789012345678901234567890)", "tostring(1e-7)",
        "12345678901234567890 % 97", "-12345678901234567890 % 97", "2.5 % -1", "1e30 % 7",
        "floor(7 / 2)", "ceil(7 / 2)", "floor(-7 / 2)", "7 % 2.5", "0.1 * 3 == 0.3",
        "tonumber(tostring(1/3)) == 1/3", "range(0, 1, 0.25)", "range(0, 0.3, 0.1)",
    ]))
    # -- conditionals --------------------------------------------------------
    ctypes = ["1", '"a"', "true", "null", "[1]", '["a", 1]', "{a=1}", '{b="x"}', "tolist([1])",
              "tomap({a=1})", "toset([1])", "[]"]
    cond = ["true ? {} : {}".format(a, b) for a in ctypes for b in ctypes]
    cond += ["false ? {} : {}".format(a, b) for a in ["1", '"a"', "null", "[1]", "{a=1}", "tolist([1])"]
             for b in ["1", '"a"', "null", "[1]", "{a=1}", "tolist([1])"]]
    cond += [
        'null ? 1 : 2', '"true" ? 1 : 2', '"false" ? 1 : 2', '"yes" ? 1 : 2', '1 ? 1 : 2', '[true] ? 1 : 2',
        '0 ? 1 : 2', 'true ? 1 : 1/0', 'false ? 0/0 : 1', 'true ? 1 : 0/0', 'false ? [][0] : 1',
        'true ? [][0] : 1', 'true ? 1 : undefined', 'false ? undefined : 1', 'true ? 1 : upper(1, 2)',
        'true ? tolist([1]) : tolist(["a"])', 'true ? [1, 2] : [3]', 'true ? [] : ["a"]',
        'true ? null : null', 'false ? null : [1]', 'true ? {a=1} : tomap({a="x"})',
        'true ? {a=1} : {a="x"}', 'true ? {a=1, b=2} : {a=1}', 'true ? toset([1]) : toset(["a"])',
        'true ? tomap({a=1}) : tomap({b=[1]})', 'true ? [1] : tolist(["a"])', 'true ? ["a", 1] : tolist(["b"])',
        'true ? 1 : "a"', 'false ? 1 : "a"', 'true ? true : "x"', 'true ? 1 : false',
        'true ? [[1]] : [["a"]]', 'true ? {a=[1]} : {a=["x"]}', 'true ? tolist([{a=1}]) : [{a="x"}]',
        'true ? "a" : [1]', 'true?1:2', 'true ?\n1 :\n2', '(true\n? 1\n: 2)', 'true ? 1', 'true ? : 2',
        '? 1 : 2', 'true ? 1 : 2 : 3', 'true ? (1, 2) : 3', '1 == 1 ? "eq" : "ne"',
        '[for x in [1, 2, 3] : x > 1 ? "big" : "small"]', '"${true ? "y" : "n"}"',
        'false ? 1 : null', 'true ? tomap({}) : {}', 'true ? {} : tomap({a=1})', 'true ? [] : tolist([])',
        'true ? toset([]) : []', 'true ? {a=null} : {a=1}', 'true ? [null] : [1]',
    ]
    g.append(("conditional", None, cond))
    # -- index, attribute, splat --------------------------------------------
    containers = ["[10, 20, 30]", "tolist([10, 20, 30])", "toset([10, 20, 30])", '{a = 1, b = 2, "0" = 3}',
                  "tomap({a = 1, b = 2})", '"abc"', "5", "null", "[]", "{}", "tolist([])",
                  "[{a = 1}, {a = 2}]", "tolist([{a = 1}, {a = 2}])", "toset([{a = 1}])"]
    steps = ["[0]", "[2]", "[3]", "[-1]", "[1.5]", '["1"]', '["a"]', '["0"]', "[true]", "[null]",
             "[[0]]", ".a", ".b", ".0", ".1", "[*]", ".*", "[*].a", ".*.a", "[*][0]", ".*[0]",
             "[*].a[0]", "[*][*]"]
    idx = [c + s for c in containers for s in steps]
    idx += ["(5)[0]", "(5).a", "(null)[0]", "(null).a", '("abc").a', '"abc"[0]']
    g.append(("index-splat", None, idx))
    vsteps = ["[0]", "[1]", "[5]", '["a"]', ".a", ".name", ".0", "[*]", ".*", "[*].name", ".*.name",
              "[*][0]"]
    dyn_keys = ["[0 + 1]", "[length([])]", '[lower("A")]', '[tostring(0)]', "[tonumber(\"2\")]",
                "[1 / 2]", "[0 - 1]", "[length([1, 2, 3])]", "[true ? 0 : 1]", "[[0][0]]", "[{a = 0}.a]",
                "[null == null]", "[tolist([0])]", '["${0}"]']
    g.append(("index-dynamic", None, [c + k for c in ["[10, 20, 30]", "tolist([10, 20, 30])", "toset([10])",
                                                        '{a = 1, "0" = 3}', "tomap({a = 1})", '"abc"', "null",
                                                        "[]"] for k in dyn_keys] + [
        'tolist(["a", null])[*][*]', 'toset(["a", null])[*][*]', 'tolist([null, "a"])[*][*]',
        '["a", null][*][*]', 'tolist([[], ["a"]])[*][*]', 'tolist([{a = 1}, null])[*].a',
    ]))
    # Splats whose items are collected in place, with items that need the
    # general path (a map, a missing attribute, null, a short list) among them.
    g.append(("splat-in-place", None, [
        "[{a = 1}, tomap({a = 2}), {a = 3}][*].a", "[{a = {b = 1}}, {a = tomap({b = 2})}, {a = {b = 3}}][*].a.b",
        "[{a = 1}, {b = 2}, {a = 3}][*].a", "[{a = 1}, {a = 2}, null][*].a", "[{a = [1, 2]}, {a = [3]}][*].a[1]",
        "[[1, 2], [3, 4]][*][1]", "[{a = 1}, {a = 2}][*]", "tolist([{a = 1}, {a = 2}])[*].a",
        "toset([{a = 1}, {a = 2}])[*].a", "[{a = 1}, {a = \"x\"}][*].a", "tolist([{a = 1}, {a = null}])[*].a",
        "[{a = {b = 1}}, {a = {c = 2}}][*].a.b", "[{a = 1}, {a = 2}].*.a", "[{a = [1]}, {a = [2]}][*].a[0]",
    ]))
    g.append(("index-splat-vars", V, [c + s for c in ["nums", "obj", "smap", "users", "nothing", "str",
                                                      "empty_list", "mixed", "num"] for s in vsteps]))
    g.append(("traversal", V, [
        "deep.a.b.c[1].d", 'deep["a"]["b"]', "deep.a.b.c.1.d", "deep.a.b.c.1", "deep.a.x", "deep.a.b.c[2]",
        "users[0].name", "users[3]", "users[*].name", "users.*.name", "users[*].tags[0]", "users[*].tags",
        "users.*.tags[0]", "users[*].age", "objlist.items[*].sub.v", "objlist.items.*.sub.v",
        "objlist.items.*.sub", "matrix[1][2]", "matrix[*][0]", "matrix.1.2", "matrix.1[2]", "matrix[1].2",
        "hetero[*].a", "hetero.*.b", "by_key.10", 'by_key["10"]', "by_key.B", "by_key._", "var.region",
        "var.names[1]", "var.settings.debug", "count.index", "count.index + 1", "each.key", "each.value",
        "nothing.a", "nothing[0]", "nothing[*]", "nothing.*", "nothing[*].a", "str.length", "str[0]",
        "num.x", "undefined_var", "undefined.attr", "Str", "strr", "nmus", "var.Region", "var.regoin",
        "obj.e", "obj.A", "users[0].nmae", "users[0].Name", "nums[length(nums) - 1]", 'nums["2"]', "nums[2.0]",
        "nums[2.5]", 'nums["x"]', 'obj["a"]', "obj.d", "obj.d.x", "tomap(smap).x", 'tomap(smap)["q"]',
        "mixed[3]", "mixed[3].x", "mixed[*]", "nested_list[*][0]", "nested_list[2][0]", "list_of_lists[*][*]",
        "users[0]", "users[-1]", "users[1+1].name", 'users[0]["name"]', "users[0][name]", "obj[str]",
        "nums[num]", "nums[zero]", "nums[neg]", "smap[str]", "empty_obj.x", "empty_list[0]",
        "[for u in users : u.name if u.age > 18]", "users[*].name[0]", "users.*.name[0]",
        "(users[*].name)[0]", "users[*]", "users.*", "obj.*", "obj[*]", "obj.*.a", "obj[*].a",
        "str[*]", "str.*", "num[*]", "num.*.x", "yes.*", "tomap(smap)[*]", "toset(strs)[*]",
        "toset(strs)[0]", "toset(strs).*", "tolist(strs)[*]", "nums[*] == nums", "users[0].tags[*]",
        "users[*].team", "{for u in users : u.team => u.name...}", "users[*].missing",
        "users[0].name.first", "deep.a.b", "deep.a.b.c", "deep[\"a\"].b.c[0]", "deep.a[\"b\"].c[1][\"d\"]",
    ]))
    # -- for expressions -----------------------------------------------------
    fsrc = ["[1, 2, 3]", 'tolist(["a", "b"])', 'toset(["b", "a", "c"])', "{b = 1, a = 2}",
            'tomap({b = "1", a = "2"})', '"abc"', "null", "5", "[]", "{}", "toset([])", "users", "nums",
            "by_key", "nothing"]
    fforms = ["[for x in {} : x]", "[for k, v in {} : k]", "[for k, v in {} : v]", "{{for k, v in {} : k => v}}",
              "{{for k, v in {} : v => k...}}", "[for x in {} : x if x != 1]"]
    g.append(("for-matrix", V, [f.format(s) for s in fsrc for f in fforms]))
    g.append(("for", None, [
        "[for x in [1, 2, 3] : x * 2]", "[for i, x in [1, 2, 3] : i + x]", "[for x in [1, 2, 3] : x if x > 5]",
        "{for x in [] : x => x}", '{for x in ["a", "b", "a"] : x => 1}', '{for x in ["a", "b", "a"] : x => 1...}',
        '{for x in ["a", "b"] : x => x if x == "a"}', '{for i, x in ["a", "b", "a"] : x => i... if i > 0}',
        "{for x in [null] : x => 1}", '{for x in ["a"] : x => null}', "{for x in [[1]] : x => 1}",
        "{for x in [true] : x => 1}", "{for x in [1.5, 2] : x => x}", "{for x in [{}] : x => 1}",
        '[for x in [1, "a", true] : x]', "[for x in tolist([1, 2]) : tostring(x)]",
        "{for x in [1, 2] : tostring(x) => x}", "[for x in [1, 2] : x if x]", '[for x in [1, 2] : x if "true"]',
        "[for x in [1, 2] : x if null]", "[for x in [1, 2] : x if 1]", "[for x in [1, 2] : x if [][0]]",
        "[for x in [1, 2] : [][0]]", "[for x in [1, 2] : x if x == 2 ? true : null]",
        "[for x in [[1, 2], [3]] : [for y in x : y * 10]]", "[for x in [for y in [1, 2] : y * 2] : x + 1]",
        "[for k, k in [1] : k]", "[for x in [1] : x]...", "[for x in [1] : ]", "[for x, y, z in [1] : x]",
        "{for x in [1] : x}", "[for x in [1] : x => x]", "[for 1 in [1] : 1]", "[for x in [1] : x if]",
        "[for x [1] : x]", "[for x in : x]", "[for x in [1]]", "{for x in [1] : x => }", "{for k, v in {a=1} : v => k}",
        '{for k, v in {a = "x", b = "x"} : v => k}', '{for k, v in {a = "x", b = "x"} : v => k...}',
        "[for x in toset([3, 1, 2]) : x]", '[for x in toset(["b", "a", "B", "10", "9"]) : x]',
        "[for i, x in toset([\"a\"]) : i]", "[for x in toset([true, false]) : x]",
        '[for x in toset([[1], [2, 3], []]) : length(x)]', '[for k, v in {b = 1, a = 2, "" = 3, B = 4} : k]',
        '[for k, v in {"\u00e9" = 1, "z" = 2, "e" = 3, "\u00c9" = 4} : k]',
        "[for x in {a = 1, b = \"x\"} : x]", "{for k, v in {a = 1, b = \"x\"} : k => v}",
        "{for k, v in tomap({a = 1, b = 2}) : k => v * 2}", "{for k, v in {a = 1} : k => v...}",
        "[for x in [1, 2, 3] :\n  x\n  if x != 2\n]", "{\n  for k, v in {a = 1}:\n  k => v\n}",
        "[for x in [1, 2] : x]...", "[ for x in [1] : x ]", "[for x in [\"a\"] : upper(x)]",
        '"%{for x in [for y in [1, 2] : y + 1]}${x}%{endfor}"', "[for x in [1, 2] : { v = x }]",
        "{for x in [1, 2] : \"k${x}\" => { v = x }}", "[for x in [1, 2] : x][1]", "{for x in [\"a\"] : x => x}.a",
        "[for x in [1] : y]", "[for x in [1] : x.a]", "[for x in [{a = 1}, {b = 2}] : x.a]",
        "[for x in [{a = 1}, {a = \"s\"}] : x.a]", "length([for x in range(100) : x if x % 7 == 0])",
        "{for x in range(3) : x => x * x}", "{for i, x in [\"a\", \"b\"] : i => x}",
        "[for x in tolist([]) : x]", "{for k, v in tomap({}) : k => v}", "[for x in toset([]) : x]",
        "[for x in [null, 1] : x]", "[for x in [null, 1] : x == null]", "{for x in [\"a\", \"b\"] : x => x}[\"c\"]",
        "[for x in [1, 2] : x if x > 1 && x < 2]", "{for k, v in {a = [1], b = [2, 3]} : k => length(v)}",
        "[for x in [\"b\", \"a\"] : x] == [\"b\", \"a\"]", "{for x in [3, 1, 2] : x => x}",
        "{for x in [\"10\", \"9\", \"1\"] : x => x}",
    ]))
    g.append(("for-vars", V, [
        "[for u in users : u.name]", "{for u in users : u.name => u.age}", "{for u in users : u.team => u.name...}",
        "[for i, u in users : \"${i}:${u.name}\"]", "[for x in nums : x if x % 2 == 0]",
        "{for k, v in obj : k => v}", "{for k, v in obj : k => v if v != null}", "[for k, v in smap : \"${k}=${v}\"]",
        "[for str in [\"shadow\"] : str]", "[for x in nums : num + x]", "[for x in nested_list : length(x)]",
        "{for k, v in by_key : v => k}", "[for k, v in by_key : k]", "[for x in mixed : x]",
        "[for x in mixed : tostring(x)]", "[for x in empty_list : x]", "{for k, v in empty_obj : k => v}",
        "[for x in nothing : x]", "[for x in str : x]", "{for u in users : u.name => u}",
        "{for u in users : u.age => u.name}", "[for u in users : u.tags[0]]", "[for u in users : u.missing]",
        "[for x in matrix : [for y in x : y * 2]]", "flatten([for x in matrix : x])",
        "{for u in users : u.team => u.age...}[\"red\"]", "[for u in users : u if u.age > 20][0].name",
    ]))
    # -- templates -----------------------------------------------------------
    g.append(("template", None, [
        '"a${1}b"', '"${1}"', '"${null}"', '"a${null}"', '"${[1]}"', '"a${[1]}"', '"a${{}}"', '"a${true}"',
        '"a${1.50}"', '"a${1/3}"', '"${"a"}${"b"}"', '"${1}${2}"', '"${"${"${1}"}"}"', '"a${{a=1}.a}b"',
        '"${[for x in [1, 2] : x]}"', '"${ 1 +\n 2 }"', '"%{if true}y%{endif}"', '"%{if false}y%{else}n%{endif}"',
        '"%{if null}y%{endif}"', '"%{if "true"}y%{endif}"', '"%{if 1}y%{endif}"', '"%{if [true]}y%{endif}"',
        '"%{for x in [1, 2, 3]}${x},%{endfor}"', '"%{for i, x in ["a", "b"]}${i}=${x} %{endfor}"',
        '"%{for k, v in {b = 1, a = 2}}${k}${v}%{endfor}"', '"%{for x in null}${x}%{endfor}"',
        '"%{for x in "abc"}${x}%{endfor}"', '"%{for x in toset(["b", "a"])}${x}%{endfor}"',
        '"%{for x in []}${x}%{endfor}"', '"%{for x in [[1]]}${x}%{endfor}"', '"%{for x in [null]}${x}%{endfor}"',
        '"%{for x in [1, 2]}%{if x == 2}two%{else}${x}%{endif}%{endfor}"',
        '"%{if true}%{if false}a%{else}b%{endif}%{endif}"', '"%{ if true ~}  a  %{~ endif }"',
        '"a ${~ "b" ~} c"', '"a \\t\\n ${~"b"}"', '"${"b" ~}  \u00a0 c"', '"x\\u00a0${~ 1}"', '"x\\u3000 ${~1}"',
        '"x\u3000${~1}"', '"x\u2003 ${~1} \u2003y"', '"a\\n\\n${~ "b"}"', '"${~ 1 ~}"', '"  ${~ 1 ~}  "',
        '"%{ for x in [1, 2] ~}\n${x}\n%{~ endfor ~}\n"', '"%{~ if true ~} x %{~ endif ~}"',
        '"%{ if true } x %{~ else ~} y %{ endif }"', '"%{ if false } x %{~ else ~} y %{ endif }"',
        '"${"', '"%{"', '"${}"', '"%{}"', '"%{ endif }"', '"%{ if true }"', '"%{ else }"',
        '"%{ for x in [1] }%{ endif }"', '"%{ if true }%{ endfor }"', '"%{ foo }"', '"%{ if }x%{ endif }"',
        '"%{ for in [1] }x%{ endfor }"', '"%{ for x [1] }x%{ endfor }"', '"%{ if true }a%{ else }b%{ else }c%{ endif }"',
        '"${1 2}"', '"${1"', '"${"a"', '"${ }"', '"a${b}c"', '"${upper("x")}"', '"${upper(1)}"',
        '"\\\\${1}"', '"$\\{1}"', '"a${"\\""}b"', '"${"${"}"', '"e${"\\u0301"}"', '"${"e"}\\u0301"',
        '"\u0301"', '"a" == "${"a"}"', '"${true}" == true', '"${1}" == 1', '"x${1}" == "x1"',
        '"${tolist([1])}"', '"${toset([1])}"', '"${tomap({a=1})}"', '"%{if true}${1}%{endif}"',
        '"%{for x in [1]}${x}%{endfor}" == "1"', '"%{ for x in [1, 2] }${x}%{ endfor ~} !"',
        '"${"a"}\n"', '"%{if true}\n%{endif}"', '"%{ if true ~}\n\tx\n%{ endif ~}"',
        '"a%{if true}b%{endif}c%{if false}d%{endif}e"', '"${ {a = 1}["a"] }"', '"${ [1, 2][1] }"',
        '"${ true ? "a" : "b" }"', '"${ 1 == 1 }"', '"${ !false }"', '"${-1}"', '"${"%{"}"', '"${"$${"}"',
        '"%{ for x in ["a", "b"] ~} ${x} %{~ endfor }"', '"%{if true}${"x"}%{else}${1/0}%{endif}"',
        '"%{if false}${[][0]}%{endif}"', '"%{if true}${[][0]}%{endif}"', '"%{ for x in [1, 2] }${x}"',
    ]))
    g.append(("template-vars", V, [
        '"${str} world"', '"${num}"', '"${num}!"', '"${frac}"', '"${yes}"', '"${nothing}"', '"x${nothing}"',
        '"${nums}"', '"x${nums}"', '"%{for n in nums}${n}%{endfor}"', '"%{for k, v in obj}${k}=${v};%{endfor}"',
        '"%{for k, v in smap}${k}=${v};%{endfor}"', '"%{for u in users}${u.name} %{endfor}"',
        '"%{for i, u in users}%{if i > 0}, %{endif}${u.name}%{endfor}"', '"${space_str}|"', '"|${~ space_str ~}|"',
        '"%{if yes}Y%{else}N%{endif}"', '"%{if bool_str}Y%{endif}"', '"%{if nothing}Y%{endif}"',
        '"${users[0]}"', '"${empty_str}"', '"a${empty_str}b"', '"${obj.d}"', '"x${obj.d}"',
        '"%{for x in mixed}${x}%{endfor}"', '"%{for x in empty_list}${x}%{endfor}"',
        '"${digits}" == digits', '"${upper(str)} ${length(nums)}"',
    ]))
    g.append(("heredoc", None, [
        "<<EOT\nhello\nEOT", "<<EOT\nhello\n  EOT", "<<-EOT\n    a\n      b\n    EOT", "<<-EOT\n\ta\n\t\tb\n\tEOT",
        "<<-EOT\n  a\n\n  b\n  EOT", "<<-EOT\n  a\n b\n  EOT", "<<-EOT\n  a\n \n  b\n  EOT", "<<EOT\n${1 + 1}\nEOT",
        "<<EOT\nEOT", "<<EOT\n\nEOT", "<<EOT\na\\nb\nEOT", "<<EOT\n$${x}\nEOT", "<<EOT\n%%{x}\nEOT",
        "<<-EOT\n  %{ for x in [1, 2] ~}\n  ${x}\n  %{ endfor ~}\n  EOT",
        "<<-EOT\n  %{ if true ~}\n    yes\n  %{ endif ~}\n  EOT", "<<-EOT\n    a ${~ \"b\"}\n  c\n  EOT",
        "<<-EOT\n  x\n  %{~ if true }\n  y\n  %{ endif }\n  EOT", "<<-EOT\n  a\n  ${~ 1}\n  EOT",
        "<<-EOT\n  a  \n  ${~ 1}\n  EOT", "<<EOT\n  a  \n  ${~ 1}\nEOT", "<<EOT\nno end",
        "<<EOT hello\nEOT", "<<EOT\nfoo\nEOTX\nEOT", "<<-EOT\n  ${\"x\"}\n    y\n  EOT", "(<<EOT\na\nEOT\n) == \"a\\n\"",
        "[<<EOT\na\nEOT\n, \"b\"]", "<<EOT\r\na\r\nEOT", "<<-EOT\r\n  a\r\n  EOT", "<<EOT\n\"quoted\" \\ back\nEOT",
        "<<EOT\n${\"a\"}\nEOT", "<<EOT\n${[1]}\nEOT", "<<-EOT\n\ta\n  b\n\tEOT", "<<-EOT\n      a\n    ${1}\n    EOT",
        "<<-EOT\n  x %{ if true ~}\n  y\n  %{~ endif }\n  EOT", "<<-EOT\n    %{~ for x in [1] ~}\n      ${x}\n    %{~ endfor ~}\n    EOT",
        "<<EOF\nhello\nEOF", "<<-E\n E\n E", "<<EOT\nEOT\nEOT", "<<EOT\n\u00e9\nEOT", "<<-EOT\n  \u3000a\n  EOT",
        "<<-EOT\nEOT", "<<-EOT\n  a\n    EOT", "<<-EOT\n    a\n  EOT", "<<EOT\n  %{ if true ~}\n  x\n  %{ endif ~}\n  EOT",
        "<<-EOT\n  a\n  %{~ for x in [1, 2] ~}\n  b${x}\n  %{~ endfor ~}\n  c\n  EOT", "<<eot\nx\neot",
        "<<EOT\nx\neot\nEOT", "<< EOT\nx\nEOT", "<<-\nx\n", "<<123\nx\n123",
    ]))
    # -- collections ---------------------------------------------------------
    g.append(("collection", None, [
        "[]", "[1,]", '[1, "a", true, null, [], {}]', "[\n1,\n2\n]", "[1\n,2]", "[,]", "[1,,2]", "[1 2]",
        "{}", "{a=1,}", "{a=1, a=2}", '{"a"=1, a=2}', "{a = 1\nb = 2}", "{a = 1 b = 2}", '{(1) = "x"}',
        "{(true) = 1}", "{(null) = 1}", "{([1]) = 1}", "{({}) = 1}", '{"${"a"}b" = 1}', "{a.b = 1}", "{a = b}",
        "{1 = 1}", "{1.5 = 1}", '{"" = 1}', "{a: 1, b = 2}", "{a => 1}", "{for = 1}", "{if = 1}", "{in = 1}",
        "{null = 1}", "{true = 1}", "{false = 2}", "{ a = 1, \n }", "{a = {b = {c = 1}}}.a.b.c",
        '{a = 1}["a"]', '{a = 1, A = 2}', '{b = 1, a = 2, c = 3}', '{"b" = 1, "a" = 2}', "{a-b = 1}",
        '{"a-b" = 1}["a-b"]', "{a = 1}\n", "{\na = 1\n}", "{a = 1,\nb = 2,\n}", "{a = 1\n,b = 2}",
        "{a = [1, 2], b = {c = null}}", "{(upper(\"k\")) = 1}", '{("k") = 1, k = 2}', "{a=1 , b=2}",
        "[[[]]]", "[[1, [2, [3]]]]", "{a = [{b = [{c = 1}]}]}.a[0].b[0].c", "[{}, {a = 1}]",
        "[1, 2, 3][1]", '{a = "x"}.a', "{a = 1}.b", "[1]\n", "[\n]", "{\n}", "{a = 1 # comment\n}",
        "{a = 1 // comment\n, b = 2}", "{/* c */ a = 1}", "{a = 1, b}", "{a}", "{= 1}", "{a = }", "{a == 1}",
        "{\"a\" = 1, (\"a\") = 2}", "{(\"a\") = 1, a = 2, \"a\" = 3}", "[for]", "{for}",
        "{(\"${1}\") = 1}", "{(1.0) = 1}", "{(1e3) = 1}", "{(-0) = 1}", "{(1/3) = 1}",
    ]))
    # -- functions -----------------------------------------------------------
    g.append(("function", None, [
        "abs(-1.5)", 'abs("x")', "abs(null)", "abs(\"-3\")", "ceil(1.2)", "ceil(-1.2)", "ceil(1/0)", "floor(1.8)",
        "floor(-1.2)", "log(16, 2)", "log(0, 10)", "log(-1, 10)", "log(1, 1)", "log(10, 0)", "max(1, 5, 3)",
        "max()", 'max("3", 2)', "max([1, 2]...)", "min(1, -5)", 'min("a")', "min(1/0, 5)", 'parseint("100", 2)',
        'parseint("ff", 10)', 'parseint("1", 1)', 'parseint(100, 10)', 'parseint("1", 37)', 'parseint("", 10)',
        'parseint("+7", 10)', 'parseint("0x1f", 16)', "pow(2, 10)", "pow(0, 0)", "pow(-8, 1/3)", "pow(2, -1)",
        "pow(1/0, 0)", "signum(-3)", "signum(0)", "signum(2.5)", 'chomp("a\\n")', 'chomp("a\\r\\n\\n")',
        'chomp("a")', 'chomp("a\\n\\r")', 'format("%s %d %v", "a", 1, true)', 'format("%q", "x")',
        'format("%5.1f|%-5s|%05d", 3.14159, "ab", 42)', 'format("%s")', 'format("%s", "a", "b")', 'format("%%")',
        'format("%[2]s %[1]s", "a", "b")', 'format("%v", [1, "a"])', 'format("%#v", {a = 1})', 'format("%t", true)',
        'format("%x", 255)', 'format("%X", "hi")', 'format("%o", 8)', 'format("%b", 5)', 'format("%e", 1e10)',
        'format("%s", null)', 'format("%d", "12")', 'format("%z", 1)', 'format("%d", true)', 'format("%v", null)',
        'format("%s", [1])', 'format("%s", true)', 'format("%10.3s|", "abcdef")', 'format("%-10v|", "x")',
        'format("%+d", 5)', 'format("% d", 5)', 'format("%*d", 3, 1)', 'format("%", 1)', 'format("%[3]s", "a")',
        'format("%q", 1)', 'format("%#v", "x")', 'format("%#v", [1, true, null])', 'format("%v", {b = 1, a = "x"})',
        'format("%s %s", ["a", "b"]...)', 'formatlist("%s-%s", ["a", "b"], "x")', 'formatlist("%s", [])',
        'formatlist("%s %s", ["a"], ["b", "c"])', 'formatlist("%d", [1, 2])', 'formatlist("%s", "a")',
        'formatlist("%s=%s", {a = 1}, "x")', 'indent(2, "a\\nb\\n")', 'indent(-1, "a")', 'indent(2, "")',
        'indent(1, "a\\n\\nb")', 'join(",", ["a", "b"])', 'join(",", [])', 'join(",", ["a"], ["b", "c"])',
        'join(",", [1, true])', 'join(",", [null])', 'join(",", "a")', 'join(",")', 'join(["a"], ",")',
        'join("", toset(["b", "a"]))', 'lower("\u00c0B")', 'upper("stra\u00dfe")', 'upper("\u01c6")',
        'lower(null)', 'upper("\u00e9")', 'upper(1)', 'upper(true)', 'upper([1])', 'upper()', 'upper("a", "b")',
        'regex("(\\\\d+)", "ab12")', 'regex("(?P<x>\\\\d)", "a1")', 'regex("x", "y")', 'regex("[", "a")',
        'regex("a(b)?", "a")', 'regex("\\\\d+", "123")', 'regex("(?P<a>x)(y)", "xy")', 'regex("(?P<a>x)(?P<b>y)?", "x")',
        'regex("^$", "")', 'regexall("\\\\d", "a1b2")', 'regexall("(a)(b)", "abab")', 'regexall("z", "a")',
        'regexall("(?P<n>\\\\w)", "ab")', 'regexall("", "ab")', 'replace("a-b-c", "-", "+")',
        'replace("aaa", "a", "")', 'replace("abc", "", "x")', 'replace("a/b", "/b/", "x")',
        'replace("\u00e9", "e", "x")', 'split(",", "a,b,,c")', 'split(",", "")', 'split("", "abc")',
        'split(",", null)', 'split(", ", "a, b")', 'strlen("\U0001F44D\U0001F3FD")', 'strlen("\u00e9")', 'strlen("")',
        'strlen("e\\u0301")', 'strrev("abc")', 'strrev("\U0001F468\u200d\U0001F469\u200d\U0001F467x")',
        'strrev("e\\u0301a")', 'strrev("")', 'substr("hello", 1, 3)', 'substr("hello", -3, -1)',
        'substr("hello", 10, 1)', 'substr("h\u00e9llo", 0, 2)', 'substr("hello", 1, -1)', 'substr("hello", -10, 2)',
        'substr("hello", 0, 0)', 'substr("hello", 5, 1)', 'substr("hello", 1.5, 2)', 'substr("", 0, 1)',
        'title("hello world")', 'title("\u00e9lan vital")', 'title("a-b c_d")', 'trim("xxaxx", "x")',
        'trim("  a  ", " ")', 'trim("abc", "")', 'trim("abcba", "ab")', 'trimprefix("foobar", "foo")',
        'trimsuffix("foobar", "bar")', 'trimprefix("foo", "")', 'trimprefix("foofoo", "foo")',
        'trimspace("  a \\n")', 'trimspace("\\u00a0a\\u3000")', 'trimspace("")', 'chunklist([1, 2, 3, 4, 5], 2)',
        'chunklist([], 1)', 'chunklist([1], 0)', 'chunklist([1], -1)', 'chunklist(["a", "b"], 5)',
        'chunklist(tolist(["a", "b", "c"]), 1)', 'coalesce(null, "", "a")', 'coalesce(null, 1, "a")',
        'coalesce(null)', 'coalesce(1, [1])', 'coalesce()', 'coalesce("", null)', 'coalesce(null, null, 2)',
        'coalescelist([], [1])', 'coalescelist([], [])', 'coalescelist(tolist([]), ["a"])', 'coalescelist()',
        'coalescelist(1)', 'compact(["a", "", "b", null])', 'compact([])', 'compact([1, ""])',
        'concat([1], ["a"])', 'concat(tolist([1]), tolist([2]))', 'concat()', 'concat([1], 2)',
        'concat(tolist([1]), ["a"])', 'concat([], [])', 'concat(toset([1]), [2])', 'contains([1, 2], 2)',
        'contains(["a"], 1)', 'contains(toset(["a"]), "a")', 'contains([], null)', 'contains([[1]], [1])',
        'contains("abc", "a")', 'distinct([1, 2, 1, "1"])', 'distinct(["b", "a", "b"])', 'distinct([])',
        'distinct([[1], [1], [2]])', 'element([1, 2, 3], 4)', 'element([1, 2, 3], -1)', 'element([], 0)',
        'element(["a"], 1.5)', 'element(["a", "b"], "1")', 'element(tolist(["a", "b"]), 3)',
        'flatten([[1, [2, [3]]], 4])', 'flatten([])', 'flatten([null, [null]])', 'flatten([[], [[]]])',
        'flatten(tolist([tolist([1])]))', 'flatten(1)', 'keys({b = 1, a = 2})', 'keys(tomap({x = "1"}))',
        'keys([1])', 'keys({})', 'keys(null)', 'keys(toset([1]))', 'length("h\u00e9llo")', 'length([1, 2])',
        'length({a = 1})', 'length(toset([1, 1, 2]))', 'length(null)', 'length(5)', 'length("")',
        'length(tomap({a = 1, b = 2}))', 'length("\U0001F468\u200d\U0001F469\u200d\U0001F467")', 'length(true)',
        'lookup({a = 1}, "a", 0)', 'lookup({a = 1}, "b", 0)', 'lookup(tomap({a = "x"}), "b", "y")',
        'lookup({a = 1}, "b", "x")', 'lookup({a = {b = 1}}, "a", null)', 'lookup({a = 1}, "a")',
        'lookup([1], 0, 1)', 'lookup({a = 1, b = "x"}, "b", 0)', 'lookup(null, "a", 1)',
        'merge({a = 1}, {b = 2})', 'merge({a = 1}, {a = "x"})', 'merge(tomap({a = "1"}), {b = 2})', 'merge()',
        'merge({a = 1}, null)', 'merge({a = 1}, [1])', 'merge(tomap({a = 1}), tomap({b = 2}))',
        'merge(tomap({a = 1}), tomap({b = "x"}))', 'merge({b = 1}, {a = 2}, {b = 3})', 'merge(null, null)',
        'range(3)', 'range(1, 4)', 'range(0, 10, 3)', 'range(5, 0, -2)', 'range(0)', 'range(1, 2, 0)',
        'range(0.5, 2)', 'range(1, 2, 3, 4)', 'range(-3)', 'range(3, 1)', 'range()', 'range("3")',
        'range(0, 1, -1)', 'range(1000001)', 'reverse([1, 2, 3])', 'reverse([])', 'reverse(tolist(["a", "b"]))',
        'reverse("abc")', 'reverse(toset([1, 2]))', 'setintersection(toset([1, 2]), toset([2, 3]))',
        'setintersection([1, 2], [2])', 'setintersection(toset(["a"]))', 'setintersection()',
        'setproduct(["a", "b"], [1, 2])', 'setproduct()', 'setproduct([])', 'setproduct(toset(["x"]), toset([1]))',
        'setproduct(["a"], [])', 'setproduct(tolist(["a", "b"]), tolist(["c"]))',
        'setsubtract(toset(["a", "b"]), toset(["a"]))', 'setsubtract(["a"], [1])',
        'setunion(["a"], ["b", "a"])', 'setunion(toset([1]), toset(["1"]))', 'setunion([[1]], [[1], [2]])',
        'slice([1, 2, 3, 4], 1, 3)', 'slice([1, 2], 2, 1)', 'slice([1], 0, 5)', 'slice(tolist(["a"]), 0, 1)',
        'slice([1, 2], 0, 0)', 'slice([1, 2], -1, 1)', 'slice([1, 2], 1.5, 2)',
        'sort(["b", "a", "B", "10", "9"])', 'sort([3, 1, 2])', 'sort([])', 'sort([null])', 'sort(toset(["b", "a"]))',
        'sort(["\u00e9", "z", "e", "\u00c9"])', 'values({b = 1, a = "x"})', 'values(tomap({a = "1"}))',
        'values({})', 'values([1])', 'zipmap(["a", "b"], [1, 2])', 'zipmap(["a"], [1, 2])', 'zipmap([], [])',
        'zipmap(["a", "a"], [1, 2])', 'zipmap([1, 2], ["x", "y"])', 'zipmap(tolist(["a"]), tolist([[1]]))',
        'zipmap(["a", "b"], [1, "x"])', 'csvdecode("a,b\\n1,2\\n3,4")', 'csvdecode("")', 'csvdecode("a,b\\n1")',
        'csvdecode("a\\n\\"x,y\\"")', 'csvdecode("a,a\\n1,2")', 'csvdecode("a\\n")',
        'jsondecode("{\\"b\\":1,\\"a\\":[true,null]}")', 'jsondecode("1e3")', 'jsondecode("x")',
        'jsondecode("\\"\u00e9\\"")', 'jsondecode("12345678901234567890.5")', 'jsondecode("[]")',
        'jsondecode("{}")', 'jsondecode("null")', 'jsondecode("")', 'jsondecode("[1, \\"a\\"]")',
        'jsondecode("{\\"a\\":1,\\"a\\":2}")', 'jsondecode("1 2")', 'jsondecode("0.1")', 'jsondecode("-0")',
        'jsondecode("\\"\\\\ud83d\\\\ude00\\"")', 'jsondecode("{\\"a\\":{\\"b\\":[{}]}}")',
        'jsonencode({b = [1, "x", true, null], a = {}})', 'jsonencode("<&>")', 'jsonencode(toset(["b", "a"]))',
        'jsonencode(tomap({a = 1}))', 'jsonencode(null)', 'jsonencode("\u00e9\u2028")', 'jsonencode(1/0)',
        'jsonencode("\\u0000\\u001f\\u007f")', 'jsonencode([])', 'jsonencode({})', 'jsonencode(tolist([]))',
        'jsonencode("\\"\\\\/")', 'jsonencode(0.1)', 'jsonencode(1e400)', 'jsonencode([1, [2, {c = "d"}]])',
        'formatdate("YYYY-MM-DD hh:mm:ss ZZZ", "2024-02-29T23:59:59Z")',
        'formatdate("EEEE, DD MMM YYYY", "2021-01-01T00:00:00+05:30")', 'formatdate("h:mmaa", "2021-01-01T13:04:00Z")',
        'formatdate("YYYY", "not a date")', 'formatdate("\'quoted\' YY", "2021-01-01T00:00:00Z")',
        'formatdate("DDD", "2021-01-01T00:00:00Z")', 'formatdate("ZZZZ Z ZZZZZ", "2021-06-01T12:00:00-07:00")',
        'formatdate("EEE MMM D H h A aa", "2021-06-01T00:05:09Z")', 'formatdate("YYYY-MM-DD", "2021-02-30T00:00:00Z")',
        'formatdate("ss.sss", "2021-01-01T00:00:01.5Z")', 'formatdate("\'", "2021-01-01T00:00:00Z")',
        'timeadd("2024-01-31T00:00:00Z", "24h")', 'timeadd("2024-01-01T00:00:00Z", "-1.5h30m")',
        'timeadd("2024-01-01T00:00:00Z", "1d")', 'timeadd("2024-01-01T00:00:00+01:00", "1h")',
        'timeadd("2024-01-01T00:00:00Z", "90s")', 'timeadd("bad", "1h")', 'tobool("true")', 'tobool("True")',
        'tobool(1)', 'tobool(null)', 'tobool("false")', 'tobool(true)', 'tolist([1, "a"])', 'tolist([1, [1]])',
        'tolist(toset([2, 1]))', 'tolist({a = 1})', 'tolist(null)', 'tolist([null, 1])', 'tolist([])',
        'tolist([{a = 1}, {b = 2}])', 'tolist([{a = 1}, {a = "x"}])', 'tolist(["a", true])', 'tolist("a")',
        'tomap({a = 1, b = "x"})', 'tomap({a = 1, b = [1]})', 'tomap({})', 'tomap([1])', 'tomap({a = null, b = 1})',
        'tomap({a = [1], b = ["x"]})', 'tomap({a = {x = 1}, b = {y = 2}})', 'tomap(null)', 'tonumber("1.5")',
        'tonumber("abc")', 'tonumber(true)', 'tonumber(null)', 'tonumber(" 1 ")', 'tonumber("1e")', 'tonumber(1)',
        'toset([1, 1, "1"])', 'toset(["b", "a"])', 'toset([[1], [1]])', 'toset([{a = 1}, {a = 1}])', 'toset([null])',
        'toset([])', 'toset([3, 1, 2, 10])', 'toset(["10", "9", "b", "B"])', 'toset([true, false, true])',
        'toset("a")', 'tostring(1.5)', 'tostring(true)', 'tostring([1])', 'tostring(null)', 'tostring("x")',
        'tostring(1e30)', 'tostring(-1/3)', 'try(1)', 'try(undefined_var, "fb")', 'try({}.a, 2)', 'try(1/0, 2)',
        'try(0/0, "nan")', 'try()', 'try(null)', 'try([1][5], [1][6])', 'try(upper(1, 2), "x")', 'try(tonumber("x"), -1)',
        'try([][0], {}.a, "third")', 'try("a" + 1, 0)', 'can({}.a)', 'can(1)', 'can(undefined_var)', 'can(tonumber("x"))',
        'can()', 'can(1, 2)', 'can(null)', 'can([1][0])', 'can(0/0)',
    ]))
    g.append(("function-call", None, [
        "concat([[1], [2]]...)", "max([1, 5, 3]...)", "max(toset([1, 5])...)", "max(tolist([1])...)",
        "max(null...)", "max(1...)", "max({a = 1}...)", 'format("%s-%s", ["a", "b"]...)', 'upper(["a"]...)',
        "upper([]...)", 'join(",", [["a"], ["b"]]...)', 'join(["a"]...)', "max(1, [2, 3]...)", "max([]...)",
        "min([for x in [3, 1] : x]...)", "concat(...)", "concat([1]..., [2])", "concat([1] ...)", "max(1,)",
        "max(1,,2)", "max(1 2)", "max(\n1,\n2\n)", "max(\n1\n,2)", "max(", 'upper("a"', "max(1, 2",
        "lenght(\"a\")", "foo()", 'Upper("a")', 'upper ("a")', '(upper)("a")', 'upper("a")("b")',
        'upper.x("a")', 'length', 'jsonencode', 'strlen("a", "b")', 'lookup({a = 1})', 'format()',
        'formatlist()', 'regex("a")', 'merge({a = 1}, "x")', 'range(1, "x")', 'max(1, "x")', 'max(true)',
        'abs()', 'abs(1, 2)', 'keys()', 'setproduct([1], "x")', 'length(1...)', 'length([[1, 2]]...)',
        'coalesce([null, "a"]...)', 'try([]...)', 'can([]...)', 'try([1]...)', 'max(toset([])...)',
        # expanded arguments converted to their parameters' types, or not
        'max(["3", 2]...)', 'max(["a", 2]...)', 'max(1, ["x", "y"]...)', 'join("-", [["a"], "b"]...)',
        'upper([1]...)', 'upper([true]...)', 'max(tolist(["4", "5"])...)', 'format("%d-%d", ["1", 2]...)',
        'concat([1], [[2], "x"]...)', 'min(toset(["7", 3])...)',
        # written arguments come first, and their errors before the expanded ones'
        'format("%s-%s-%s", "a", ["b", "c"]...)', 'concat([0], [[1], [2]]...)',
        'join("-", ["x"], [["y"], ["z"]]...)', 'max("a", ["b"]...)', 'max("1", ["b"]...)',
        'join(",", toset(["b", "a"])...)', 'max(tolist([3, 4])..., 1)', 'trimspace(" a ",)',
        'upper(\n"a"\n,\n)', 'upper(1 + )', 'upper(1 +\n1)',
        "a::b(1)", 'upper::x("a")', 'provider::aws::arn_parse("x")', 'core::upper("a")', "a::b", "a:b(1)",
    ]))
    # -- unicode -------------------------------------------------------------
    g.append(("unicode", VU, [
        "cafe_nfc == cafe_nfd", "cafe_nfd", "length(cafe_nfd)", "length(emoji)", "length(family)", "strlen(flags)",
        "length(flags)", "upper(words[0])", "lower(words[1])", 'upper("\u00df")', "lower(words[3])", "upper(words[2])",
        "strrev(mixed)", "substr(family, 0, 1)", "substr(mixed, 1, 2)", '"${cafe_nfd}x"', "keys(names)",
        'names["e\\u0301x"]', 'names["\u00e9x"]', "jsonencode(names)", 'split("", mixed)', "length(combining)",
        "combining", "sort(words)", "title(greek)", "upper(greek)", "lower(greek)", "trimspace(ideo_space)",
        "trimspace(nbsp)", '"x${~ nbsp}"', '"${nbsp ~}x"', 'format("%5s|", "\u00e9")', 'format("%-4s|", "\u65e5\u672c")',
        'format("%.1s", emoji)', 'regex(".", emoji)', 'regexall(".", family)', 'replace(cafe_nfd, "e", "E")',
        'ohm == "\u03a9"', 'angstrom == "\u00c5"', 'hangul_nfd == "\ud55c"', 'length(hangul_nfd)',
        '"e\u0301" == "\u00e9"', '"\\u212b" == "\u00c5"', "jsonencode(controls)", "jsonencode(quote_bs)",
        '"${dollar}"', "dollar", "jsonencode(dollar)", "clef", "length(clef)", "strrev(clef)",
        "jsonencode(clef)", "zwj", "length(zwj)", "tab_nl", "strrev(flags)", "substr(flags, 1, 1)",
        "[for c in split(\"\", cjk) : c]", '{ "\u00e9" = 1, "e\u0301" = 2 }', '{ "\u00e9" = 1 }["e\u0301"]',
        "{for k, v in names : k => v}", "[for k, v in names : k]", "toset([cafe_nfc, cafe_nfd])",
        "distinct([cafe_nfc, cafe_nfd])", 'contains([cafe_nfd], "caf\u00e9")', "names.z", 'names.\u00e9',
        '{ \u00e9 = 1 }', '{ \u65e5\u672c = 1 }.\u65e5\u672c', '[for \u00fc in [1] : \u00fc]', 'caf\u00e9',
        '"\u65e5\u672c\u8a9e" + 1', '"\U0001F468\u200d\U0001F469\u200d\U0001F467" + 1', '"e\u0301e\u0301" + 1',
        '"\u00e9" + 1', '"\t" + 1', 'upper("\u0130")', 'lower("\u0130")', 'title("\u01c6a")', 'strlen("\\r\\n")',
        'length("\\r\\n")', 'strrev("\\r\\n")', 'substr("a\\r\\nb", 1, 1)', 'split("\u00e9", "ae\u0301b")',
        'trim("\u00e9a\u00e9", "e\u0301")', 'indent(2, "\u65e5\\n\u672c")', 'chomp("x\\r\\n")',
        "1 + \u00e9", "\u00e9 + 1", "x \u2260 y", "1 \uff0b 1", "a\u200bb", "\u00a01", "1\u00a0+ 1",
    ]))
    g.append(("variables", V, [
        "str", "num", "frac", "nothing", "empty_list", "empty_obj", "users", "obj", "deep", "by_key", "mixed",
        "nested_list", "hetero", "var", "count", "each", "smap", "matrix", "bools", "num_strs", "space_str",
        "str + 1", "num + frac", "neg * 2", "num_str + 1", "digits * 1", "bool_str && true", "!bool_str",
        "tonumber(num_str) * 2", "nums[0] + nums[4]", "length(users)", "length(obj)", "length(str)",
        "keys(by_key)", "values(by_key)", "sort(strs)", "distinct(strs)", "toset(strs)", "tolist(nums)",
        "tomap(smap)", "tomap(obj)", "tolist(mixed)", "tolist(users)", "tolist(hetero)", "toset(users)",
        "merge(obj, smap)", "lookup(obj, \"b\", \"x\")", "lookup(smap, \"q\", \"d\")", "contains(strs, \"a\")",
        "jsonencode(users)", "jsonencode(obj)", "jsonencode(by_key)", "flatten(nested_list)", "concat(nums, strs)",
        "coalesce(nothing, str)", "coalescelist(empty_list, nums)", "compact(strs)", "element(strs, 5)",
        "reverse(nums)", "slice(nums, 1, 3)", "chunklist(nums, 2)", "zipmap(strs, nums)", "setproduct(bools, bools)",
        "max(nums...)", "min(nums...)", "join(\"-\", strs)", "format(\"%s is %d\", str, num)", "formatlist(\"<%s>\", strs)",
        "upper(str)", "title(str)", "substr(str, 1, 3)", "split(\"l\", str)", "replace(str, \"l\", \"L\")",
        "regex(\"l+\", str)", "range(num / 7)", "range(length(nums))", "tostring(num)", "tobool(bool_str)",
        "tobool(str)", "tonumber(str)", "can(tonumber(str))", "try(obj.missing, obj.a)", "try(nothing.x, \"null attr\")",
        "length(nothing)", "nothing == null", "obj.d == null", "num == 42", "num == \"42\"", "tostring(num) == \"42\"",
        "yes ? str : num", "no ? str : num", "nothing ? 1 : 2", "yes && no", "yes || nothing",
        "users[*].name == [\"ann\", \"bob\", \"cy\"]", "[for u in users : u.age] == [31, 17, 45]",
        "STR", "Num", "users_", "deep_", "_", "var_", "every",
    ]))
    g.append(("nulls", VN, [
        "n", "n == null", "n.a", "n[0]", "n[*]", "n.*", "n.*.a", "n[*].a", "obj", "obj.a", "obj.a.b", "obj.b.c",
        "obj.b", "list[0]", "list[0] == null", "list[*]", "all_null[*]", "all_null[*].a", "length(n)", "n + 1",
        '"${n}"', '"a${n}"', "n ? 1 : 2", "!n", "n && true", "[for x in n : x]", "{for k, v in null_in_map : k => v}",
        "objs[*].a", "objs.*.a", "merge(obj, null)", 'coalesce(n, "d")', "tostring(n)", "jsonencode(n)",
        "jsonencode(obj)", "keys(obj)", "values(obj)", "nested_empty.c[0]", "length(nested_empty.c[0])",
        "empty_list[0]", "empty_obj.a", "[for x in empty_list : x]", "length(empty_obj)",
        "{for k, v in empty_obj : k => v}", 'lookup(null_in_map, "x", "d")', 'lookup(null_in_map, "q", "d")',
        "null_in_map.x", "tomap(null_in_map)", "tolist(list)", "toset(list)", "toset(all_null)", "compact(all_null)",
        "flatten(all_null)", "length(all_null)", "all_null == [null, null]", "list == [null, 1]", "n == n",
        "obj.a == n", "[n]", "{a = n}", "{a = n}.a", "[n][0]", "[n][*]", "n[\"a\"]", "tonumber(n)", "tobool(n)",
        "upper(n)", "concat(list, all_null)", "distinct(all_null)", "contains(list, null)", "sort(list)",
        "join(\",\", list)", "try(n.a, \"fb\")", "can(n.a)", "n != null ? n.a : \"none\"", "obj.a != null ? 1 : 0",
        "[for x in list : x if x != null]", "{for x in list : tostring(x) => x}", "nested_empty", "nested_empty.a[*]",
        "{for k, v in nested_empty : k => length(v)}", "str[0]", "[for k, v in obj : v]", "merge(obj, obj.b)",
    ]))
    g.append(("number-vars", VNUM, [
        "big", "big + 1", "big * big", "big / 3", "huge * huge", "tiny * tiny", "max_i64 + 1", "min_i64 - 1",
        "over_i64", "max_u64 + 1", "two53", "two53 + 1", "f_third * 3", "pi * 2", "neg_zero", "tostring(neg_zero)",
        '"${neg_zero}"', "exp", "frac * 3", "list", "list[*]", "pow(big, 2)", "floor(pi)", "parseint(tostring(big), 10)",
        "jsonencode(big)", 'format("%d", big)', 'format("%f", pi)', 'format("%.30f", frac)', "signum(neg_big)",
        "abs(neg_big)", "big % 7", "huge > big", "tiny < 0", "-tiny", "half + half == 1", "sort([tostring(big), \"2\"])",
        "tonumber(tostring(pi)) == pi", "range(small_int)", "[for i in range(3) : i * frac]", "big == 123456789012345678901234567890",
        "frac == 0.1", "frac + 0.2", "1 / small_int", "small_int / 3", "max(list...)", "min(list...)", "ceil(exp / 7)",
        "max_i64 * 2", "min_i64 * -1", "max_u64 % 1000", "tostring(huge)", '"${tiny}"', "tostring(exp)",
        "neg_zero == 0", "-neg_zero", "1 / neg_zero", "neg_zero * 5", "floor(neg_zero)", "abs(neg_zero)",
        "pi", "f_third", "huge", "tiny", "max_u64", "min_i64", "tiny * 1e30", "huge / 1e300", "exp + 0.5",
        "parseint(\"9223372036854775808\", 10)", "pow(2, 63) == over_i64", "length(list) / 3",
    ]))
    # -- parse errors --------------------------------------------------------
    g.append(("parse", None, [
        "1 +", "(1", "1)", "[1", "{a=1", "a.", "a.[0]", "a[", "a[]", ".a", "1 ? 2", "1 ? 2 :", "a b", "@", "#",
        "!", "-", "*1", "1 ** 2", "1 === 1", "1 = 1", "a => b", "a...", "...", "${1}", "%{if true}x%{endif}",
        "for x in y", "if", "a.b.", "a.*.", "a[*", "a.*[0]", "a.*.b[0]", "a[*].b[0]", "[for x in y]", "<<EOT",
        "<<EOT\n", "a-b", "a--b", "-a-b", "1\n+ 2", "(1 +\r\n 2)", "1 +\r\n2", "a.0.1", "a.0b", "a.1e3", "a.-1",
        "a.\"b\"", "a.(b)", "a[0][", "[1][0", "{}.", "{}[", "a.b[0].c[\"d\"].", "1 &&", "|| 1", "1 & 2", "1 | 2",
        "1 ! 2", "true ! false", "1 !== 2", "1 <> 2", "1 =< 2", "1 => 2", "a :: b", "a::", "::a", "1 ; 2",
        "1,2", "(1,2)", "()", "(\n)", "[}", "{]", "(]", "a(", "a())", "\"a\" (1)", "x = 1", "a = b = c",
        "{a = 1}}", "[[1]]]", "\x01", "a\x7fb", "\"a\x01b\"", "1 +\t2", "[1,\t2]", "{\ta\t=\t1\t}",
        "null ? : 1", "[for x in [1] : x][", "{for x in [1] : x => x}[\"1\"", "a[*].*", "a.*[*]", "a.*.*",
        "<<EOT\nhello\nEOT", "<<-EOT\n  a\n  EOT", "[[1]][*].*", "[[1]][*][*]", "[{a=[1]}][*].a[*]", "[[1]].*.*", "[1][*].*", "a.*.b.*", "a[*].b[*]",
    ]))
    return g


def own_cases():
    out = []
    for kind, vars_file, exprs in own_groups():
        for i, e in enumerate(exprs):
            if kind == "heredoc":
                e = heredoc_nl(e)
            out.append({"id": "own-%s-%03d" % (kind, i + 1), "src": "own:" + kind, "kind": kind,
                        "expr": e, "vars": vars_file})
    return out


# ---------------------------------------------------------------------------
# Answers.


def fmt_range(r):
    if r is None:
        return None
    return "%s:%s-%s:%s" % (r["start"]["line"].text, r["start"]["column"].text,
                            r["end"]["line"].text, r["end"]["column"].text)


def fmt_bytes(r):
    if r is None:
        return None
    return "%s-%s" % (r["start"]["byte"].text, r["end"]["byte"].text)


RERUNS = 40
PANIC_MARK = "\ngoroutine "


def diag_json(d):
    out = {"error": d["summary"], "detail": d["detail"], "range": fmt_range(d["subject"]),
           "bytes": fmt_bytes(d["subject"])}
    if PANIC_MARK in d["detail"]:
        # A Go panic inside the reference: the detail goes on with a stack trace
        # (addresses, file paths) that no other implementation can reproduce.
        out["detail"] = d["detail"][:d["detail"].index(PANIC_MARK)]
        out["detail_truncated"] = True
    if d.get("values"):
        out["values"] = d["values"]
    return out


def want_of(ans):
    """The `want` object (and whether it is a parse error) from a batch answer."""
    parse_errors = [d for d in ans["parse_diags"] if d["severity"] == "error"]
    eval_errors = [d for d in ans["eval_diags"] if d["severity"] == "error"]
    warnings = [d for d in ans["parse_diags"] + ans["eval_diags"] if d["severity"] == "warning"]
    errors = parse_errors or eval_errors
    if ans.get("panic"):
        want = {"crash": ans["panic"]}
    elif errors:
        want = diag_json(errors[0])
        if len(errors) > 1:
            want["more"] = [diag_json(d) for d in errors[1:]]
    else:
        res = ans["result"]
        want = {"value": res["value"]} if "value" in res else {"repr": res["repr"]}
        want["type"] = res["type"]
    if warnings:
        want["warnings"] = [diag_json(d) for d in warnings]
    return want, bool(parse_errors)


def parse_text_diags(text):
    """(summary, line or None, detail text) of each diagnostic gohcl-bench printed."""
    out = []
    blocks = re.split(r"^(?=(?:Error|Warning): )", text, flags=re.M)
    for b in blocks:
        m = re.match(r"(?:Error|Warning): (.*)\n", b)
        if not m:
            continue
        rest = b[m.end():]
        line = None
        lm = re.search(r"^  on <expr> line (\d+):", rest, flags=re.M)
        if lm:
            line = int(lm.group(1))
        out.append((m.group(1), line, rest))
    return out


def squash(s):
    return " ".join(s.split())


def crosscheck_one(bench, case):
    """Runs gohcl-bench eval on [case]; returns None when it agrees with the case's answers."""
    expr = case["expr"]
    if "\x00" in expr:
        return None
    cmd = [bench, "eval", "-e", expr, "-n", "1"]
    if case["vars"]:
        cmd += ["-vars", os.path.join(HERE, case["vars"])]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    msgs = [crosscheck_want(p, w) for w in [case["want"]] + case.get("alt_wants", [])]
    return None if None in msgs else msgs[0]


def crosscheck_want(p, want):
    out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    if "crash" in want:
        if p.returncode != 2 or not err.startswith("panic: " + want["crash"] + "\n"):
            return "expected a crash: %r" % err[:200]
        return None
    if "error" not in want:
        if p.returncode != 0:
            return "oracle failed: %s" % err[:300]
        line = out.split("\n", 1)[0]
        if not line.startswith("result: "):
            return "no result line: %r" % line
        got = jload(line[len("result: "):])
        mine = {k: want[k] for k in ("value", "repr", "type") if k in want}
        if jdump(got) != jdump(mine):
            return "value differs: %s vs %s" % (jdump(got)[:200], jdump(mine)[:200])
        return None
    if p.returncode != 1:
        return "oracle succeeded where batch failed: %s" % out[:200]
    diags = parse_text_diags(err)
    if not diags:
        return "no diagnostics in %r" % err[:300]
    summary, line, rest = diags[0]
    if summary != want["error"]:
        return "summary %r vs %r" % (summary, want["error"])
    if want["range"] is not None and line != int(want["range"].split(":")[0]):
        return "line %r vs %r" % (line, want["range"])
    if squash(want["detail"]) not in squash(rest):
        return "detail %r not in %r" % (want["detail"], rest)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bench", default=os.path.join(NEWEST_BIN, "gohcl-bench"))
    ap.add_argument("--bench-src", default=os.path.join(SHARED, "oracle", "gohcl-bench"))
    ap.add_argument("--no-crosscheck", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=os.path.join(HERE, "cases.jsonl"))
    args = ap.parse_args()

    BENCH_FUNCS.update(bench_function_table(args.bench_src))
    work = tempfile.mkdtemp(prefix="hclvm-eval-gen-")
    try:
        batch = build_batch(args.bench_src, work)
        skipped = []
        cases = (spec_cases() + hcltest_cases(args.bench_src, skipped) + corpus_cases(batch) + bench_cases()
                 + own_cases())

        # Variables files (before evaluating: the cases read them).
        bench_vars = os.path.join(HERE, "vars-bench.json")
        if os.path.exists(bench_vars):
            os.remove(bench_vars)
        shutil.copyfile(os.path.join(SHARED, "bench", "vars.json"), bench_vars)
        for name, value in VARS.items():
            with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
                f.write(jdump(value, indent=1) + "\n")
        for stale in os.listdir(HERE):
            if stale.startswith("vars-") and stale.endswith(".json") and stale not in VARS \
                    and stale != "vars-bench.json":
                os.remove(os.path.join(HERE, stale))

        # The same expression with the same variables is one case (the first source wins).
        seen = {}
        unique = []
        ids = set()
        for c in cases:
            key = (c["expr"], c["vars"])
            if key in seen:
                seen[key].setdefault("also", []).append(c["src"])
                continue
            assert c["id"] not in ids, c["id"]
            ids.add(c["id"])
            seen[key] = c
            unique.append(c)
        cases = unique

        requests = [(c["expr"], os.path.join(HERE, c["vars"]) if c["vars"] else None) for c in cases]
        answers = run_batch(batch, requests)
        again = run_batch(batch, requests)
        # Where the reference picks a "Did you mean" suggestion in Go map order (or is otherwise
        # unstable), run the case many times and keep every answer it gives.
        unstable = [i for i, (a, b) in enumerate(zip(answers, again))
                    if jdump(a) != jdump(b) or "Did you mean" in jdump(a)]
        variants = {i: {jdump(want_of(answers[i])[0]): want_of(answers[i])[0]} for i in unstable}
        for _ in range(RERUNS):
            for i, ans in zip(unstable, run_batch(batch, [requests[i] for i in unstable])):
                w = want_of(ans)[0]
                variants[i][jdump(w)] = w
        rows = []
        for i, (c, ans) in enumerate(zip(cases, answers)):
            want, parse_error = want_of(ans)
            alts = []
            if i in variants and len(variants[i]) > 1:
                ordered = [variants[i][k] for k in sorted(variants[i])]
                want, alts = ordered[0], ordered[1:]
            row = {"id": c["id"], "src": c["src"], "kind": c["kind"], "expr": c["expr"], "vars": c["vars"]}
            if parse_error:
                row["parse_error"] = True
            else:
                row["node"] = ans["node"]
                row["nodes"] = ans["nodes"]
            if "also" in c:
                row["also"] = c["also"]
            if "note" in c:
                row["note"] = c["note"]
            row["want"] = want
            if alts:
                row["alt_wants"] = alts
            rows.append(row)

        if not args.no_crosscheck:
            with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
                results = list(pool.map(lambda r: crosscheck_one(args.bench, r), rows))
            bad = [(r["id"], msg) for r, msg in zip(rows, results) if msg]
            for rid, msg in bad:
                print("crosscheck %s: %s" % (rid, msg), file=sys.stderr)
            if bad:
                sys.exit("%d cases disagree with gohcl-bench eval" % len(bad))

        with open(args.out, "w", encoding="utf-8") as f:
            for r in rows:
                f.write(jdump(r) + "\n")
        with open(os.path.join(HERE, "skipped.txt"), "w", encoding="utf-8") as f:
            f.write("# Rows of the reference's test tables not in cases.jsonl, and why.\n")
            for src, why in skipped:
                f.write("%s\t%s\n" % (src, why))

        n_err = sum(1 for r in rows if "error" in r["want"])
        n_crash = sum(1 for r in rows if "crash" in r["want"])
        print("%d cases (%d values, %d errors of which %d parse errors, %d crashes) -> %s" % (
            len(rows), len(rows) - n_err - n_crash, n_err, sum(1 for r in rows if r.get("parse_error")),
            n_crash, args.out))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
