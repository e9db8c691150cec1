// Command json-oracle prints what the reference's JSON syntax package
// (hashicorp/hcl/v2/json) makes of each input of a case file, in the line
// format of tests/golden/json_syntax/*.golden (see gen.sh). It reads the
// package only through its public API: the tree is recovered with
// hcl.ExprList and hcl.ExprMap, the kind of a leaf from its literal value.
//
//	json-oracle VARS.json < cases.txt > cases.golden
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

const filename = "t.json"

func pos(p hcl.Pos) string { return fmt.Sprintf("%d:%d:%d", p.Line, p.Column, p.Byte) }

func rng(r hcl.Range) string {
	if r.Filename != filename {
		return "!" + r.Filename + "!" + pos(r.Start) + "-" + pos(r.End)
	}
	return pos(r.Start) + "-" + pos(r.End)
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// diag writes one diagnostic as a JSON object on a line starting with tag.
func diag(w *bufio.Writer, tag string, d *hcl.Diagnostic) {
	sev := "error"
	if d.Severity == hcl.DiagWarning {
		sev = "warning"
	}
	s := fmt.Sprintf(`{"severity":%q,"summary":%s,"detail":%s`,
		sev, jsonString(d.Summary), jsonString(d.Detail))
	if d.Subject != nil {
		s += fmt.Sprintf(`,"subject":%q`, rng(*d.Subject))
	}
	if d.Context != nil {
		s += fmt.Sprintf(`,"context":%q`, rng(*d.Context))
	}
	fmt.Fprintf(w, "%s %s}\n", tag, s)
}

func diags(w *bufio.Writer, tag string, ds hcl.Diagnostics) {
	for _, d := range ds {
		diag(w, tag, d)
	}
}

// typed is a value as `gohcl-bench eval` prints it.
func typed(v cty.Value) string {
	v, _ = v.UnmarkDeep()
	tb, err := ctyjson.MarshalType(v.Type())
	if err != nil {
		tb, _ = json.Marshal(v.Type().FriendlyName())
	}
	if v.IsWhollyKnown() {
		if vb, err := ctyjson.Marshal(v, v.Type()); err == nil {
			return fmt.Sprintf(`{"value":%s,"type":%s}`, vb, tb)
		}
	}
	return fmt.Sprintf(`{"repr":%s,"type":%s}`, jsonString(v.GoString()), tb)
}

// tree writes the tree under expr, one node a line, indented by depth.
func tree(w *bufio.Writer, expr hcl.Expression, depth int) {
	ind := strings.Repeat("  ", depth)
	if items, d := hcl.ExprList(expr); !d.HasErrors() {
		fmt.Fprintf(w, "N %sarray %s open %s\n", ind, rng(expr.Range()), rng(expr.StartRange()))
		for _, it := range items {
			tree(w, it, depth+1)
		}
		return
	}
	if pairs, d := hcl.ExprMap(expr); !d.HasErrors() {
		fmt.Fprintf(w, "N %sobject %s open %s\n", ind, rng(expr.Range()), rng(expr.StartRange()))
		for _, p := range pairs {
			k, _ := p.Key.Value(nil)
			fmt.Fprintf(w, "N %s  key %s %s\n", ind, jsonString(k.AsString()), rng(p.Key.Range()))
			tree(w, p.Value, depth+2)
		}
		return
	}
	v, _ := expr.Value(nil)
	r := rng(expr.Range())
	switch {
	case !v.IsKnown():
		fmt.Fprintf(w, "N %sinvalid %s\n", ind, r)
	case v.IsNull():
		fmt.Fprintf(w, "N %snull %s\n", ind, r)
	case v.Type() == cty.Bool:
		fmt.Fprintf(w, "N %sbool %v %s\n", ind, v.True(), r)
	case v.Type() == cty.Number:
		fmt.Fprintf(w, "N %snumber %s %s\n", ind, v.AsBigFloat().Text('f', -1), r)
	case v.Type() == cty.String:
		fmt.Fprintf(w, "N %sstring %s %s\n", ind, jsonString(v.AsString()), r)
	default:
		fmt.Fprintf(w, "N %s? %s\n", ind, r)
	}
}

func traversal(t hcl.Traversal) string {
	var b strings.Builder
	for _, s := range t {
		switch s := s.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			b.WriteString("[" + typed(s.Key) + "]")
		}
		b.WriteString("@" + rng(s.SourceRange()) + " ")
	}
	return strings.TrimSpace(b.String())
}

