// Tests of the compiler: the opcode table, the bytecode goldens of
// tests/golden/disasm (x.hcl must disassemble to x.dis, as `hclvm disasm`
// prints it), constant folding, the choice between the two ways of
// compiling a conditional, the diagnostic marks, max_stack, and very deep
// trees.
#include <gtest/gtest.h>
#include <hclvm/cache.h>
#include <hclvm/eval.h>
#include <hclvm/functions.h>
#include <hclvm/syntax.h>

#include <filesystem>
#include <set>
#include <string>
#include <thread>

#include "test_util.h"
#include "vm/opcodes.h"
#include "vm/program.h"

namespace hclvm {
namespace {

// The program for expression [src].
std::shared_ptr<const Program> compile(std::string_view src) {
  ExprParse p = parse_expression(make_source("<expr>", std::string(src)));
  EXPECT_FALSE(p.has_errors()) << src;
  CompileResult r = compile_expression(*p.expr, p.source);
  EXPECT_TRUE(r.diagnostics.empty()) << src;
  return r.program;
}

// The opcode names of [p]'s code, in order, one word each.
std::string opcodes(const Program& p) {
  std::string out;
  for (uint32_t pc = 0; pc < p.code.size(); pc += vm::info(static_cast<vm::Op>(p.code[pc])).size) {
    if (!out.empty()) out += ' ';
    out += vm::info(static_cast<vm::Op>(p.code[pc])).name;
  }
  return out;
}

TEST(Opcodes, TableIsConsistent) {
  std::set<std::string> names;
  for (size_t i = 0; i < vm::kNumOps; ++i) {
    const vm::OpInfo& in = vm::info(static_cast<vm::Op>(i));
    EXPECT_TRUE(names.insert(in.name).second) << in.name;
    size_t size = 1;
    bool ended = false;
    for (vm::Opnd k : in.operands) {
      if (k == vm::Opnd::None)
        ended = true;
      else
        EXPECT_FALSE(ended) << in.name << ": operands after None";
      size += vm::detail::width(k);
    }
    EXPECT_EQ(in.size, size) << in.name;
    EXPECT_GE(in.pushes, 0) << in.name;
  }
  EXPECT_LT(vm::kNumOps, 256u);
}

// Writes the disassembly of every attribute of [body] as `hclvm disasm` does.
void disasm_body(const ast::Body& body, const Source& src,
                 const std::shared_ptr<const Source>& shared, const std::string& prefix,
                 std::string& out) {
  for (const ast::Attribute* a : body.attributes) {
    Range r = src.range(a->expr->span);
    if (!out.empty()) out += "\n";
    out += "== " + prefix + std::string(a->name) + " (" + std::to_string(r.start.line) + ":" +
           std::to_string(r.start.column) + "-" + std::to_string(r.end.line) + ":" +
           std::to_string(r.end.column) + ")\n";
    out += disassemble(*compile_expression(*a->expr, shared).program);
  }
  for (const ast::Block* b : body.blocks) {
    std::string p = prefix + std::string(b->type) + ".";
    for (std::string_view l : b->labels) p += std::string(l) + ".";
    if (b->body) disasm_body(*b->body, src, shared, p, out);
  }
}

TEST(DisasmGolden, MatchesFiles) {
  std::filesystem::path dir = std::filesystem::path(HCLVM_SOURCE_DIR) / "tests/golden/disasm";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".hcl") continue;
    ++files;
    std::string name = entry.path().filename().string();
    FileParse p = parse_config(make_source(name, test::read_file(entry.path())));
    ASSERT_FALSE(p.has_errors()) << name;
    std::string got;
    disasm_body(*p.body, *p.source, p.source, "", got);
    std::filesystem::path want = entry.path();
    want.replace_extension(".dis");
    EXPECT_EQ(got, test::read_file(want))
        << name << " (refresh: tests/golden/disasm/run.sh HCLVM --refresh)";
  }
  EXPECT_GE(files, 5);
}

TEST(Folding, ClosedSubtreesBecomeConstants) {
  EXPECT_EQ(opcodes(*compile("1 + 2 * 3")), "CONST RETURN");
  EXPECT_EQ(opcodes(*compile("[for x in [1, 2] : x * 2 if x > 1]")), "CONST RETURN");
  EXPECT_EQ(opcodes(*compile("{a = [1, 2][*], b = \"x${1}\"}")), "CONST RETURN");
  EXPECT_EQ(opcodes(*compile("true ? 1 : 2")), "CONST RETURN");
  // Folded parts of an open expression.
  EXPECT_EQ(opcodes(*compile("x + (2 * 3)")), "DMARK TRAVERSE CONST ADD RETURN");
  // Calls are never folded; neither is what reports an error.
  EXPECT_EQ(opcodes(*compile("upper(\"a\")")), "CALL_BEGIN CONST CALL_ARG CALL_END RETURN");
  EXPECT_EQ(opcodes(*compile("1 + \"a\"")), "CONST CONST ADD RETURN");
}

