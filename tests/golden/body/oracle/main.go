// Command body-oracle prints what the reference makes of each case of a
// case file, in the line format of tests/golden/body/*.golden and
// tests/golden/dynblock/*.golden (see the gen.sh beside them, and
// tests/unit/test_util.h, which reads the cases): hashicorp/hcl's Body
// implementations (hclsyntax, json and MergeFiles) or, with -dynblock, its
// dynamic block extension (ext/dynblock: Expand, WalkVariables and
// WalkExpandVariables) over them.
//
// A case is a set of files (zero or more, their syntax chosen by name: a
// name ending in .json is JSON) merged into one body when there are several
// (or when the case line says "merge"), and a tree of operations on it:
//
//	case NAME [merge]
//	vars JSON           variables of the context (-dynblock), types implied by JSON
//	file NAME           the lines up to "end" are the file, each ending in \n
//	qfile NAME "..."    a file given as a Go string literal
//	> MODE SCHEMA       content, partial or attrs (JustAttributes); with
//	                    -dynblock on Expand(body, ctx)
//	> walk SCHEMA       Visit(SCHEMA) of WalkVariables(body) (-dynblock)
//	> walkexpand SCHEMA Visit(SCHEMA) of WalkExpandVariables(body) (-dynblock)
//	>> @TYPE MODE ...   the same on the body of each block of TYPE found (for
//	                    a walk: on each child node whose block type is TYPE)
//	>> remain MODE ...  the same on the remaining body of a partial read
//
// A SCHEMA is a list of words: NAME for an argument, NAME! for a required
// one, @TYPE for a block type, @TYPE:L1,L2 for one with labels.
//
// The context of a plain case holds name = "web", n = 3 and the function
// upper. With -dynblock it holds the JSON variables, the values that JSON
// cannot write (unknowns, nulls of a type, sets, lists and maps) that
// fixedVariables lists, and upper.
//
//	body-oracle [-dynblock] < cases.txt > cases.golden
package main