func functions() map[string]function.Function {
	return map[string]function.Function{
		"upper":      stdlib.UpperFunc,
		"lower":      stdlib.LowerFunc,
		"join":       stdlib.JoinFunc,
		"format":     stdlib.FormatFunc,
		"jsonencode": stdlib.JSONEncodeFunc,
		"tostring":   stdlib.MakeToFunc(cty.String),
		"tonumber":   stdlib.MakeToFunc(cty.Number),
		"try":        tryfunc.TryFunc,
	}
}

func loadVars(path string) map[string]cty.Value {
	src, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	ty, err := ctyjson.ImpliedType(src)
	if err != nil {
		panic(err)
	}
	val, err := ctyjson.Unmarshal(src, ty)
	if err != nil {
		panic(err)
	}
	return val.AsValueMap()
}

func run(w *bufio.Writer, src []byte, ctx *hcl.EvalContext) {
	fmt.Fprintf(w, "I %s\n", strconv.Quote(string(src)))
	_, fd := hcljson.Parse(src, filename)
	diags(w, "P", fd)
	expr, xd := hcljson.ParseExpression(src, filename)
	diags(w, "X", xd)
	tree(w, expr, 0)
	v, d := expr.Value(ctx)
	fmt.Fprintf(w, "F %s\n", typed(v))
	diags(w, "FD", d)
	v, d = expr.Value(nil)
	fmt.Fprintf(w, "L %s\n", typed(v))
	diags(w, "LD", d)
	for _, t := range expr.Variables() {
		fmt.Fprintf(w, "V %s\n", traversal(t))
	}
	if t, d := hcl.AbsTraversalForExpr(expr); !d.HasErrors() {
		fmt.Fprintf(w, "SA %s\n", traversal(t))
	} else {
		diags(w, "SAD", d)
	}
	if t, d := hcl.RelTraversalForExpr(expr); !d.HasErrors() {
		fmt.Fprintf(w, "SR %s\n", traversal(t))
	} else {
		diags(w, "SRD", d)
	}
	if k := hcl.ExprAsKeyword(expr); k != "" {
		fmt.Fprintf(w, "SK %s\n", jsonString(k))
	}
	if items, d := hcl.ExprList(expr); !d.HasErrors() {
		var rs []string
		for _, it := range items {
			rs = append(rs, rng(it.Range()))
		}
		fmt.Fprintf(w, "SL %d %s\n", len(items), strings.Join(rs, " "))
	} else {
		diags(w, "SLD", d)
	}
	if pairs, d := hcl.ExprMap(expr); !d.HasErrors() {
		var rs []string
		for _, p := range pairs {
			rs = append(rs, rng(p.Key.Range())+"="+rng(p.Value.Range()))
		}
		fmt.Fprintf(w, "SM %d %s\n", len(pairs), strings.Join(rs, " "))
		for _, p := range pairs {
			kv, kd := p.Key.Value(ctx)
			fmt.Fprintf(w, "SMK %s\n", typed(kv))
			diags(w, "SMKD", kd)
		}
	} else {
		diags(w, "SMD", d)
	}
	if call, d := hcl.ExprCall(expr); !d.HasErrors() {
		var rs []string
		for _, a := range call.Arguments {
			rs = append(rs, rng(a.Range()))
		}
		fmt.Fprintf(w, "SC %s %s %s %d %s\n", call.Name, rng(call.NameRange), rng(call.ArgsRange),
			len(call.Arguments), strings.Join(rs, " "))
	} else {
		diags(w, "SCD", d)
	}
}

// main reads cases: "T text" (the rest of the line), "Q quoted" (a Go
// string literal, for bytes a line cannot hold), "# comment" and blank
// lines; comments and blank lines are copied.
func main() {
	ctx := &hcl.EvalContext{Variables: loadVars(os.Args[1]), Functions: functions()}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for in.Scan() {
		line := in.Text()
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			fmt.Fprintln(w, line)
		case strings.HasPrefix(line, "T "):
			run(w, []byte(line[2:]), ctx)
		case strings.HasPrefix(line, "Q "):
			s, err := strconv.Unquote(line[2:])
			if err != nil {
				panic(fmt.Sprintf("bad Q line %q: %s", line, err))
			}
			run(w, []byte(s), ctx)
		default:
			panic(fmt.Sprintf("bad case line %q", line))
		}
	}
}
