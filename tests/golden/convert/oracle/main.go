// Command convert-oracle checks conversions of native files to the JSON
// syntax with the reference: for each pair of a native file and its JSON
// document, the reference reads both (hclsyntax and hcl/v2/json), decodes
// the JSON body with the schema the native body implies (its attribute
// names, its block types with their label counts, recursively) and
// requires the same content: the same attributes, whose expressions refer
// to the same variables and evaluate to the same value or the same first
// error, and the same blocks with the same labels, in the same order (in
// nested bodies the order within each block type, which is all the JSON
// syntax can keep there).
//
// Evaluation uses a context that tells apart what the conversion may
// change: every variable a native expression refers to is unknown
// (cty.DynamicVal), and every function is a recorder that returns a
// string naming itself and the Go syntax of its arguments, so a call's
// arguments are compared too.
//
//	convert-oracle LIST      LIST: lines "NATIVE<TAB>JSON"
//
// Prints one line per pair, "ok PATH", "FAIL PATH: reason" or "skip PATH:
// reason" (a body that no schema reads: blocks of one type with different
// numbers of labels), then a summary line; exits 1 when a pair fails.
package main

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// recorder returns the function named name: any arguments, a string of its
// name and their Go syntax.
func recorder(name string) function.Function {
	return function.New(&function.Spec{
		VarParam: &function.Parameter{
			Name: "args", Type: cty.DynamicPseudoType,
			AllowNull: true, AllowUnknown: true, AllowDynamicType: true, AllowMarked: true,
		},
		Type: function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			parts := make([]string, len(args))
			for i, a := range args {
				parts[i] = a.GoString()
			}
			return cty.StringVal(name + "(" + strings.Join(parts, ", ") + ")"), nil
		},
	})
}

// traversalText renders traversal t with its steps and keys.
func traversalText(t hcl.Traversal) string {
	var b strings.Builder
	for _, s := range t {
		switch s := s.(type) {
		case hcl.TraverseRoot:
			b.WriteString(s.Name)
		case hcl.TraverseAttr:
			b.WriteString("." + s.Name)
		case hcl.TraverseIndex:
			b.WriteString("[" + s.Key.GoString() + "]")
		case hcl.TraverseSplat:
			b.WriteString("[*]")
		}
	}
	return b.String()
}

// funcNames collects the names of the functions called in expression e.
func funcNames(e hclsyntax.Node, into map[string]bool) {
	hclsyntax.VisitAll(e, func(n hclsyntax.Node) hcl.Diagnostics {
		if c, ok := n.(*hclsyntax.FunctionCallExpr); ok {
			into[c.Name] = true
		}
		return nil
	})
}

// context builds the evaluation context of native expression e.
func context(e hclsyntax.Expression) *hcl.EvalContext {
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{}, Functions: map[string]function.Function{}}
	for _, t := range e.Variables() {
		ctx.Variables[t.RootName()] = cty.DynamicVal
	}
	names := map[string]bool{}
	funcNames(e, names)
	for n := range names {
		ctx.Functions[n] = recorder(n)
	}
	return ctx
}

func firstError(d hcl.Diagnostics) string {
	for _, x := range d {
		if x.Severity == hcl.DiagError {
			return x.Summary + ": " + x.Detail
		}
	}
	return ""
}

func varsText(ts []hcl.Traversal) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = traversalText(t)
	}
	sort.Strings(out)
	return out
}

// compareExpr compares native expression n with JSON expression j.
func compareExpr(where string, n hclsyntax.Expression, j hcl.Expression) error {
	ctx := context(n)
	a, ad := n.Value(ctx)
	ae := firstError(ad)
	if strings.HasPrefix(ae, "Ambiguous attribute key:") {
		// An object with a traversal as a key is an error as a value, but
		// Terraform reads it statically (`providers = { aws.b = aws.c }`):
		// the keys as traversals and the values compared one by one.
		return compareStaticMap(where, n, j)
	}
	nv, jv := varsText(n.Variables()), varsText(j.Variables())
	if strings.Join(nv, " ") != strings.Join(jv, " ") {
		return fmt.Errorf("%s: variables %v, JSON %v", where, nv, jv)
	}
	b, bd := j.Value(ctx)
	be := firstError(bd)
	if ae != "" || be != "" {
		if ae != be {
			return fmt.Errorf("%s: error %q, JSON %q", where, ae, be)
		}
		return nil
	}
	if !a.RawEquals(b) {
		return fmt.Errorf("%s: value %#v, JSON %#v", where, a, b)
	}
	return nil
}

// compareStaticMap compares object n with JSON expression j as Terraform
// reads a map of references: hcl.ExprMap, each key as an absolute
// traversal, each value as an expression.
func compareStaticMap(where string, n hclsyntax.Expression, j hcl.Expression) error {
	np, nd := hcl.ExprMap(n)
	jp, jd := hcl.ExprMap(j)
	if nd.HasErrors() || jd.HasErrors() || len(np) != len(jp) {
		return fmt.Errorf("%s: static map: %s / JSON %s, %d / %d items", where, firstError(nd), firstError(jd), len(np), len(jp))
	}
	for i := range np {
		nt, ntd := hcl.AbsTraversalForExpr(np[i].Key)
		jt, jtd := hcl.AbsTraversalForExpr(jp[i].Key)
		if firstError(ntd) != firstError(jtd) || traversalText(nt) != traversalText(jt) {
			return fmt.Errorf("%s: static key %q (%s), JSON %q (%s)", where, traversalText(nt), firstError(ntd), traversalText(jt), firstError(jtd))
		}
		if err := compareExpr(where+"["+traversalText(nt)+"]", np[i].Value.(hclsyntax.Expression), jp[i].Value); err != nil {
			return err
		}
	}
	return nil
}

