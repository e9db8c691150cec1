// The line format the Go golden generators of tests/golden/{body,dynblock,
// userfunc} share (tests/unit/test_util.h reads it): positions, ranges,
// diagnostics, typed values and traversals. build-go-oracle.sh compiles
// this file into each of them.
package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

func pos(p hcl.Pos) string { return fmt.Sprintf("%d:%d:%d", p.Line, p.Column, p.Byte) }

func rng(r hcl.Range) string { return r.Filename + ":" + pos(r.Start) + "-" + pos(r.End) }

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func diagText(d *hcl.Diagnostic) string {
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
	return s + "}"
}

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