TEST(Folding, FoldedValuesAreTheVmsValues) {
  auto p = compile("1 / 3 + 2");
  ASSERT_EQ(p->constants.size(), 1u);
  EXPECT_EQ(p->constants[0].as_number().text(),
            compile("1 / 3 + 2")->constants[0].as_number().text());
  EvalContext ctx;
  Vm vm;
  EXPECT_EQ(vm.run(*p, ctx).value.as_number().precision(), 512u);
}

// Literals and strings without interpolations become their constant
// without lowering or folding; the value is what folding the same text
// through an interpolation gives (normalized, escapes decoded), at any
// length.
TEST(Folding, PlainLiteralsAreTheirConstant) {
  EvalContext ctx;
  Vm vm;
  auto value = [&](const std::string& src) {
    auto p = compile(src);
    EXPECT_EQ(opcodes(*p), "CONST RETURN") << src;
    EXPECT_EQ(p->max_stack, 1u) << src;
    return test::golden_typed(vm.run(*p, ctx).value);
  };
  for (std::string text : {std::string("abc"), std::string(""), std::string("e\\u0301 $${x} %%{y}"),
                           std::string("a\\nb\\t\\\"q\\\""), std::string(4096, 'x'),
                           std::string(4097, 'y'), std::string(5000, 'z') + "e\\u0301"}) {
    EXPECT_EQ(value("\"" + text + "\""), value("\"${\"" + text + "\"}\"")) << text.substr(0, 20);
  }
  EXPECT_EQ(value("\"e\\u0301\""), R"({"value":"é","type":"string"})");
  EXPECT_EQ(value("<<EOT\nline\nEOT\n"), R"({"value":"line\n","type":"string"})");
  EXPECT_EQ(value("42"), R"({"value":42,"type":"number"})");
  EXPECT_EQ(value("true"), R"({"value":true,"type":"bool"})");
  EXPECT_EQ(value("null"), R"({"value":null,"type":"dynamic"})");
}

// Past 16 entries the emitter's pools are indexed: a name or constant
// used again is still stored once, and every use finds its own entry.
TEST(Emitter, LargePoolsStoreEachEntryOnce) {
  std::string src = "[";
  EvalContext ctx;
  std::string want = "[";
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 40; ++i) {
      std::string v = "v" + std::to_string(i);
      src += v + ".a" + std::to_string(i % 23) + ", f(x, \"c" + std::to_string(i) + "\"), ";
      if (round == 0)
        ctx.set(v, Value::object({{"a" + std::to_string(i % 23), Value::integer(i)}}));
      want += std::to_string(i) + ",\"c" + std::to_string(i) + "\",";
    }
  }
  src += "]";
  want.back() = ']';
  auto p = compile(src);
  ASSERT_GT(p->names.size(), 16u);
  std::set<std::string> names(p->names.begin(), p->names.end());
  EXPECT_EQ(names.size(), p->names.size());
  std::set<std::string> strings;
  size_t string_constants = 0;
  for (const Value& c : p->constants)
    if (c.is_known() && !c.is_null() && c.type() == Type::string()) {
      ++string_constants;
      strings.insert(std::string(c.as_string()));
    }
  EXPECT_EQ(strings.size(), string_constants);
  EXPECT_GE(strings.size(), 40u);
  FunctionTable fns;
  Function f;
  f.params = {{"x", Type::dynamic()}, {"s", Type::string()}};
  f.returns(Type::string());
  f.impl = [](std::span<const Value> args, const Type*) { return FuncResult::of(args[1]); };
  fns.add("f", std::make_shared<const Function>(std::move(f)));
  ctx.set("x", Value::boolean(true));
  ctx.set_functions(std::make_shared<const FunctionTable>(std::move(fns)));
  Vm vm;
  EvalResult r = vm.run(*p, ctx);
  ASSERT_FALSE(r.has_errors()) << r.diagnostics[0].detail;
  std::string got = test::golden_typed(r.value);
  EXPECT_EQ(got.substr(0, got.find(",\"type\"")), "{\"value\":" + want);
}