import (
	"bufio"
	"flag"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// typed is a value as `gohcl-bench eval` prints it.

type op struct {
	depth    int
	selector string // "", "remain" or "@TYPE"
	mode     string
	text     string // the words after the selector, as written
	schema   *hcl.BodySchema
	children []*op
}

func parseOp(line string) *op {
	depth := 0
	for depth < len(line) && line[depth] == '>' {
		depth++
	}
	words := strings.Fields(line[depth:])
	o := &op{depth: depth, schema: &hcl.BodySchema{}}
	if depth > 1 {
		o.selector, words = words[0], words[1:]
	}
	o.mode = words[0]
	o.text = strings.Join(words, " ")
	for _, w := range words[1:] {
		switch {
		case strings.HasPrefix(w, "@"):
			bs := hcl.BlockHeaderSchema{}
			parts := strings.SplitN(w[1:], ":", 2)
			bs.Type = parts[0]
			if len(parts) == 2 {
				bs.LabelNames = strings.Split(parts[1], ",")
			}
			o.schema.Blocks = append(o.schema.Blocks, bs)
		case strings.HasSuffix(w, "!") && len(w) > 1:
			o.schema.Attributes = append(o.schema.Attributes, hcl.AttributeSchema{Name: w[:len(w)-1], Required: true})
		default:
			o.schema.Attributes = append(o.schema.Attributes, hcl.AttributeSchema{Name: w})
		}
	}
	return o
}

type runner struct {
	w   *bufio.Writer
	ctx *hcl.EvalContext
}

func (r *runner) attr(a *hcl.Attribute) {
	fmt.Fprintf(r.w, "A %s %s %s\n", jsonString(a.Name), rng(a.Range), rng(a.NameRange))
	fmt.Fprintf(r.w, "AE %s %s\n", rng(a.Expr.Range()), rng(a.Expr.StartRange()))
	v, d := a.Expr.Value(nil)
	fmt.Fprintf(r.w, "AL %s\n", typed(v))
	for _, x := range d {
		fmt.Fprintf(r.w, "ALD %s\n", diagText(x))
	}
	v, d = a.Expr.Value(r.ctx)
	fmt.Fprintf(r.w, "AF %s\n", typed(v))
	for _, x := range d {
		fmt.Fprintf(r.w, "AFD %s\n", diagText(x))
	}
	for _, t := range a.Expr.Variables() {
		fmt.Fprintf(r.w, "AX %s\n", traversal(t))
	}
}

func (r *runner) attrs(as hcl.Attributes) {
	var names []string
	for n := range as {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		r.attr(as[n])
	}
}

// sorted prints [lines] sorted: the reference reports some diagnostics and
// variables in Go's random map order.
func (r *runner) sorted(lines []string) {
	sort.Strings(lines)
	for _, l := range lines {
		fmt.Fprintln(r.w, l)
	}
}

func (r *runner) diags(ds hcl.Diagnostics) {
	var lines []string
	for _, d := range ds {
		lines = append(lines, "D "+diagText(d))
	}
	r.sorted(lines)
}

func (r *runner) children(o *op, content *hcl.BodyContent, remain hcl.Body) {
	for _, c := range o.children {
		if c.selector == "remain" {
			if remain != nil {
				r.runOne(c, remain, "remain ")
			}
			continue
		}
		if content == nil {
			continue
		}
		i := 0
		for _, blk := range content.Blocks {
			if "@"+blk.Type == c.selector {
				r.runOne(c, blk.Body, fmt.Sprintf("%s[%d] ", c.selector, i))
				i++
			}
		}
	}
}

// unknown reports whether [b] says it is wholly unknown (hcldec.UnknownBody).
func unknown(b hcl.Body) bool {
	u, ok := b.(hcldec.UnknownBody)
	return ok && u.Unknown()
}

// runOne runs [o] on [b], then its children.
func (r *runner) runOne(o *op, b hcl.Body, label string) {
	fmt.Fprintf(r.w, "O %s %s%s\n", strings.Repeat(">", o.depth), label, o.text)
	fmt.Fprintf(r.w, "BM %s\n", rng(b.MissingItemRange()))
	if unknown(b) {
		fmt.Fprintln(r.w, "U")
	}
	var content *hcl.BodyContent
	var remain hcl.Body
	var d hcl.Diagnostics
	switch o.mode {
	case "content":
		content, d = b.Content(o.schema)
	case "partial":
		content, remain, d = b.PartialContent(o.schema)
	case "attrs":
		var as hcl.Attributes
		as, d = b.JustAttributes()
		r.attrs(as)
	default:
		panic("bad mode " + o.mode)
	}
	if content != nil {
		r.attrs(content.Attributes)
		for _, blk := range content.Blocks {
			var lr []string
			for _, l := range blk.LabelRanges {
				lr = append(lr, rng(l))
			}
			ls, _ := json.Marshal(blk.Labels)
			if blk.Labels == nil {
				ls = []byte("[]")
			}
			fmt.Fprintf(r.w, "B %s %s def %s type %s labels [%s]\n", jsonString(blk.Type), ls,
				rng(blk.DefRange), rng(blk.TypeRange), strings.Join(lr, " "))
		}
		fmt.Fprintf(r.w, "M %s\n", rng(content.MissingItemRange))
	}
	if remain != nil {
		fmt.Fprintf(r.w, "RM %s\n", rng(remain.MissingItemRange()))
		if unknown(remain) {
			fmt.Fprintln(r.w, "RU")
		}
	}
	r.diags(d)
	r.children(o, content, remain)
}

// walk runs the walk operation [o] on [n], then its children on the child
// nodes of their block type.
func (r *runner) walk(o *op, n dynblock.WalkVariablesNode, label string) {
	fmt.Fprintf(r.w, "O %s %s%s\n", strings.Repeat(">", o.depth), label, o.text)
	vars, children := n.Visit(o.schema)
	var lines []string
	for _, t := range vars {
		lines = append(lines, "W "+traversal(t))
	}
	r.sorted(lines)
	for _, c := range children {
		fmt.Fprintf(r.w, "C %s %s\n", jsonString(c.BlockTypeName), rng(c.Body().MissingItemRange()))
	}
	for _, co := range o.children {
		i := 0
		for _, c := range children {
			if "@"+c.BlockTypeName == co.selector {
				r.walk(co, c.Node, fmt.Sprintf("%s[%d] ", co.selector, i))
				i++
			}
		}
	}
}

type file struct {
	name string
	src  []byte
}

type testCase struct {
	name  string
	merge bool
	vars  string
	files []file
	ops   []*op
}

func (r *runner) runCase(c *testCase) {
	fmt.Fprintf(r.w, "I %s\n", c.name)
	r.ctx = plainContext()
	if *dynblockMode {
		r.ctx = context(c.vars)
	}
	var files []*hcl.File
	for _, f := range c.files {
		var hf *hcl.File
		var d hcl.Diagnostics
		if strings.HasSuffix(f.name, ".json") {
			hf, d = hcljson.Parse(f.src, f.name)
		} else {
			hf, d = hclsyntax.ParseConfig(f.src, f.name, hcl.Pos{Line: 1, Column: 1, Byte: 0})
		}
		for _, x := range d {
			fmt.Fprintf(r.w, "P %s\n", diagText(x))
		}
		files = append(files, hf)
	}
	var body hcl.Body
	if len(files) == 1 && !c.merge {
		body = files[0].Body
	} else {
		body = hcl.MergeFiles(files)
	}
	for _, o := range c.ops {
		switch o.mode {
		case "walk":
			r.walk(o, dynblock.WalkVariables(body), "")
		case "walkexpand":
			r.walk(o, dynblock.WalkExpandVariables(body), "")
		default:
			if *dynblockMode {
				r.runOne(o, dynblock.Expand(body, r.ctx), "")
			} else {
				r.runOne(o, body, "")
			}
		}
	}
}

var dynblockMode = flag.Bool("dynblock", false, "expand dynamic blocks (ext/dynblock)")

// plainContext is the context of the cases of the body goldens.
func plainContext() *hcl.EvalContext {
	return &hcl.EvalContext{
		Variables: map[string]cty.Value{
			"name": cty.StringVal("web"),
			"n":    cty.NumberIntVal(3),
		},
		Functions: map[string]function.Function{"upper": stdlib.UpperFunc},
	}
}

// fixedVariables are in the context of every case with -dynblock.
func fixedVariables() map[string]cty.Value {
	obj := func(name string, tags ...string) cty.Value {
		var ts []cty.Value
		for _, t := range tags {
			ts = append(ts, cty.StringVal(t))
		}
		tv := cty.ListValEmpty(cty.String)
		if len(ts) > 0 {
			tv = cty.ListVal(ts)
		}
		return cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal(name), "tags": tv})
	}
	return map[string]cty.Value{
		"unknown":      cty.DynamicVal,
		"unknown_list": cty.UnknownVal(cty.List(cty.String)),
		"unknown_str":  cty.UnknownVal(cty.String),
		"null_list":    cty.NullVal(cty.List(cty.String)),
		"null_any":     cty.NullVal(cty.DynamicPseudoType),
		"strset":       cty.SetVal([]cty.Value{cty.StringVal("b"), cty.StringVal("a"), cty.StringVal("c")}),
		"numset":       cty.SetVal([]cty.Value{cty.NumberIntVal(3), cty.NumberIntVal(1), cty.NumberIntVal(2)}),
		"strlist":      cty.ListVal([]cty.Value{cty.StringVal("x"), cty.StringVal("y")}),
		"strmap":       cty.MapVal(map[string]cty.Value{"k2": cty.StringVal("v2"), "k1": cty.StringVal("v1")}),
		"emptylist":    cty.ListValEmpty(cty.String),
		"partial_list": cty.ListVal([]cty.Value{cty.StringVal("a"), cty.UnknownVal(cty.String)}),
		"objmap": cty.MapVal(map[string]cty.Value{
			"b": obj("B", "t3"),
			"a": obj("A", "t1", "t2"),
		}),
	}
}

