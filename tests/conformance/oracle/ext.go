// The reference's hcldec with the extensions hclvm's hcldec has, for
// checking the expectations of the conformance tests that use them
// (tests/conformance/ext). build.sh compiles this file together with the
// reference's own cmd/hcldec sources, renaming two of their functions so
// that the versions here wrap them:
//
//   - evalTypeExpr reads a type expression as a type constraint with
//     defaults (ext/typeexpr) first, so optional(T[, default]) works;
//   - decodeAttrSpec applies those defaults before converting the value;
//   - block_attrs spec blocks are accepted (the reference decodes them, but
//     its spec schema leaves them out);
//   - --dynamic-blocks expands dynamic blocks (ext/dynblock) in the input
//     before decoding, and --var-refs then walks the variables through them
//     (dynblock.VariablesHCLDec).
package main

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/dynblock"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hcldec"
	flag "github.com/spf13/pflag"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

func evalTypeExpr(expr hcl.Expression) (cty.Type, hcl.Diagnostics) {
	if ty, _, diags := typeexpr.TypeConstraintWithDefaults(expr); !diags.HasErrors() {
		return ty, nil
	}
	return evalTypeExprOrig(expr)
}

func decodeAttrSpec(body hcl.Body, impliedName string) (hcldec.Spec, hcl.Diagnostics) {
	spec, diags := decodeAttrSpecOrig(body, impliedName)
	attr, ok := spec.(*hcldec.AttrSpec)
	if diags.HasErrors() || !ok {
		return spec, diags
	}
	attrs, _ := body.JustAttributes()
	typeAttr, ok := attrs["type"]
	if !ok {
		return spec, diags
	}
	ty, defaults, tdiags := typeexpr.TypeConstraintWithDefaults(typeAttr.Expr)
	if tdiags.HasErrors() || defaults == nil {
		return spec, diags
	}
	// Defaults first, then the conversion, as the decoder does it.
	return &hcldec.TransformFuncSpec{
		Wrapped: &hcldec.AttrSpec{Name: attr.Name, Type: cty.DynamicPseudoType, Required: attr.Required},
		Func: function.New(&function.Spec{
			Params: []function.Parameter{{Name: "v", Type: cty.DynamicPseudoType, AllowNull: true, AllowUnknown: true}},
			Type:   function.StaticReturnType(ty),
			Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
				return convert.Convert(defaults.Apply(args[0]), ty)
			},
		}),
	}, diags
}

var dynamicBlocks = flag.BoolP("dynamic-blocks", "", false, "expand dynamic blocks in the input")

// expandInput is what main calls on the input body before decoding.
func expandInput(body hcl.Body, ctx *hcl.EvalContext) hcl.Body {
	if *dynamicBlocks {
		return dynblock.Expand(body, ctx)
	}
	return body
}

// variablesOf is what main calls for --var-refs.
func variablesOf(body hcl.Body, spec hcldec.Spec) []hcl.Traversal {
	if *dynamicBlocks {
		return dynblock.VariablesHCLDec(body, spec)
	}
	return hcldec.Variables(body, spec)
}
