// Command userfunc-oracle prints what the reference's ext/userfunc makes of
// each case of a case file, in the line format of
// tests/golden/userfunc/*.golden (see gen.sh and
// tests/unit/userfunc_test.cpp, which reads both).
//
// A case is one file of function declarations (JSON when its name ends in
// .json) and calls to evaluate:
//
//	case NAME [noctx]   noctx: the context provider returns nil
//	file NAME           the lines up to "end" are the file, each ending in \n
//	call EXPR           a native expression (file "call.hcl") to evaluate
//
// The functions are decoded from the blocks of type "function". Their base
// context, in which the calls are evaluated too, has the variables u (an
// unknown number), d (cty.DynamicVal), s (the string "x" marked
// "sensitive") and nul (a null string), and the functions upper and every
// decoded function.
//
// Output, for each case:
//
//	I NAME            the case
//	P DIAG            a parse diagnostic of the file
//	D DIAG            a diagnostic of DecodeUserFunctions
//	F NAMES           the functions decoded, sorted
//	RA NAMES / RB TYPE LABELS DEFRANGE / RD DIAG
//	                  the remaining body's Content with the schema
//	                  {other, block thing with one label}: its arguments
//	                  (sorted), blocks and diagnostics
//	JA NAMES / JD DIAG
//	                  the remaining body's JustAttributes
//	C EXPR            a call, then its value (V, and M with the marks
//	                  when the value is marked) and diagnostics (E)
//
//	userfunc-oracle < cases.txt > cases.golden
package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/userfunc"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// typed is a value as `gohcl-bench eval` prints it.

type testCase struct {
	name  string
	noctx bool
	file  string
	src   []byte
	calls []string
}

func sortedKeys[T any](m map[string]T) string {
	var names []string
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, " ")
}

func run(w *bufio.Writer, c *testCase) {
	fmt.Fprintf(w, "I %s\n", c.name)
	var f *hcl.File
	var diags hcl.Diagnostics
	if strings.HasSuffix(c.file, ".json") {
		f, diags = hcljson.Parse(c.src, c.file)
	} else {
		f, diags = hclsyntax.ParseConfig(c.src, c.file, hcl.Pos{Line: 1, Column: 1, Byte: 0})
	}
	for _, d := range diags {
		fmt.Fprintf(w, "P %s\n", diagText(d))
	}

	var base *hcl.EvalContext
	funcs, remain, diags := userfunc.DecodeUserFunctions(f.Body, "function",
		func() *hcl.EvalContext {
			if c.noctx {
				return nil
			}
			return base
		})
	for _, d := range diags {
		fmt.Fprintf(w, "D %s\n", diagText(d))
	}
	fmt.Fprintf(w, "F %s\n", sortedKeys(funcs))

	if remain != nil {
		content, rd := remain.Content(&hcl.BodySchema{
			Attributes: []hcl.AttributeSchema{{Name: "other"}},
			Blocks:     []hcl.BlockHeaderSchema{{Type: "thing", LabelNames: []string{"name"}}},
		})
		fmt.Fprintf(w, "RA %s\n", sortedKeys(content.Attributes))
		for _, b := range content.Blocks {
			fmt.Fprintf(w, "RB %s %s %s\n", b.Type, strings.Join(b.Labels, ","), rng(b.DefRange))
		}
		for _, d := range rd {
			fmt.Fprintf(w, "RD %s\n", diagText(d))
		}
		attrs, jd := remain.JustAttributes()
		fmt.Fprintf(w, "JA %s\n", sortedKeys(attrs))
		for _, d := range jd {
			fmt.Fprintf(w, "JD %s\n", diagText(d))
		}
	}

	all := map[string]function.Function{"upper": stdlib.UpperFunc}
	for n, fn := range funcs {
		all[n] = fn
	}
	base = &hcl.EvalContext{
		Variables: map[string]cty.Value{
			"u":   cty.UnknownVal(cty.Number),
			"d":   cty.DynamicVal,
			"s":   cty.StringVal("x").Mark("sensitive"),
			"nul": cty.NullVal(cty.String),
		},
		Functions: all,
	}
	for _, call := range c.calls {
		fmt.Fprintf(w, "C %s\n", call)
		expr, pd := hclsyntax.ParseExpression([]byte(call), "call.hcl", hcl.Pos{Line: 1, Column: 1})
		if pd.HasErrors() {
			panic(fmt.Sprintf("bad call %q: %s", call, pd.Error()))
		}
		v, vd := expr.Value(base)
		fmt.Fprintf(w, "V %s\n", typed(v))
		if v.ContainsMarked() {
			_, marks := v.UnmarkDeep()
			var names []string
			for m := range marks {
				names = append(names, fmt.Sprint(m))
			}
			sort.Strings(names)
			fmt.Fprintf(w, "M %s\n", strings.Join(names, " "))
		}
		for _, d := range vd {
			fmt.Fprintf(w, "E %s\n", diagText(d))
		}
	}
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	var cur *testCase
	flush := func() {
		if cur != nil {
			run(w, cur)
		}
		cur = nil
	}
	for in.Scan() {
		line := in.Text()
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			flush()
			fmt.Fprintln(w, line)
		case strings.HasPrefix(line, "case "):
			flush()
			words := strings.Fields(line)
			cur = &testCase{name: words[1], noctx: len(words) > 2 && words[2] == "noctx"}
		case strings.HasPrefix(line, "file "):
			cur.file = strings.TrimSpace(line[5:])
			var b strings.Builder
			for in.Scan() && in.Text() != "end" {
				b.WriteString(in.Text() + "\n")
			}
			cur.src = []byte(b.String())
		case strings.HasPrefix(line, "call "):
			cur.calls = append(cur.calls, line[5:])
		default:
			panic(fmt.Sprintf("bad line %q", line))
		}
	}
	flush()
}