// context is the context of a case with variables [vars] (JSON, or "").
func context(vars string) *hcl.EvalContext {
	vs := fixedVariables()
	if vars != "" {
		ty, err := ctyjson.ImpliedType([]byte(vars))
		if err != nil {
			panic(err)
		}
		v, err := ctyjson.Unmarshal([]byte(vars), ty)
		if err != nil {
			panic(err)
		}
		for name, av := range v.AsValueMap() {
			vs[name] = av
		}
	}
	return &hcl.EvalContext{
		Variables: vs,
		Functions: map[string]function.Function{"upper": stdlib.UpperFunc},
	}
}

func main() {
	flag.Parse()
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	r := &runner{w: w}
	var cur *testCase
	var stack []*op      // the last op at each depth
	var pending []string // comments met inside a case, printed after it
	flush := func() {
		if cur != nil {
			r.runCase(cur)
		}
		for _, l := range pending {
			fmt.Fprintln(w, l)
		}
		cur, stack, pending = nil, nil, nil
	}
	for in.Scan() {
		line := in.Text()
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
			if cur == nil {
				fmt.Fprintln(w, line)
			} else {
				pending = append(pending, line)
			}
		case strings.HasPrefix(line, "case "):
			flush()
			words := strings.Fields(line)
			cur = &testCase{name: words[1], merge: len(words) > 2 && words[2] == "merge"}
		case strings.HasPrefix(line, "vars "):
			cur.vars = strings.TrimSpace(line[5:])
		case strings.HasPrefix(line, "file "):
			name := strings.TrimSpace(line[5:])
			var b strings.Builder
			for in.Scan() && in.Text() != "end" {
				b.WriteString(in.Text() + "\n")
			}
			cur.files = append(cur.files, file{name, []byte(b.String())})
		case strings.HasPrefix(line, "qfile "):
			rest := line[6:]
			sp := strings.IndexByte(rest, ' ')
			s, err := strconv.Unquote(rest[sp+1:])
			if err != nil {
				panic(fmt.Sprintf("bad qfile line %q: %s", line, err))
			}
			cur.files = append(cur.files, file{rest[:sp], []byte(s)})
		case strings.HasPrefix(line, ">"):
			o := parseOp(line)
			if o.depth == 1 {
				cur.ops = append(cur.ops, o)
			} else {
				parent := stack[o.depth-2]
				parent.children = append(parent.children, o)
			}
			stack = append(stack[:o.depth-1], o)
		default:
			panic(fmt.Sprintf("bad case line %q", line))
		}
	}
	flush()
}
