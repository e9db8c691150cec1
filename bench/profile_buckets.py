#!/usr/bin/env python3
"""Groups a callgrind profile's functions into buckets of work.

    python3 bench/profile_buckets.py [--evals N] [--top K] [--show-other K] FILE.cg ...

For each callgrind file (bench/instructions.sh --out FILE, or valgrind
--tool=callgrind on any hclvm command), every function's own instructions
(callgrind_annotate --inclusive=no) go to the first bucket whose pattern
matches its name: parsing, diagnostics, function-call machinery, function bodies,
strings, numbers (Number, GMP, MPFR), malloc/free, unknowns and
refinements, marks, type conversion, operators, values, the interpreter's
loop (`exec`, with what the compiler inlined into it), a run's set-up, the
other handlers, std::string and libc. Prints each bucket's share and
instructions per evaluation (--evals: how many evaluations the file
counted; bench/instructions.sh -n N counts 2N), the K largest functions
with their buckets (--top) and the K largest of those in no bucket
(--show-other). docs/benchmarks.md's profiles of the missed targets were
made with it.
"""
import argparse
import collections
import re
import subprocess

RULES = [
 ("parsing (scanner, GLR driver, tree, positions)", r"hclvm_yyparse|yyuserAction|yyGLR|Lexer::|hclvm::syntax::|hclvm::lex\(|hclvm::fast\(|parse_expression|parse_config|Source::(pos|index|range)|too_deep|limit_nesting"),
 ("diagnostics", r"PendingDiag|Vm::State::report|Diag|did_you_mean|suggest|closest\(|NearName|levenshtein|Message|expression_values|describe_traversal|variable_nodes|make_traversal|append_steps"),
 ("function-call machinery", r"Function::call|Function::return_type|op_call_|check_arg_count|convert_arg_to|finish_call|expect_type|_Function_handler<hclvm::TypeResult|static_return|funcs::Scratch<|unified_args_type|funcs::type_error|conversion_error"),
 ("function bodies (stdlib)", r"hclvm::funcs::|_Function_handler<hclvm::FuncResult|re2::|Writer::marshal|FastReader|marshal_value|append_json|from_json|__introsort|__insertion_sort|__merge_sort|__merge_adaptive|__stable_sort|_Temporary_buffer|uni::go_quote|append_json_quoted|run_deep"),
 ("string/unicode", r"utf8proc|grapheme"),
 ("numbers (Number, GMP, MPFR)", r"hclvm::Number::|__gmp|mpfr_|hclvm::num::|BigNumber|canonical_inf|__log2|number_equal|exact_index"),
 ("malloc/free", r"(^|:)(malloc|free|_int_malloc|_int_free|alloc_perturb|unlink_chunk\S*|malloc_consolidate|tcache\S*)$|operator new|operator delete|gmp_alloc|alloc_count"),
 ("unknown/refinement", r"Refinement|ValueRange|value_range|unknown_result|Value::unknown|is_wholly_known|has_wholly_known_type|refine_not_null|unknown_bool_not_null|Value::refinement"),
 ("marks", r"Marks|Value::mark|unmark|contains_marked|with_same_marks|union_marks|Value::marks"),
 ("type conversion/unification", r"convert|Conversion|conversion_for|hclvm::Type::|TypeTable|unify|ConvertResult|ConvertError|apply_deep|planned\(|dynamic_replace|conformance_error|type_conforms|type_check|PlanKey|PathStep|::apply\(hclvm::Value|to_type|memo_tuple_type|tuple_type|operand_type|result_type"),
 ("operators (ops::, fast_binary)", r"hclvm::ops::|fast_binary|call_operator|vm::\(anonymous namespace\)::take"),
 ("value construction/destruction/refcount", r"hclvm::Value::|hclvm::Value\(|hclvm::detail::|vector<hclvm::Value|emplace_back<hclvm::Value|make_list|Value::string|static_object|pair<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, hclvm::Value>"),
 ("VM exec() loop", r"hclvm::Vm::State::exec\(\)"),
 ("run set-up (Vm::run, run_program, run_on, begin, Budget, bench loop)", r"hclvm::Vm::run\(|Vm::run_program|Vm::State::run_on|Vm::State::begin|Budget::start|steady_clock|clock_gettime|timed_run"),
 ("VM op handlers & traversal", r"hclvm::Vm::|hclvm::vm::|Budget|steady_clock|clock_gettime|Program::site|timed_run"),
 ("std::string / libc mem*", r"basic_string|__mem|__str|_Hash_bytes|string_view|ctype|__memcpy|__memset"),
]
RULES = [(n, re.compile(p)) for n, p in RULES]


def classify(fn):
    """The bucket of function [fn]."""
    for n, p in RULES:
        if p.search(fn):
            return n
    return "other"


def load(path):
    """The total and the (instructions, function) pairs of callgrind file [path]."""
    out = subprocess.run(["callgrind_annotate", "--threshold=100", "--inclusive=no", path], capture_output=True, text=True).stdout
    lines = out.splitlines()
    total = None
    funcs = []
    started = False
    for l in lines:
        m = re.match(r"^\s*([\d,]+) \(100\.0%\)\s+PROGRAM TOTALS", l) or re.match(r"^\s*([\d,]+)\s+PROGRAM TOTALS", l)
        if m:
            total = int(m.group(1).replace(",", ""))
        if re.match(r"^Ir .*file:function", l):
            started = True
            continue
        if not started:
            continue
        m = re.match(r"^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$", l)
        if not m:
            continue
        fn = re.sub(r" \[/.*\]$", "", m.group(2))
        fn = re.sub(r"^\?\?\?:|^\S+\.(c|S|h|cc|cpp):", "", fn)
        funcs.append((int(m.group(1).replace(",", "")), fn))
    return total, funcs


def main():
    ap = argparse.ArgumentParser(description="Groups a callgrind profile's functions into buckets.")
    ap.add_argument("--evals", type=float, default=1, help="evaluations the profile counted")
    ap.add_argument("--top", type=int, default=0, help="also list the K largest functions")
    ap.add_argument("--show-other", type=int, default=0, help="list the K largest functions in no bucket")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    for path in args.files:
        total, funcs = load(path)
        if not total:
            raise SystemExit("profile_buckets.py: no totals in %s (not a callgrind file?)" % path)
        b = collections.Counter()
        other = collections.Counter()
        for c, fn in funcs:
            k = classify(fn)
            b[k] += c
            if k == "other":
                other[fn] += c
        print("## %s: %d instructions, %.0f per evaluation" % (path, total, total / args.evals))
        print("| bucket | share | per evaluation |")
        print("|---|---:|---:|")
        for k, c in b.most_common():
            print("| %s | %.1f%% | %.0f |" % (k, 100 * c / total, c / args.evals))
        if args.top:
            print("\n| function | share | per evaluation | bucket |")
            print("|---|---:|---:|---|")
            for c, fn in sorted(funcs, reverse=True)[:args.top]:
                print("| `%s` | %.1f%% | %.0f | %s |" % (fn[:110], 100 * c / total, c / args.evals, classify(fn)))
        for fn, c in other.most_common(args.show_other):
            print("   other: %.2f%% %s" % (100 * c / total, fn[:150]))


if __name__ == "__main__":
    main()
