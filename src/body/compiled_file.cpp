// Compiled files (hclvm/compiled_file.h): a configuration file parsed and
// each attribute's expression compiled, in source order, so that the
// cache can store it and evaluations compile nothing. Native files are
// walked block by block; a JSON file, having no schema, is read as
// JustAttributes does. adopt_programs gives a parsed body the programs of
// a compiled file of the same source.
#include <hclvm/compiled_file.h>

#include "body/internal.h"
#include "util/unicode.h"
#include "vm/program.h"

namespace hclvm {

namespace {

// Compiles the attributes of [b] of [src], and of its blocks, into [out].
void compile_body(const ast::Body& b, const std::shared_ptr<const Source>& src, CompiledBody& out) {
  out.span = b.span;
  out.end_span = b.end_span;
  for (const ast::Attribute* a : b.attributes) {
    CompiledAttribute ca;
    ca.name = std::string(a->name);
    ca.span = a->span;
    ca.name_span = a->name_span;
    ca.expr_span = a->expr->span;
    CompileResult c = compile_expression(*a->expr, src);
    ca.program = std::move(c.program);
    ca.diagnostics = std::move(c.diagnostics);
    out.attributes.push_back(std::move(ca));
  }
  for (const ast::Block* blk : b.blocks) {
    CompiledBlock cb;
    cb.type = std::string(blk->type);
    for (std::string_view l : blk->labels) cb.labels.emplace_back(l);
    for (const ast::Span& s : blk->label_spans) cb.label_spans.push_back(s);
    cb.span = blk->span;
    cb.type_span = blk->type_span;
    if (blk->body) compile_body(*blk->body, src, cb.body);
    out.blocks.push_back(std::move(cb));
  }
}

// A JSON-syntax file: without a schema it has no blocks, so each
// top-level property is one attribute whose value is the JSON value under
// it (JustAttributes, as `hclvm eval` reads such a file).
void compile_json_file(CompiledFile& f) {
  ConfigFile c = parse_json_body(f.source);
  f.source = c.source;
  f.diagnostics = std::move(c.diagnostics);
  if (has_errors(f.diagnostics)) return;
  AttributesResult a = c.body.just_attributes();
  f.diagnostics.insert(f.diagnostics.end(), a.diagnostics.begin(), a.diagnostics.end());
  for (const Attribute& at : a.attributes) {
    CompiledAttribute ca;
    ca.name = at.name;
    ca.span = {at.range.start.byte, at.range.end.byte};
    ca.name_span = {at.name_range.start.byte, at.name_range.end.byte};
    Range er = at.expr.range();
    ca.expr_span = {er.start.byte, er.end.byte};
    JsonCompileResult jc = compile_json_expression(*at.expr.json_node(), f.source);
    ca.json_program = std::move(jc.program);
    ca.diagnostics = std::move(jc.diagnostics);
    f.body.attributes.push_back(std::move(ca));
  }
}

}  // namespace

CompiledFile compile_file(std::shared_ptr<const Source> source, Syntax syntax) {
  ProgramArena arena;  // the file's programs side by side, in attribute order
  CompiledFile f;
  f.syntax = syntax;
  if (syntax == Syntax::Json) {
    f.source = std::move(source);
    compile_json_file(f);
    return f;
  }
  FileParse p = parse_config(source);
  f.source = p.source;
  f.diagnostics = std::move(p.diagnostics);
  if (p.body) compile_body(*p.body, f.source, f.body);
  return f;
}

std::shared_ptr<const Program> CompiledAttribute::native_program(std::string* why) const {
  if (program || !lazy) return program;
  return lazy->get(why);
}

EvalResult CompiledAttribute::value(Vm& vm, const EvalContext* ctx) const {
  EvalResult r;
  if (json_program) {
    r = run_json(vm, *json_program, ctx);
  } else if (std::shared_ptr<const Program> p = native_program()) {
    r = vm.run(*p, ctx);
  } else {
    r.value = Value::dynamic();
    Diagnostic d;
    d.summary = "Invalid compiled program";
    d.detail = "The compiled program of " + name +
               " failed verification and its source did not compile again.";
    r.diagnostics.push_back(std::move(d));
  }
  if (!diagnostics.empty())
    r.diagnostics.insert(r.diagnostics.begin(), diagnostics.begin(), diagnostics.end());
  return r;
}

std::string CompiledFile::context(uint32_t byte) const {
  for (const CompiledBlock& b : body.blocks) {
    if (byte < b.span.begin || byte >= b.span.end) continue;
    std::string out = b.type;
    for (const std::string& l : b.labels) out += " " + uni::go_quote(l);
    return out;
  }
  return "";
}

std::string diagnostics_text(const Diagnostics& diags, const CompiledFile& file,
                             const TextOptions& options) {
  return diagnostics_text(diags, file.source.get(),
                          [&file](uint32_t byte) { return file.context(byte); }, options);
}

void write_diagnostics_text(const Diagnostics& diags, const CompiledFile& file,
                            const TextOptions& options,
                            const std::function<void(std::string_view)>& out) {
  write_diagnostics_text(diags, file.source.get(),
                         [&file](uint32_t byte) { return file.context(byte); }, options, out);
}

namespace {

// Matches the attributes of [ast] with those of [compiled] (same source,
// same order) and makes their programs [tree]'s.
void adopt_body(const body_detail::Tree& tree, const ast::Body& ast, const CompiledBody& compiled) {
  if (ast.attributes.size != compiled.attributes.size() || ast.blocks.size != compiled.blocks.size())
    return;
  for (uint32_t i = 0; i < ast.attributes.size; ++i) {
    const ast::Attribute& a = *ast.attributes[i];
    const CompiledAttribute& c = compiled.attributes[i];
    if (a.name != c.name || a.expr->span != c.expr_span) return;
    if (!c.program && !c.lazy) continue;
    auto comp = std::make_shared<body_detail::Compiled>();
    comp->native = c.program;
    if (!comp->native) comp->lazy = c.lazy;  // decoded at its first use (Tree::compiled)
    comp->diagnostics = c.diagnostics;
    tree.adopt(a.expr, std::move(comp));
  }
  for (uint32_t i = 0; i < ast.blocks.size; ++i) {
    if (ast.blocks[i]->body) adopt_body(tree, *ast.blocks[i]->body, compiled.blocks[i].body);
  }
}

}  // namespace

void adopt_programs(const ConfigFile& file, const CompiledFile& compiled) {
  if (file.syntax != Syntax::Native || compiled.syntax != Syntax::Native) return;
  const body_detail::BodyImpl* impl = body_detail::Access::impl(file.body);
  const ast::Body* ast = file.body.native_body();
  if (impl == nullptr || ast == nullptr || impl->tree() == nullptr) return;
  if (file.source->text() != compiled.source->text()) return;
  adopt_body(*impl->tree(), *ast, compiled.body);
}

}  // namespace hclvm