// errMixedLabels says that blocks of one type have different numbers of
// labels: no schema reads such a body, so it cannot be compared.
type errMixedLabels struct{ msg string }

func (e errMixedLabels) Error() string { return e.msg }

// compareBody compares native body n with JSON body j.
func compareBody(where string, n *hclsyntax.Body, j hcl.Body, root bool) error {
	schema := &hcl.BodySchema{}
	for name := range n.Attributes {
		schema.Attributes = append(schema.Attributes, hcl.AttributeSchema{Name: name})
	}
	labels := map[string]int{}
	for _, blk := range n.Blocks {
		if k, seen := labels[blk.Type]; seen {
			if k != len(blk.Labels) {
				return errMixedLabels{fmt.Sprintf("%s: blocks %q with %d and %d labels", where, blk.Type, k, len(blk.Labels))}
			}
			continue
		}
		labels[blk.Type] = len(blk.Labels)
		schema.Blocks = append(schema.Blocks, hcl.BlockHeaderSchema{Type: blk.Type, LabelNames: make([]string, len(blk.Labels))})
	}
	for i := range schema.Blocks {
		for k := range schema.Blocks[i].LabelNames {
			schema.Blocks[i].LabelNames[k] = fmt.Sprintf("l%d", k)
		}
	}
	content, diags := j.Content(schema)
	if e := firstError(diags); e != "" {
		return fmt.Errorf("%s: JSON content: %s", where, e)
	}
	if len(content.Attributes) != len(n.Attributes) {
		return fmt.Errorf("%s: %d attributes, JSON %d", where, len(n.Attributes), len(content.Attributes))
	}
	names := make([]string, 0, len(n.Attributes))
	for name := range n.Attributes {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		ja := content.Attributes[name]
		if ja == nil {
			return fmt.Errorf("%s: attribute %s missing in JSON", where, name)
		}
		if err := compareExpr(where+"."+name, n.Attributes[name].Expr, ja.Expr); err != nil {
			return err
		}
	}
	if len(content.Blocks) != len(n.Blocks) {
		return fmt.Errorf("%s: %d blocks, JSON %d", where, len(n.Blocks), len(content.Blocks))
	}
	// The JSON blocks in the order to compare: all of them at the root,
	// grouped by type (stably) in nested bodies, as the native ones.
	nb := make([]*hclsyntax.Block, len(n.Blocks))
	copy(nb, n.Blocks)
	jb := make([]*hcl.Block, len(content.Blocks))
	copy(jb, content.Blocks)
	if !root {
		sort.SliceStable(nb, func(x, y int) bool { return nb[x].Type < nb[y].Type })
		sort.SliceStable(jb, func(x, y int) bool { return jb[x].Type < jb[y].Type })
	}
	for i := range nb {
		w := fmt.Sprintf("%s/%s%q", where, nb[i].Type, nb[i].Labels)
		if nb[i].Type != jb[i].Type || strings.Join(nb[i].Labels, "\x00") != strings.Join(jb[i].Labels, "\x00") {
			return fmt.Errorf("%s: block %d is %s%q in JSON", w, i, jb[i].Type, jb[i].Labels)
		}
		if err := compareBody(w, nb[i].Body, jb[i].Body, false); err != nil {
			return err
		}
	}
	return nil
}

// check compares the native file at np with the JSON file at jp.
func check(np, jp string) error {
	nsrc, err := os.ReadFile(np)
	if err != nil {
		return err
	}
	jsrc, err := os.ReadFile(jp)
	if err != nil {
		return err
	}
	nf, nd := hclsyntax.ParseConfig(nsrc, np, hcl.InitialPos)
	if nd.HasErrors() {
		return fmt.Errorf("native: %s", firstError(nd))
	}
	jf, jd := hcljson.Parse(jsrc, jp)
	if jd.HasErrors() {
		return fmt.Errorf("JSON: %s", firstError(jd))
	}
	return compareBody("", nf.Body.(*hclsyntax.Body), jf.Body, true)
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: convert-oracle LIST")
		os.Exit(2)
	}
	f, err := os.Open(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	ok, bad, skipped := 0, 0, 0
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), "\t", 2)
		if len(parts) != 2 {
			continue
		}
		if err := check(parts[0], parts[1]); err != nil {
			if _, mixed := err.(errMixedLabels); mixed {
				skipped++
				fmt.Fprintf(out, "skip %s: %s\n", parts[0], err.Error())
				continue
			}
			bad++
			fmt.Fprintf(out, "FAIL %s: %s\n", parts[0], strings.ReplaceAll(err.Error(), "\n", " "))
		} else {
			ok++
			fmt.Fprintf(out, "ok %s\n", parts[0])
		}
	}
	fmt.Fprintf(out, "convert-oracle: %d same, %d different, %d not comparable (blocks of one type with different numbers of labels)\n", ok, bad, skipped)
	out.Flush()
	if bad > 0 {
		os.Exit(1)
	}
}