TEST(Conditionals, StaticTypeRunsOneBranch) {
  std::string d = disassemble(*compile("c ? \"a\" : \"b\""));
  EXPECT_NE(d.find("; string"), std::string::npos) << d;
  EXPECT_EQ(d.find("DMARK"), std::string::npos) << d;
  d = disassemble(*compile("c ? a : \"b\""));
  EXPECT_NE(d.find("; general"), std::string::npos) << d;
  // A literal null is of the dynamic type: unification decides.
  d = disassemble(*compile("c ? null : null"));
  EXPECT_NE(d.find("; general"), std::string::npos) << d;
}

TEST(Marks, OnlyWhereOperandsMayReport) {
  EXPECT_EQ(opcodes(*compile("[for x in xs : x * 2]")),
            "TRAVERSE FOR_BEGIN FOR_NEXT LOAD CONST MUL FOR_ITEM JUMP FOR_END RETURN");
  EXPECT_EQ(opcodes(*compile("a && b")), "DMARK TRAVERSE DMARK TRAVERSE AND RETURN");
  EXPECT_EQ(opcodes(*compile("-a")), "DMARK TRAVERSE NEG RETURN");
}

TEST(MaxStack, CoversEveryPath) {
  auto p = compile("[a, [b, [c, d ? e : f]], {x = g}, h(i, j...)]");
  EXPECT_EQ(p->max_stack, 4u);  // a, b, c and one of d, e, f
  EvalContext ctx;
  for (const char* v : {"a", "b", "c", "d", "e", "f", "g", "i"}) ctx.set(v, Value::integer(1));
  ctx.set("j", Value::tuple({}));
  Vm vm;
  EvalResult r = vm.run(*p, ctx);
  EXPECT_EQ(r.diagnostics.size(), 2u);  // d is not a bool; no function table
}

TEST(Deep, VeryDeepTreesCompile) {
  std::string src = std::string(9000, '(') + "x" + std::string(9000, ')');
  ExprParse p = parse_expression(make_source("<expr>", src));
  ASSERT_FALSE(p.has_errors());
  CompileResult c = compile_expression(*p.expr, p.source);
  EXPECT_TRUE(c.diagnostics.empty());
  EvalContext ctx;
  ctx.set("x", Value::integer(5));
  Vm vm;
  EXPECT_EQ(vm.run(*c.program, ctx).value.small_int(), 5);

  std::string sum = "\"a\"";
  for (int i = 0; i < 9000; ++i) sum += "+1";
  p = parse_expression(make_source("<expr>", sum));
  ASSERT_FALSE(p.has_errors());
  c = compile_expression(*p.expr, p.source);
  EvalResult r = vm.run(*c.program, ctx);
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_EQ(r.diagnostics[0].summary, "Invalid operand");
}

// --- program layout ------------------------------------------------------------------

// The value of [p] evaluated with x = 5, as the reference's tools print it.
std::string run_with_x(const Program& p) {
  EvalContext ctx;
  ctx.set("x", Value::number(Number::from_int(5)));
  Vm vm;
  EvalResult r = vm.run(p, ctx);
  EXPECT_FALSE(r.has_errors());
  return test::golden_typed(r.value);
}

TEST(ProgramArena, ProgramsMadeInOneLieSideBySideAndRunAlike) {
  const char* exprs[] = {"x + 1", "\"a${x}b\"", "[for i in [1, 2] : i * x]", "{ a = x }", "\"k\""};
  std::vector<std::shared_ptr<const Program>> in, out;
  {
    ProgramArena arena;
    for (const char* e : exprs) in.push_back(compile(e));
  }
  for (const char* e : exprs) out.push_back(compile(e));
  for (size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(run_with_x(*in[i]), run_with_x(*out[i])) << exprs[i];
    if (i == 0) continue;
    // Each after the one before, closer than any chunk is long.
    auto gap =
        reinterpret_cast<uintptr_t>(in[i].get()) - reinterpret_cast<uintptr_t>(in[i - 1].get());
    EXPECT_GT(gap, 0u);
    EXPECT_LT(gap, 4 * sizeof(Program)) << exprs[i];
    // Their hot blocks too, in a run of their own.
    auto hot_gap =
        reinterpret_cast<uintptr_t>(&in[i]->hot()) - reinterpret_cast<uintptr_t>(&in[i - 1]->hot());
    EXPECT_GT(hot_gap, 0u);
    EXPECT_LT(hot_gap, 1024u) << exprs[i];
  }
}

TEST(ProgramArena, AProgramOutlivesItsArenaAndItsNeighbours) {
  std::shared_ptr<const Program> kept;
  {
    ProgramArena outer;
    std::vector<std::shared_ptr<const Program>> others;
    for (int i = 0; i < 200; ++i) {  // more than one chunk
      ProgramArena inner;            // scopes nest
      others.push_back(compile("x * " + std::to_string(i)));
    }
    kept = others[150];
  }
  EXPECT_EQ(run_with_x(*kept), R"({"value":750,"type":"number"})");
  // Dropped on another thread, as a server might.
  std::thread([p = std::move(kept)]() mutable { p.reset(); }).join();
}

// Small constants are copied into the arena beside their program's code;
// a result holding one (or a collection built around one) stays valid after
// the program, its neighbours and the arena are gone, and the memory goes
// when the last such result does (leak checkers see it go).
TEST(ProgramArena, ConstantsInTheArenaOutliveTheirPrograms) {
  const char* exprs[] = {R"("hello")", R"(["a", { b = "c", n = 1 }, [true, null]])",
                         R"({ k = ["x", "y"] })", R"(["z", x])", R"(x == 5 ? "yes" : "no")",
                         R"([["p", "q"], [], {}])"};
  const char* want[] = {
      R"({"value":"hello","type":"string"})",
      R"({"value":["a",{"b":"c","n":1},[true,null]],"type":["tuple",["string",["object",{"b":"string","n":"number"}],["tuple",["bool","dynamic"]]]]})",
      R"({"value":{"k":["x","y"]},"type":["object",{"k":["tuple",["string","string"]]}]})",
      R"({"value":["z",5],"type":["tuple",["string","number"]]})",
      R"({"value":"yes","type":"string"})",
      R"({"value":[["p","q"],[],{}],"type":["tuple",[["tuple",["string","string"]],["tuple",[]],["object",{}]]]})"};
  std::vector<Value> results;
  std::vector<std::shared_ptr<const Program>> programs;
  {
    ProgramArena arena;
    for (int round = 0; round < 40; ++round)  // several chunks
      for (const char* e : exprs) programs.push_back(compile(e));
  }
  EvalContext ctx;
  ctx.set("x", Value::number(Number::from_int(5)));
  Vm vm;
  for (const auto& p : programs) results.push_back(vm.run(*p, ctx).value);
  // The constant itself: its text lies in the arena, right after the code.
  const vm::Hot& h = programs[0]->hot();
  auto text = reinterpret_cast<uintptr_t>(h.constants()[0].as_string().data());
  EXPECT_GT(text, reinterpret_cast<uintptr_t>(&h));
  EXPECT_LT(text, reinterpret_cast<uintptr_t>(&h) + 1024);
  programs.clear();
  for (size_t i = 0; i < results.size(); ++i)
    EXPECT_EQ(test::golden_typed(results[i]), want[i % std::size(exprs)]) << exprs[i % std::size(exprs)];
  // Released on another thread, half of them, the rest here.
  std::vector<Value> half(results.begin(), results.begin() + long(results.size() / 2));
  results.erase(results.begin(), results.begin() + long(results.size() / 2));
  std::thread([h = std::move(half)]() mutable { h.clear(); }).join();
  results.clear();
}

TEST(ProgramArena, ManyProgramsInOneArenaFromACompiledFile) {
  std::string text;
  for (int i = 0; i < 3000; ++i)
    text += "a" + std::to_string(i) + " = x + " + std::to_string(i) + "\n";
  CompiledFile f = compile_file(make_source("many.hcl", text));
  ASSERT_EQ(f.body.attributes.size(), 3000u);
  EvalContext ctx;
  ctx.set("x", Value::number(Number::from_int(5)));
  Vm vm;
  for (int i : {0, 1499, 2999}) {
    EvalResult r = vm.run(*f.body.attributes[size_t(i)].program, ctx);
    EXPECT_EQ(test::golden_typed(r.value),
              R"({"value":)" + std::to_string(5 + i) + R"(,"type":"number"})");
  }
}

TEST(ProgramLayout, RelinkingReplacesTheHotBlock) {
  std::shared_ptr<const Program> c = compile("x + 1");
  auto p = std::const_pointer_cast<Program>(c);
  const vm::Hot* before = &p->hot();
  p->constants.push_back(Value::string("unused"));
  p->link();
  EXPECT_NE(&p->hot(), before);
  EXPECT_EQ(p->hot().num_constants, p->constants.size());
  EXPECT_EQ(run_with_x(*p), R"({"value":6,"type":"number"})");
  EXPECT_EQ(reinterpret_cast<uintptr_t>(&p->hot()) % 64, 0u);  // the header is one cache line
}

}  // namespace
}  // namespace hclvm
