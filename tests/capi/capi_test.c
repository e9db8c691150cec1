/* The C API (include/hclvm/hclvm.h), from C: every function, with its
 * error paths. A failed check prints where and why, and the program exits
 * with status 1. Run from a scratch directory (it makes a cache directory
 * there); HCLVM_SOURCE_DIR names the source tree. */
#include <hclvm/hclvm.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks = 0;

#define CHECK(cond)                                                                             \
  do {                                                                                          \
    ++checks;                                                                                   \
    if (!(cond)) {                                                                              \
      fprintf(stderr, "%s:%d: check failed: %s\n  last error: %s\n", __FILE__, __LINE__, #cond, \
              hclvm_last_error());                                                              \
      exit(1);                                                                                  \
    }                                                                                           \
  } while (0)

#define OK(call) CHECK((call) == HCLVM_OK)

/* Whether [s] contains [part]. */
static int contains(const char *s, const char *part) {
  return s != NULL && strstr(s, part) != NULL;
}

/* Whether the string value [v] is [want]. */
static int is_string(const hclvm_value *v, const char *want) {
  const char *data = NULL;
  size_t len = 0;
  if (hclvm_value_get_string(v, &data, &len) != HCLVM_OK) return 0;
  return len == strlen(want) && memcmp(data, want, len) == 0;
}

/* Whether the number value [v] is the integer [want]. */
static int is_int(const hclvm_value *v, int64_t want) {
  int64_t got = 0;
  return hclvm_value_get_int64(v, &got) == HCLVM_OK && got == want;
}

/* Whether the typed JSON of [v] is [want]. */
static int typed_json_is(const hclvm_value *v, const char *want) {
  char *json = NULL;
  int ok = hclvm_value_to_typed_json(v, &json) == HCLVM_OK && strcmp(json, want) == 0;
  if (!ok) fprintf(stderr, "typed JSON: %s\n  want:     %s\n", json ? json : "(none)", want);
  hclvm_string_free(json);
  return ok;
}

/* Compiles the expression [text], or fails the test. */
static hclvm_program *expr(const char *text) {
  hclvm_program *prog = NULL;
  hclvm_diagnostics *diags = NULL;
  if (hclvm_compile_expression(text, HCLVM_NUL_TERMINATED, NULL, &prog, &diags) != HCLVM_OK) {
    fprintf(stderr, "cannot compile %s: %s\n", text, hclvm_last_error());
    exit(1);
  }
  CHECK(hclvm_diagnostics_count(diags) == 0);
  hclvm_diagnostics_free(diags);
  return prog;
}

/* Evaluates the expression [text] in [ctx] with [vm]: the result, whose
 * status is [want]. */
static hclvm_result *eval_expr(hclvm_vm *vm, const hclvm_context *ctx, const char *text,
                               hclvm_status want) {
  hclvm_program *prog = expr(text);
  hclvm_result *res = NULL;
  hclvm_status s = hclvm_eval(vm, prog, ctx, &res);
  if (s != want) {
    char *text_diags = NULL;
    if (res != NULL) hclvm_diagnostics_text(hclvm_result_diagnostics(res), 0, 0, &text_diags);
    fprintf(stderr, "%s: status %s, want %s\n%s", text, hclvm_status_string(s),
            hclvm_status_string(want), text_diags ? text_diags : "");
    hclvm_string_free(text_diags);
    exit(1);
  }
  CHECK(res != NULL);
  CHECK(hclvm_result_status(res) == want);
  hclvm_program_free(prog);
  return res;
}

/* The first diagnostic of [res]. */
static hclvm_diagnostic first_diag(const hclvm_result *res) {
  hclvm_diagnostic d;
  memset(&d, 0, sizeof d);
  OK(hclvm_diagnostics_get(hclvm_result_diagnostics(res), 0, &d));
  return d;
}

/* --- status, errors, strings ---------------------------------------------------------- */

static void test_status(void) {
  CHECK(strcmp(hclvm_status_string(HCLVM_OK), "ok") == 0);
  CHECK(strcmp(hclvm_status_string(HCLVM_ERR_PARSE), "parse error") == 0);
  CHECK(strcmp(hclvm_status_string(HCLVM_ERR_LIMIT), "evaluation limit exceeded") == 0);
  CHECK(strcmp(hclvm_status_string((hclvm_status)1234), "unknown status") == 0);
  {
    hclvm_value *v = (hclvm_value *)&v; /* out parameters are reset on failure */
    CHECK(hclvm_value_string(NULL, 0, &v) == HCLVM_ERR_INVALID_ARGUMENT);
    CHECK(v == NULL);
    CHECK(strlen(hclvm_last_error()) > 0);
    OK(hclvm_value_bool(1, &v));
    CHECK(strcmp(hclvm_last_error(), "") == 0);
    hclvm_value_free(v);
  }
  hclvm_string_free(NULL);
}

/* --- expressions, diagnostics ------------------------------------------------------------ */

static void test_parse_error(void) {
  hclvm_program *prog = (hclvm_program *)&prog; /* must be reset */
  hclvm_diagnostics *diags = NULL;
  hclvm_diagnostic d;
  char *text = NULL, *json = NULL;
  CHECK(hclvm_compile_expression("a +\n", HCLVM_NUL_TERMINATED, "bad.hcl", &prog, &diags) ==
        HCLVM_ERR_PARSE);
  CHECK(prog == NULL);
  CHECK(diags != NULL);
  CHECK(hclvm_diagnostics_count(diags) == 1);
  CHECK(hclvm_diagnostics_has_errors(diags) == 1);
  CHECK(strlen(hclvm_last_error()) > 0);
  OK(hclvm_diagnostics_get(diags, 0, &d));
  CHECK(d.severity == HCLVM_SEVERITY_ERROR);
  CHECK(strcmp(d.summary, "Missing expression") == 0);
  CHECK(strlen(d.detail) > 0);
  CHECK(d.has_subject == 1);
  CHECK(strcmp(d.subject.filename, "bad.hcl") == 0);
  CHECK(d.subject.start.line == 2 && d.subject.start.column == 1 && d.subject.start.byte == 4);
  CHECK(d.subject.end.byte == 4);
  CHECK(hclvm_diagnostics_get(diags, 1, &d) == HCLVM_ERR_INVALID_ARGUMENT);
  CHECK(hclvm_diagnostics_get(NULL, 0, &d) == HCLVM_ERR_INVALID_ARGUMENT);

  OK(hclvm_diagnostics_text(diags, 0, 0, &text));
  CHECK(contains(text, "Error: Missing expression"));
  CHECK(contains(text, "on bad.hcl line 2:"));
  OK(hclvm_diagnostics_json(diags, &json));
  CHECK(contains(json, "\"severity\": \"error\""));
  CHECK(contains(json, "\"summary\": \"Missing expression\""));
  CHECK(contains(json, "\"filename\": \"bad.hcl\""));
  hclvm_string_free(text);
  hclvm_string_free(json);
  CHECK(hclvm_diagnostics_text(NULL, 0, 0, &text) == HCLVM_ERR_INVALID_ARGUMENT && text == NULL);
  CHECK(hclvm_diagnostics_json(diags, NULL) == HCLVM_ERR_INVALID_ARGUMENT);
  hclvm_diagnostics_free(diags);

  /* The length is honoured: "1 + 2" cut after "1". */
  OK(hclvm_compile_expression("1 + 2", 1, NULL, &prog, NULL));
  CHECK(hclvm_program_kind_of(prog) == HCLVM_PROGRAM_EXPRESSION);
  CHECK(hclvm_program_body(prog) == NULL);
  {
    hclvm_vm *vm = NULL;
    hclvm_result *res = NULL;
    OK(hclvm_vm_create(NULL, &vm));
    OK(hclvm_eval(vm, prog, NULL, &res));
    CHECK(is_int(hclvm_result_value(res), 1));
    hclvm_result_free(res);
    hclvm_vm_free(vm);
  }
  hclvm_program_free(prog);
  hclvm_diagnostics_free(NULL);
  hclvm_program_free(NULL);
}

/* What a write callback has seen: the text so far, the largest piece, the
 * number of calls, and the call after which it asks to stop (0: never). */
struct written {
  char *text;
  size_t len, largest, calls, stop_after;
};

static int collect(void *user_data, const char *data, size_t len) {
  struct written *w = (struct written *)user_data;
  w->text = (char *)realloc(w->text, w->len + len + 1);
  memcpy(w->text + w->len, data, len);
  w->len += len;
  w->text[w->len] = '\0';
  if (len > w->largest) w->largest = len;
  ++w->calls;
  return w->stop_after != 0 && w->calls >= w->stop_after;
}

/* Diagnostics written piece by piece: 2,000 control bytes on one line make
 * 2,000 errors each showing the whole line (and one more), 4 MB of text, which arrives in
 * pieces of about 64 KiB and equals the text returned whole. */
static void test_diagnostics_write_text(void) {
  enum { N = 2000 };
  char *bytes = (char *)malloc(N);
  hclvm_program *prog = NULL;
  hclvm_diagnostics *diags = NULL;
  char *text = NULL;
  struct written w;
  memset(bytes, 1, N); /* not NUL, which the returned string could not hold */
  memset(&w, 0, sizeof w);
  CHECK(hclvm_compile_file("ctl.hcl", bytes, N, HCLVM_SYNTAX_NATIVE, &prog, &diags) ==
        HCLVM_ERR_PARSE);
  CHECK(hclvm_diagnostics_count(diags) == N + 1); /* and "Argument or block definition required" */
  OK(hclvm_diagnostics_write_text(diags, 80, 0, collect, &w));
  OK(hclvm_diagnostics_text(diags, 80, 0, &text));
  CHECK(w.len > (size_t)N * N && w.len == strlen(text) && strcmp(w.text, text) == 0);
  CHECK(w.calls > 16 && w.largest < 70000);
  free(w.text);
  memset(&w, 0, sizeof w);
  w.stop_after = 2;
  CHECK(hclvm_diagnostics_write_text(diags, 80, 0, collect, &w) == HCLVM_ERR_IO);
  CHECK(w.calls == 2 && strlen(hclvm_last_error()) > 0);
  CHECK(hclvm_diagnostics_write_text(diags, 80, 0, NULL, &w) == HCLVM_ERR_INVALID_ARGUMENT);
  CHECK(hclvm_diagnostics_write_text(NULL, 80, 0, collect, &w) == HCLVM_ERR_INVALID_ARGUMENT);
  free(w.text);
  hclvm_string_free(text);
  hclvm_diagnostics_free(diags);
  free(bytes);
}

static void test_expressions(void) {
  hclvm_context *ctx = NULL;
  hclvm_vm *vm = NULL;
  hclvm_result *res;
  hclvm_diagnostic d;
  hclvm_program *prog = NULL;
  hclvm_diagnostics *diags = NULL;

  OK(hclvm_context_create(NULL, &ctx));
  OK(hclvm_context_set_variables_json(
      ctx, "{\"name\": \"web\", \"n\": 2, \"zones\": [\"a\", \"b\"]}", HCLVM_NUL_TERMINATED));
  OK(hclvm_vm_create(NULL, &vm));

  res = eval_expr(vm, ctx, "upper(name)", HCLVM_OK);
  CHECK(is_string(hclvm_result_value(res), "WEB"));
  CHECK(hclvm_diagnostics_count(hclvm_result_diagnostics(res)) == 0);
  CHECK(hclvm_result_limit(res) == NULL);
  hclvm_result_free(res);

  res = eval_expr(vm, ctx, "[for z in zones : \"${z}-${n}\"]", HCLVM_OK);
  CHECK(
      typed_json_is(hclvm_result_value(res),
                    "{\"value\":[\"a-2\",\"b-2\"],\"type\":[\"tuple\",[\"string\",\"string\"]]}"));
  hclvm_result_free(res);

  /* An unknown variable: the reference's diagnostic, with its range. */
  res = eval_expr(vm, ctx, "nope + 1", HCLVM_ERR_EVAL);
  CHECK(contains(hclvm_last_error(), "Unknown variable"));
  CHECK(hclvm_diagnostics_has_errors(hclvm_result_diagnostics(res)));
  d = first_diag(res);
  CHECK(strcmp(d.summary, "Unknown variable") == 0);
  CHECK(contains(d.detail, "There is no variable named \"nope\""));
  CHECK(d.has_subject && strcmp(d.subject.filename, "<expr>") == 0);
  CHECK(d.subject.start.line == 1 && d.subject.start.column == 1 && d.subject.start.byte == 0);
  CHECK(d.subject.end.column == 5 && d.subject.end.byte == 4);
  CHECK(hclvm_value_kind(hclvm_result_value(res)) == HCLVM_KIND_UNKNOWN);
  hclvm_result_free(res);

  /* No context: no variables at all. */
  res = eval_expr(vm, NULL, "name", HCLVM_ERR_EVAL);
  CHECK(strcmp(first_diag(res).summary, "Variables not allowed") == 0);
  hclvm_result_free(res);

  /* A template. */
  OK(hclvm_compile_template("Hello, ${name}!%{ if n > 1 } (${n})%{ endif }", HCLVM_NUL_TERMINATED,
                            "greeting.tmpl", &prog, &diags));
  CHECK(hclvm_diagnostics_count(diags) == 0);
  hclvm_diagnostics_free(diags);
  OK(hclvm_eval(vm, prog, ctx, &res));
  CHECK(is_string(hclvm_result_value(res), "Hello, web! (2)"));
  hclvm_result_free(res);
  hclvm_program_free(prog);
  CHECK(hclvm_compile_template("${", HCLVM_NUL_TERMINATED, NULL, &prog, NULL) == HCLVM_ERR_PARSE);
  CHECK(prog == NULL);

  /* Bad arguments. */
  CHECK(hclvm_eval(NULL, NULL, ctx, &res) == HCLVM_ERR_INVALID_ARGUMENT && res == NULL);
  CHECK(hclvm_compile_expression(NULL, 0, NULL, &prog, NULL) == HCLVM_ERR_INVALID_ARGUMENT);

  hclvm_vm_free(vm);
  hclvm_context_free(ctx);
}

/* --- values ------------------------------------------------------------------------------ */

static void test_scalars(void) {
  hclvm_value *v = NULL;
  double dbl = 0;
  int64_t i = 0;
  int b = 0;
  const char *data = NULL;
  size_t len = 0;
  char *text = NULL;

  OK(hclvm_value_number(1.5, &v));
  CHECK(hclvm_value_kind(v) == HCLVM_KIND_NUMBER);
  OK(hclvm_value_get_double(v, &dbl));
  CHECK(dbl == 1.5);
  CHECK(hclvm_value_get_int64(v, &i) == HCLVM_ERR_TYPE);
  CHECK(contains(hclvm_last_error(), "1.5"));
  CHECK(hclvm_value_get_string(v, &data, &len) == HCLVM_ERR_TYPE);
  CHECK(data == NULL && len == 0);
  CHECK(hclvm_value_get_bool(v, &b) == HCLVM_ERR_TYPE);
  CHECK(hclvm_value_length(v, &len) == HCLVM_ERR_TYPE);
  OK(hclvm_value_get_number_text(v, &text));
  CHECK(strcmp(text, "1.5") == 0);
  hclvm_string_free(text);
  hclvm_value_free(v);

  CHECK(hclvm_value_number(NAN, &v) == HCLVM_ERR_INVALID_ARGUMENT && v == NULL);
  OK(hclvm_value_number(INFINITY, &v));
  OK(hclvm_value_get_double(v, &dbl));
  CHECK(isinf(dbl) && dbl > 0);
  CHECK(hclvm_value_to_json(v, &text) == HCLVM_ERR_TYPE && text == NULL);
  hclvm_value_free(v);

  OK(hclvm_value_int64(INT64_MIN, &v));
  CHECK(is_int(v, INT64_MIN));
  hclvm_value_free(v);

  OK(hclvm_value_number_from_string("12345678901234567890123", HCLVM_NUL_TERMINATED, &v));
  CHECK(hclvm_value_get_int64(v, &i) == HCLVM_ERR_TYPE);
  OK(hclvm_value_get_number_text(v, &text));
  CHECK(strcmp(text, "12345678901234567890123") == 0);
  hclvm_string_free(text);
  OK(hclvm_value_get_double(v, &dbl));
  CHECK(dbl > 1.2e22 && dbl < 1.3e22);
  hclvm_value_free(v);
  CHECK(hclvm_value_number_from_string("12x", HCLVM_NUL_TERMINATED, &v) ==
        HCLVM_ERR_INVALID_ARGUMENT);
  OK(hclvm_value_number_from_string("42junk", 2, &v));
  CHECK(is_int(v, 42));
  hclvm_value_free(v);

  OK(hclvm_value_bool(7, &v));
  OK(hclvm_value_get_bool(v, &b));
  CHECK(b == 1 && hclvm_value_kind(v) == HCLVM_KIND_BOOL);
  hclvm_value_free(v);

  /* Strings keep NUL bytes, and are NUL-terminated too. */
  OK(hclvm_value_string("a\0b", 3, &v));
  OK(hclvm_value_get_string(v, &data, &len));
  CHECK(len == 3 && data[0] == 'a' && data[1] == '\0' && data[2] == 'b' && data[3] == '\0');
  CHECK(hclvm_value_kind(v) == HCLVM_KIND_STRING);
  hclvm_value_free(v);

  OK(hclvm_value_null("string", &v));
  CHECK(hclvm_value_kind(v) == HCLVM_KIND_NULL && hclvm_value_is_null(v));
  CHECK(hclvm_value_get_string(v, &data, &len) == HCLVM_ERR_TYPE);
  CHECK(contains(hclvm_last_error(), "null"));
  OK(hclvm_value_type_name(v, &text));
  CHECK(strcmp(text, "string") == 0);
  hclvm_string_free(text);
  CHECK(typed_json_is(v, "{\"value\":null,\"type\":\"string\"}"));
  hclvm_value_free(v);

  OK(hclvm_value_unknown("list(number)", &v));
  CHECK(hclvm_value_kind(v) == HCLVM_KIND_UNKNOWN);
  CHECK(!hclvm_value_is_known(v) && !hclvm_value_is_wholly_known(v) && !hclvm_value_is_null(v));
  CHECK(hclvm_value_length(v, &len) == HCLVM_ERR_TYPE);
  CHECK(hclvm_value_to_json(v, &text) == HCLVM_ERR_TYPE);
  CHECK(contains(hclvm_last_error(), "not known"));
  OK(hclvm_value_type_json(v, &text));
  CHECK(strcmp(text, "[\"list\",\"number\"]") == 0);
  hclvm_string_free(text);
  hclvm_value_free(v);

  /* Types in either form; a bad one. */
  OK(hclvm_value_null("[\"map\",\"bool\"]", &v));
  OK(hclvm_value_type_name(v, &text));
  CHECK(strcmp(text, "map of bool") == 0);
  hclvm_string_free(text);
  hclvm_value_free(v);
  OK(hclvm_value_null("\"dynamic\"", &v));
  OK(hclvm_value_type_json(v, &text));
  CHECK(strcmp(text, "\"dynamic\"") == 0);
  hclvm_string_free(text);
  hclvm_value_free(v);
  OK(hclvm_value_null(NULL, &v));
  hclvm_value_free(v);
  CHECK(hclvm_value_null("lisst(string)", &v) == HCLVM_ERR_INVALID_ARGUMENT && v == NULL);
  CHECK(contains(hclvm_last_error(), "lisst"));
  CHECK(hclvm_value_null("[\"list\"", &v) == HCLVM_ERR_INVALID_ARGUMENT);
  hclvm_value_free(NULL);
}

static void test_collections(void) {
  hclvm_value *one = NULL, *two = NULL, *x = NULL, *y = NULL, *t = NULL, *v = NULL, *w = NULL;
  const hclvm_value *e = NULL;
  const char *name = NULL;
  size_t len = 0, name_len = 0;
  char *text = NULL;

  OK(hclvm_value_int64(1, &one));
  OK(hclvm_value_int64(2, &two));
  OK(hclvm_value_string("x", HCLVM_NUL_TERMINATED, &x));
  OK(hclvm_value_string("y", HCLVM_NUL_TERMINATED, &y));
  OK(hclvm_value_bool(1, &t));

  {
    /* A list of unified elements: numbers become strings. */
    const hclvm_value *elems[] = {one, x};
    OK(hclvm_value_list(elems, 2, NULL, &v));
    CHECK(hclvm_value_kind(v) == HCLVM_KIND_LIST);
    OK(hclvm_value_length(v, &len));
    CHECK(len == 2);
    OK(hclvm_value_element(v, 0, &e));
    CHECK(is_string(e, "1"));
    CHECK(hclvm_value_element(v, 2, &e) == HCLVM_ERR_INVALID_ARGUMENT && e == NULL);
    CHECK(hclvm_value_entry(v, 0, &name, NULL, NULL) == HCLVM_ERR_TYPE);
    hclvm_value_free(v);
    /* Not convertible to the element type asked for. */
    CHECK(hclvm_value_list(elems, 2, "number", &v) == HCLVM_ERR_INVALID_ARGUMENT && v == NULL);
    CHECK(contains(hclvm_last_error(), "element 1"));
    /* No common type, or a missing element. */
    {
      const hclvm_value *mixed[] = {one, t};
      const hclvm_value *missing[] = {one, NULL};
      CHECK(hclvm_value_list(mixed, 2, NULL, &v) == HCLVM_ERR_INVALID_ARGUMENT);
      CHECK(contains(hclvm_last_error(), "no type in common"));
      CHECK(hclvm_value_tuple(missing, 2, &v) == HCLVM_ERR_INVALID_ARGUMENT);
    }
  }
  {
    const hclvm_value *elems[] = {one, two, one};
    OK(hclvm_value_list(elems, 3, "string", &v));
    OK(hclvm_value_type_json(v, &text));
    CHECK(strcmp(text, "[\"list\",\"string\"]") == 0);
    hclvm_string_free(text);
    hclvm_value_free(v);
    OK(hclvm_value_set(elems, 3, NULL, &v));
    CHECK(hclvm_value_kind(v) == HCLVM_KIND_SET);
    OK(hclvm_value_length(v, &len));
    CHECK(len == 2);
    OK(hclvm_value_to_json(v, &text));
    CHECK(strcmp(text, "[1,2]") == 0);
    hclvm_string_free(text);
    hclvm_value_free(v);
    OK(hclvm_value_list(NULL, 0, NULL, &v));
    OK(hclvm_value_type_json(v, &text));
    CHECK(strcmp(text, "[\"list\",\"dynamic\"]") == 0);
    hclvm_string_free(text);
    hclvm_value_free(v);
  }
  {
    const hclvm_value *elems[] = {t, x, one};
    OK(hclvm_value_tuple(elems, 3, &v));
    CHECK(hclvm_value_kind(v) == HCLVM_KIND_TUPLE);
    CHECK(typed_json_is(
        v, "{\"value\":[true,\"x\",1],\"type\":[\"tuple\",[\"bool\",\"string\",\"number\"]]}"));
    hclvm_value_free(v);
  }
  {
    const char *keys[] = {"b", "a"};
    const hclvm_value *vals[] = {one, two};
    const char *dup[] = {"a", "a"};
    OK(hclvm_value_map(keys, vals, 2, NULL, &v));
    CHECK(hclvm_value_kind(v) == HCLVM_KIND_MAP);
    OK(hclvm_value_entry(v, 0, &name, &name_len, &e));
    CHECK(strcmp(name, "a") == 0 && name_len == 1 && is_int(e, 2));
    OK(hclvm_value_get(v, "b", &e));
    CHECK(is_int(e, 1));
    CHECK(hclvm_value_get(v, "c", &e) == HCLVM_ERR_NOT_FOUND && e == NULL);
    CHECK(hclvm_value_element(v, 0, &e) == HCLVM_ERR_TYPE);
    hclvm_value_free(v);
    CHECK(hclvm_value_map(dup, vals, 2, NULL, &v) == HCLVM_ERR_INVALID_ARGUMENT);
    CHECK(contains(hclvm_last_error(), "duplicate"));
    OK(hclvm_value_map(keys, vals, 2, "string", &v));
    OK(hclvm_value_to_json(v, &text));
    CHECK(strcmp(text, "{\"a\":\"2\",\"b\":\"1\"}") == 0);
    hclvm_string_free(text);
    hclvm_value_free(v);
  }
  {
    hclvm_value *list = NULL, *back = NULL, *back2 = NULL;
    const hclvm_value *items[] = {x, y};
    const char *names[] = {"name", "count", "tags"};
    const hclvm_value *vals[3];
    const char *dup[] = {"name", "name", "tags"};
    OK(hclvm_value_list(items, 2, NULL, &list));
    vals[0] = x;
    vals[1] = two;
    vals[2] = list;
    OK(hclvm_value_object(names, vals, 3, &v));
    CHECK(hclvm_value_object(dup, vals, 3, &w) == HCLVM_ERR_INVALID_ARGUMENT && w == NULL);
    CHECK(hclvm_value_kind(v) == HCLVM_KIND_OBJECT);
    OK(hclvm_value_length(v, &len));
    CHECK(len == 3);
    /* Attributes in name order. */
    OK(hclvm_value_entry(v, 0, &name, &name_len, &e));
    CHECK(strcmp(name, "count") == 0 && name_len == 5 && is_int(e, 2));
    OK(hclvm_value_entry(v, 2, &name, NULL, &e));
    CHECK(strcmp(name, "tags") == 0 && hclvm_value_kind(e) == HCLVM_KIND_LIST);
    CHECK(hclvm_value_entry(v, 3, &name, NULL, &e) == HCLVM_ERR_INVALID_ARGUMENT);
    OK(hclvm_value_get(v, "tags", &e));
    OK(hclvm_value_element(e, 1, &e));
    CHECK(is_string(e, "y"));
    CHECK(hclvm_value_is_wholly_known(v) && hclvm_value_is_known(v) && !hclvm_value_is_marked(v));
    OK(hclvm_value_to_json(v, &text));
    CHECK(strcmp(text, "{\"count\":2,\"name\":\"x\",\"tags\":[\"x\",\"y\"]}") == 0);
    /* Round trips through JSON: implied types, then exact types. */
    OK(hclvm_value_from_json(text, HCLVM_NUL_TERMINATED, NULL, &back));
    CHECK(!hclvm_value_equal(v, back)); /* tags came back a tuple */
    OK(hclvm_value_get(back, "tags", &e));
    CHECK(hclvm_value_kind(e) == HCLVM_KIND_TUPLE);
    hclvm_value_free(back);
    OK(hclvm_value_from_json(text, HCLVM_NUL_TERMINATED,
                             "object({name = string, count = number, tags = list(string)})",
                             &back));
    CHECK(hclvm_value_equal(v, back));
    hclvm_string_free(text);
    OK(hclvm_value_to_typed_json(v, &text));
    OK(hclvm_value_from_json(text, HCLVM_NUL_TERMINATED, "\"dynamic\"", &back2));
    CHECK(hclvm_value_equal(back, back2));
    hclvm_string_free(text);
    CHECK(hclvm_value_from_json("{\"a\": ", HCLVM_NUL_TERMINATED, NULL, &w) ==
              HCLVM_ERR_INVALID_ARGUMENT &&
          w == NULL);
    CHECK(strlen(hclvm_last_error()) > 0);
    OK(hclvm_value_clone(v, &w));
    CHECK(hclvm_value_equal(v, w));
    hclvm_value_free(w);
    w = NULL;
    hclvm_value_free(back);
    hclvm_value_free(back2);
    hclvm_value_free(list);
    hclvm_value_free(v);
  }
  CHECK(hclvm_value_equal(one, NULL) == 0);
  CHECK(hclvm_value_clone(NULL, &v) == HCLVM_ERR_INVALID_ARGUMENT);
  hclvm_value_free(one);
  hclvm_value_free(two);
  hclvm_value_free(x);
  hclvm_value_free(y);
  hclvm_value_free(t);
}

/* Marked values, from Terraform's sensitive(). */
static void test_marks(void) {
  hclvm_context *ctx = NULL;
  hclvm_vm *vm = NULL;
  hclvm_result *res;
  hclvm_value *plain = NULL;
  const hclvm_value *e = NULL;
  char *text = NULL;
  OK(hclvm_context_create(NULL, &ctx));
  OK(hclvm_vm_create(NULL, &vm));
  res = eval_expr(vm, ctx, "{ secret = sensitive(\"hunter2\"), shown = 1 }", HCLVM_OK);
  CHECK(hclvm_value_is_marked(hclvm_result_value(res)));
  OK(hclvm_value_get(hclvm_result_value(res), "secret", &e));
  CHECK(hclvm_value_is_marked(e));
  CHECK(is_string(e, "hunter2")); /* read through the marks */
  CHECK(hclvm_value_to_json(hclvm_result_value(res), &text) == HCLVM_ERR_TYPE);
  OK(hclvm_value_unmark(hclvm_result_value(res), &plain));
  CHECK(!hclvm_value_is_marked(plain));
  OK(hclvm_value_to_json(plain, &text));
  CHECK(strcmp(text, "{\"secret\":\"hunter2\",\"shown\":1}") == 0);
  hclvm_string_free(text);
  hclvm_value_free(plain);
  CHECK(hclvm_value_unmark(NULL, &plain) == HCLVM_ERR_INVALID_ARGUMENT && plain == NULL);
  hclvm_result_free(res);
  hclvm_vm_free(vm);
  hclvm_context_free(ctx);
}

/* --- contexts -------------------------------------------------------------------------------- */

static void test_contexts(void) {
  hclvm_context *ctx = NULL, *none = NULL, *goc = NULL, *files = NULL;
  hclvm_context_options opts;
  hclvm_vm *vm = NULL;
  hclvm_result *res;
  hclvm_value *v = NULL;
  const hclvm_value *got = NULL;

  hclvm_context_options_default(&opts);
  CHECK(opts.library == HCLVM_FUNCTIONS_STANDARD && opts.base_dir == NULL && opts.impure == 1);
  OK(hclvm_context_create(&opts, &ctx));
  OK(hclvm_vm_create(NULL, &vm));

  OK(hclvm_value_string("web", HCLVM_NUL_TERMINATED, &v));
  OK(hclvm_context_set_variable(ctx, "name", v));
  hclvm_value_free(v); /* the context keeps its own copy */
  OK(hclvm_context_get_variable(ctx, "name", &got));
  CHECK(is_string(got, "web"));
  CHECK(hclvm_context_get_variable(ctx, "other", &got) == HCLVM_ERR_NOT_FOUND && got == NULL);
  CHECK(hclvm_context_set_variable(ctx, "x", NULL) == HCLVM_ERR_INVALID_ARGUMENT);

  /* Bad JSON leaves the context as it was. */
  CHECK(hclvm_context_set_variables_json(ctx, "[1]", HCLVM_NUL_TERMINATED) ==
        HCLVM_ERR_INVALID_ARGUMENT);
  CHECK(contains(hclvm_last_error(), "object"));
  CHECK(hclvm_context_set_variables_json(ctx, "{\"name\": 1, ", HCLVM_NUL_TERMINATED) ==
        HCLVM_ERR_INVALID_ARGUMENT);
  OK(hclvm_context_get_variable(ctx, "name", &got));
  CHECK(is_string(got, "web"));

  /* Functions: the standard library, without one. */
  CHECK(hclvm_context_has_function(ctx, "upper") == 1);
  CHECK(hclvm_context_has_function(ctx, "file") == 0); /* no base directory */
  res = eval_expr(vm, ctx, "coalesce(\"\", \"x\")", HCLVM_OK);
  CHECK(is_string(hclvm_result_value(res), "x")); /* Terraform's coalesce */
  hclvm_result_free(res);
  OK(hclvm_context_remove_function(ctx, "upper"));
  CHECK(hclvm_context_has_function(ctx, "upper") == 0);
  CHECK(hclvm_context_remove_function(ctx, "upper") == HCLVM_ERR_NOT_FOUND);
  res = eval_expr(vm, ctx, "upper(name)", HCLVM_ERR_EVAL);
  CHECK(strcmp(first_diag(res).summary, "Call to unknown function") == 0);
  hclvm_result_free(res);

  /* go-cty's library. */
  opts.library = HCLVM_FUNCTIONS_GO_CTY;
  OK(hclvm_context_create(&opts, &goc));
  res = eval_expr(vm, goc, "coalesce(\"\", \"x\")", HCLVM_OK);
  CHECK(is_string(hclvm_result_value(res), ""));
  hclvm_result_free(res);

  /* No functions at all. */
  opts.library = HCLVM_FUNCTIONS_NONE;
  OK(hclvm_context_create(&opts, &none));
  CHECK(hclvm_context_has_function(none, "upper") == 0);
  res = eval_expr(vm, none, "upper(\"a\")", HCLVM_ERR_EVAL);
  CHECK(strcmp(first_diag(res).summary, "Function calls not allowed") == 0);
  hclvm_result_free(res);
  opts.library = (hclvm_function_library)42;
  CHECK(hclvm_context_create(&opts, &files) == HCLVM_ERR_INVALID_ARGUMENT && files == NULL);

  /* The filesystem functions, under a base directory. */
  hclvm_context_options_default(&opts);
  opts.base_dir = HCLVM_SOURCE_DIR "/examples/eval";
  opts.impure = 0;
  OK(hclvm_context_create(&opts, &files));
  CHECK(hclvm_context_has_function(files, "file") == 1);
  CHECK(hclvm_context_has_function(files, "timestamp") == 0);
  res = eval_expr(vm, files, "jsondecode(file(\"vars.json\")).var_env", HCLVM_OK);
  CHECK(is_string(hclvm_result_value(res), "prod"));
  hclvm_result_free(res);
  res = eval_expr(vm, files, "file(\"../../CMakeLists.txt\")", HCLVM_ERR_EVAL);
  hclvm_result_free(res);

  CHECK(hclvm_context_create(NULL, NULL) == HCLVM_ERR_INVALID_ARGUMENT);
  hclvm_context_free(files);
  hclvm_context_free(none);
  hclvm_context_free(goc);
  hclvm_context_free(ctx);
  hclvm_context_free(NULL);
  hclvm_vm_free(vm);
}

/* --- C functions ------------------------------------------------------------------------------ */

struct counter {
  int calls;
  int freed;
};

static void free_counter(void *user) { ((struct counter *)user)->freed++; }

/* add(a number, b number) number */
static hclvm_status cb_add(void *user, const hclvm_value *const *args, size_t nargs,
                           hclvm_value **result, char **error_message) {
  double a = 0, b = 0;
  (void)error_message;
  ((struct counter *)user)->calls++;
  if (nargs != 2) return HCLVM_ERR_INTERNAL;
  if (hclvm_value_get_double(args[0], &a) != HCLVM_OK) return HCLVM_ERR_INTERNAL;
  if (hclvm_value_get_double(args[1], &b) != HCLVM_OK) return HCLVM_ERR_INTERNAL;
  return hclvm_value_number(a + b, result);
}

/* join(sep string, parts... string) string: the variadic arguments follow. */
static hclvm_status cb_join(void *user, const hclvm_value *const *args, size_t nargs,
                            hclvm_value **result, char **error_message) {
  char buf[256];
  size_t used = 0, i;
  const char *sep, *s;
  size_t seplen, len;
  (void)user;
  (void)error_message;
  if (hclvm_value_get_string(args[0], &sep, &seplen) != HCLVM_OK) return HCLVM_ERR_INTERNAL;
  for (i = 1; i < nargs; ++i) {
    if (hclvm_value_is_null(args[i])) { /* allowed: written as "-" */
      s = "-";
      len = 1;
    } else if (hclvm_value_get_string(args[i], &s, &len) != HCLVM_OK) {
      return HCLVM_ERR_INTERNAL;
    }
    if (used + seplen + len >= sizeof buf) return HCLVM_ERR_INVALID_ARGUMENT;
    if (i > 1) {
      memcpy(buf + used, sep, seplen);
      used += seplen;
    }
    memcpy(buf + used, s, len);
    used += len;
  }
  return hclvm_value_string(buf, used, result);
}

/* fail(message string): fails with [message]. */
static hclvm_status cb_fail(void *user, const hclvm_value *const *args, size_t nargs,
                            hclvm_value **result, char **error_message) {
  const char *s;
  size_t len;
  (void)user;
  (void)nargs;
  (void)result;
  if (hclvm_value_get_string(args[0], &s, &len) == HCLVM_OK && len > 0) {
    *error_message = malloc(len + 1);
    memcpy(*error_message, s, len);
    (*error_message)[len] = '\0';
  }
  return HCLVM_ERR_INVALID_ARGUMENT;
}

/* wrong(): returns a string where a number was promised. */
static hclvm_status cb_wrong(void *user, const hclvm_value *const *args, size_t nargs,
                             hclvm_value **result, char **error_message) {
  (void)user;
  (void)args;
  (void)nargs;
  (void)error_message;
  return hclvm_value_string("not a number", HCLVM_NUL_TERMINATED, result);
}

/* nothing(): succeeds without a result. */
static hclvm_status cb_nothing(void *user, const hclvm_value *const *args, size_t nargs,
                               hclvm_value **result, char **error_message) {
  (void)user;
  (void)args;
  (void)nargs;
  (void)result;
  (void)error_message;
  return HCLVM_OK;
}

/* big(): builds a string of 100 bytes, whatever the limits say. */
static hclvm_status cb_big(void *user, const hclvm_value *const *args, size_t nargs,
                           hclvm_value **result, char **error_message) {
  char buf[100];
  hclvm_status s;
  (void)args;
  (void)nargs;
  (void)error_message;
  memset(buf, 'x', sizeof buf);
  s = hclvm_value_string(buf, sizeof buf, result);
  ((struct counter *)user)->calls += s == HCLVM_ERR_LIMIT ? 100 : 1;
  return s;
}

static void test_functions(void) {
  hclvm_context *ctx = NULL;
  hclvm_vm *vm = NULL;
  hclvm_result *res;
  hclvm_diagnostic d;
  struct counter add_count = {0, 0}, big_count = {0, 0};
  hclvm_param num[2] = {{"a", "number", 0, 0}, {"b", "\"number\"", 0, 0}};
  hclvm_param sep = {"sep", "string", 0, 0};
  hclvm_param parts = {"parts", "string", 1, 0};
  hclvm_param msg = {"message", "string", 0, 0};
  hclvm_param bad = {"x", "lisst(", 0, 0};
  hclvm_function_def def;
  hclvm_limits limits;

  OK(hclvm_context_create(NULL, &ctx));
  OK(hclvm_context_set_variables_json(ctx, "{\"n\": 40}", HCLVM_NUL_TERMINATED));
  OK(hclvm_vm_create(NULL, &vm));

  memset(&def, 0, sizeof def);
  def.params = num;
  def.nparams = 2;
  def.return_type = "number";
  def.callback = cb_add;
  def.user_data = &add_count;
  def.free_user_data = free_counter;
  def.description = "Adds two numbers.";
  OK(hclvm_context_add_function(ctx, "add", &def));
  CHECK(hclvm_context_has_function(ctx, "add"));
  CHECK(hclvm_context_has_function(ctx, "upper")); /* the library is still there */

  res = eval_expr(vm, ctx, "add(n, \"2\")", HCLVM_OK); /* "2" converted to a number */
  CHECK(is_int(hclvm_result_value(res), 42));
  CHECK(add_count.calls == 1);
  hclvm_result_free(res);
  res = eval_expr(vm, ctx, "[for i in [1, 2, 3] : add(i, i)]", HCLVM_OK);
  CHECK(
      typed_json_is(hclvm_result_value(res),
                    "{\"value\":[2,4,6],\"type\":[\"tuple\",[\"number\",\"number\",\"number\"]]}"));
  CHECK(add_count.calls == 4);
  hclvm_result_free(res);

  /* Argument checks happen before the call: no call is made. */
  res = eval_expr(vm, ctx, "add(1)", HCLVM_ERR_EVAL);
  CHECK(strcmp(first_diag(res).summary, "Not enough function arguments") == 0);
  hclvm_result_free(res);
  res = eval_expr(vm, ctx, "add(1, \"x\")", HCLVM_ERR_EVAL);
  d = first_diag(res);
  CHECK(strcmp(d.summary, "Invalid function argument") == 0);
  CHECK(contains(d.detail, "\"b\" parameter"));
  hclvm_result_free(res);
  res = eval_expr(vm, ctx, "add(1, null)", HCLVM_ERR_EVAL);
  CHECK(contains(first_diag(res).detail, "must not be null"));
  hclvm_result_free(res);
  /* An unknown argument: an unknown result, without a call. */
  {
    hclvm_value *u = NULL;
    OK(hclvm_value_unknown("number", &u));
    OK(hclvm_context_set_variable(ctx, "later", u));
    hclvm_value_free(u);
  }
  res = eval_expr(vm, ctx, "add(later, 1)", HCLVM_OK);
  CHECK(hclvm_value_kind(hclvm_result_value(res)) == HCLVM_KIND_UNKNOWN);
  hclvm_result_free(res);
  CHECK(add_count.calls == 4);

  /* Variadic, with nulls allowed there. */
  memset(&def, 0, sizeof def);
  def.params = &sep;
  def.nparams = 1;
  def.variadic = &parts;
  def.return_type = NULL;
  def.callback = cb_join;
  OK(hclvm_context_add_function(ctx, "join_all", &def));
  res = eval_expr(vm, ctx, "join_all(\"/\", \"a\", null, n)", HCLVM_OK);
  CHECK(is_string(hclvm_result_value(res), "a/-/40"));
  hclvm_result_free(res);
  res = eval_expr(vm, ctx, "join_all(\", \")", HCLVM_OK);
  CHECK(is_string(hclvm_result_value(res), ""));
  hclvm_result_free(res);

  /* A failing callback: the reference's "Error in function call". */
  memset(&def, 0, sizeof def);
  def.params = &msg;
  def.nparams = 1;
  def.return_type = "string";
  def.callback = cb_fail;
  OK(hclvm_context_add_function(ctx, "fail", &def));
  res = eval_expr(vm, ctx, "fail(\"boom\")", HCLVM_ERR_EVAL);
  d = first_diag(res);
  CHECK(strcmp(d.summary, "Error in function call") == 0);
  CHECK(strcmp(d.detail, "Call to function \"fail\" failed: boom.") == 0);
  CHECK(d.has_subject && d.subject.start.column == 1 && d.subject.end.column == 6); /* fail( */
  CHECK(d.has_context && d.context.start.column == 1 && d.context.end.column == 13);
  hclvm_result_free(res);
  res = eval_expr(vm, ctx, "fail(\"\")", HCLVM_ERR_EVAL);
  CHECK(contains(first_diag(res).detail, "the function failed (invalid argument)"));
  hclvm_result_free(res);
  /* try() sees a failing callback as any failing expression. */
  res = eval_expr(vm, ctx, "try(fail(\"boom\"), \"fallback\")", HCLVM_OK);
  CHECK(is_string(hclvm_result_value(res), "fallback"));
  hclvm_result_free(res);

  /* Results that do not keep the promise. */
  memset(&def, 0, sizeof def);
  def.return_type = "number";
  def.callback = cb_wrong;
  OK(hclvm_context_add_function(ctx, "wrong", &def));
  def.callback = cb_nothing;
  OK(hclvm_context_add_function(ctx, "nothing", &def));
  res = eval_expr(vm, ctx, "wrong()", HCLVM_ERR_EVAL);
  CHECK(contains(first_diag(res).detail, "the function returned an invalid value"));
  hclvm_result_free(res);
  res = eval_expr(vm, ctx, "nothing()", HCLVM_ERR_EVAL);
  CHECK(contains(first_diag(res).detail, "returned no value"));
  hclvm_result_free(res);

  /* Bad definitions change nothing and leave the host's data alone. */
  memset(&def, 0, sizeof def);
  def.params = &bad;
  def.nparams = 1;
  def.callback = cb_add;
  def.user_data = &add_count;
  def.free_user_data = free_counter;
  CHECK(hclvm_context_add_function(ctx, "bad", &def) == HCLVM_ERR_INVALID_ARGUMENT);
  CHECK(contains(hclvm_last_error(), "parameter x"));
  def.params = num;
  def.return_type = "strin g";
  CHECK(hclvm_context_add_function(ctx, "bad", &def) == HCLVM_ERR_INVALID_ARGUMENT);
  def.return_type = NULL;
  def.callback = NULL;
  CHECK(hclvm_context_add_function(ctx, "bad", &def) == HCLVM_ERR_INVALID_ARGUMENT);
  CHECK(hclvm_context_has_function(ctx, "bad") == 0);
  CHECK(add_count.freed == 0);

  /* A limit that a callback runs into through the library ends the run. */
  memset(&def, 0, sizeof def);
  def.callback = cb_big;
  def.user_data = &big_count;
  def.free_user_data = free_counter;
  OK(hclvm_context_add_function(ctx, "big", &def));
  res = eval_expr(vm, ctx, "length(big())", HCLVM_OK);
  CHECK(is_int(hclvm_result_value(res), 100));
  hclvm_result_free(res);
  CHECK(big_count.calls == 1);
  hclvm_limits_default(&limits);
  limits.max_string_bytes = 10;
  OK(hclvm_vm_set_limits(vm, &limits));
  res = eval_expr(vm, ctx, "try(big(), \"caught\")", HCLVM_ERR_LIMIT);
  CHECK(big_count.calls == 101);
  CHECK(strcmp(hclvm_result_limit(res), "string_size") == 0);
  hclvm_result_free(res);
  hclvm_limits_default(&limits);
  OK(hclvm_vm_set_limits(vm, &limits));

  /* Replacing a function releases the old one's data. */
  memset(&def, 0, sizeof def);
  def.callback = cb_nothing;
  OK(hclvm_context_add_function(ctx, "big", &def));
  CHECK(big_count.freed == 1);
  hclvm_context_free(ctx);
  CHECK(add_count.freed == 1);
  CHECK(hclvm_context_remove_function(NULL, "x") == HCLVM_ERR_INVALID_ARGUMENT);
  CHECK(hclvm_context_add_function(NULL, "x", &def) == HCLVM_ERR_INVALID_ARGUMENT);
  hclvm_vm_free(vm);
}

/* --- limits and cancelling -----------------------------------------------------------------------
 */

static void test_limits(void) {
  hclvm_limits limits, back;
  hclvm_vm *vm = NULL;
  hclvm_result *res;
  hclvm_stats stats;
  hclvm_cancel *cancel = NULL;
  hclvm_diagnostic d;
  char *text = NULL;
  hclvm_context *ctx = NULL;

  hclvm_limits_default(&limits);
  CHECK(limits.max_steps == 10000000 && limits.max_memory == 256u << 20);
  CHECK(limits.max_string_bytes == 16u << 20 && limits.max_collection_size == 1000000);
  CHECK(limits.max_depth == 128 && limits.timeout_ms == 10000 && limits.cancel == NULL);
  hclvm_limits_none(&limits);
  CHECK(limits.max_steps == UINT64_MAX && limits.max_depth == UINT32_MAX && limits.timeout_ms == 0);

  OK(hclvm_context_create(NULL, &ctx));
  hclvm_limits_default(&limits);
  limits.max_steps = 10;
  OK(hclvm_vm_create(&limits, &vm));
  OK(hclvm_vm_get_limits(vm, &back));
  CHECK(back.max_steps == 10 && back.timeout_ms == 10000);
  res = eval_expr(vm, ctx, "[for i in range(1000) : i * 2]", HCLVM_ERR_LIMIT);
  CHECK(contains(hclvm_last_error(), "Evaluation step limit exceeded"));
  CHECK(strcmp(hclvm_result_limit(res), "steps") == 0);
  CHECK(hclvm_value_kind(hclvm_result_value(res)) == HCLVM_KIND_UNKNOWN);
  d = first_diag(res);
  CHECK(strcmp(d.summary, "Evaluation step limit exceeded") == 0);
  CHECK(d.has_subject);
  OK(hclvm_diagnostics_text(hclvm_result_diagnostics(res), 0, 0, &text));
  CHECK(contains(text, "Error: Evaluation step limit exceeded"));
  hclvm_string_free(text);
  OK(hclvm_vm_stats(vm, &stats));
  CHECK(stats.limit_hit == 1 && strcmp(stats.limit, "steps") == 0 && stats.steps <= 11);
  hclvm_result_free(res);
  /* The vm is reusable, and try() does not catch a limit. */
  res = eval_expr(vm, ctx, "[for i in range(3) : i]", HCLVM_OK);
  OK(hclvm_vm_stats(vm, &stats));
  CHECK(stats.limit_hit == 0 && stats.limit == NULL && stats.steps >= 3 && stats.memory > 0);
  hclvm_result_free(res);
  res = eval_expr(vm, ctx, "try([for i in range(100) : i], 0)", HCLVM_ERR_LIMIT);
  hclvm_result_free(res);

  /* Memory and collection sizes. */
  hclvm_limits_default(&limits);
  limits.max_collection_size = 5;
  OK(hclvm_vm_set_limits(vm, &limits));
  res = eval_expr(vm, ctx, "range(10)", HCLVM_ERR_LIMIT);
  CHECK(strcmp(hclvm_result_limit(res), "collection_size") == 0);
  hclvm_result_free(res);
  hclvm_limits_default(&limits);
  limits.max_memory = 1000;
  OK(hclvm_vm_set_limits(vm, &limits));
  res = eval_expr(vm, ctx, "[for i in range(1000) : \"item ${i}\"]", HCLVM_ERR_LIMIT);
  CHECK(strcmp(hclvm_result_limit(res), "memory") == 0);
  hclvm_result_free(res);

  /* A cancel flag. */
  OK(hclvm_cancel_create(&cancel));
  CHECK(hclvm_cancel_is_set(cancel) == 0);
  hclvm_limits_default(&limits);
  limits.cancel = cancel;
  OK(hclvm_vm_set_limits(vm, &limits));
  res = eval_expr(vm, ctx, "length([for i in range(1000) : [for j in range(10) : j]])", HCLVM_OK);
  CHECK(is_int(hclvm_result_value(res), 1000));
  hclvm_result_free(res);
  hclvm_cancel_set(cancel);
  CHECK(hclvm_cancel_is_set(cancel) == 1);
  res = eval_expr(vm, ctx, "length([for i in range(1000) : [for j in range(10) : j]])",
                  HCLVM_ERR_LIMIT);
  CHECK(strcmp(hclvm_result_limit(res), "cancelled") == 0);
  CHECK(strcmp(first_diag(res).summary, "Evaluation cancelled") == 0);
  hclvm_result_free(res);
  hclvm_cancel_reset(cancel);
  CHECK(hclvm_cancel_is_set(cancel) == 0);
  res = eval_expr(vm, ctx, "length([for i in range(1000) : [for j in range(10) : j]])", HCLVM_OK);
  hclvm_result_free(res);
  OK(hclvm_vm_get_limits(vm, &back));
  CHECK(back.cancel == cancel);

  /* A result's JSON text within limits: a number of 10^8 digits read from a
   * request is small in memory and not as text. */
  {
    hclvm_value *big = NULL, *small = NULL;
    OK(hclvm_value_from_json("1e100000000", HCLVM_NUL_TERMINATED, NULL, &big));
    OK(hclvm_value_from_json("[1.5, \"a\"]", HCLVM_NUL_TERMINATED, NULL, &small));
    hclvm_limits_default(&limits);
    limits.max_memory = 1000000;
    text = NULL;
    CHECK(hclvm_value_to_json_within(big, &limits, &text) == HCLVM_ERR_LIMIT && text == NULL);
    CHECK(contains(hclvm_last_error(), "the JSON text would take more than 1000000 bytes"));
    OK(hclvm_value_to_json_within(small, &limits, &text));
    CHECK(strcmp(text, "[1.5,\"a\"]") == 0);
    hclvm_string_free(text);
    OK(hclvm_value_to_json_within(small, NULL, &text)); /* the defaults */
    CHECK(strcmp(text, "[1.5,\"a\"]") == 0);
    hclvm_string_free(text);
    CHECK(hclvm_value_to_json_within(NULL, &limits, &text) == HCLVM_ERR_INVALID_ARGUMENT);
    hclvm_value_free(big);
    hclvm_value_free(small);
  }

  CHECK(hclvm_vm_set_limits(vm, NULL) == HCLVM_ERR_INVALID_ARGUMENT);
  CHECK(hclvm_vm_stats(NULL, &stats) == HCLVM_ERR_INVALID_ARGUMENT);
  CHECK(hclvm_vm_create(NULL, NULL) == HCLVM_ERR_INVALID_ARGUMENT);
  CHECK(hclvm_cancel_create(NULL) == HCLVM_ERR_INVALID_ARGUMENT);
  hclvm_vm_free(vm);
  hclvm_vm_free(NULL);
  hclvm_context_free(ctx);
  hclvm_cancel_free(cancel);
  hclvm_cancel_free(NULL);
  hclvm_cancel_set(NULL);
}

/* --- files
 * ---------------------------------------------------------------------------------------- */

static const char kConfig[] =
    "# A service.\n"
    "name = \"svc-${env}\"\n"
    "port = 8000 + offset\n"
    "service \"api\" \"v1\" {\n"
    "  replicas = env == \"prod\" ? 3 : 1\n"
    "  broken   = env + 1\n"
    "  limits {\n"
    "    cpu = 2\n"
    "  }\n"
    "}\n";

static void test_files(void) {
  hclvm_program *prog = NULL;
  hclvm_diagnostics *diags = NULL;
  hclvm_context *ctx = NULL;
  hclvm_vm *vm = NULL;
  hclvm_result *res = NULL;
  const hclvm_body *root, *svc, *lim;
  const hclvm_value *e = NULL;
  hclvm_diagnostic d;
  char *text = NULL;

  OK(hclvm_context_create(NULL, &ctx));
  OK(hclvm_context_set_variables_json(ctx, "{\"env\": \"prod\", \"offset\": 80}",
                                      HCLVM_NUL_TERMINATED));
  OK(hclvm_vm_create(NULL, &vm));

  OK(hclvm_compile_file("main.tf", kConfig, HCLVM_NUL_TERMINATED, HCLVM_SYNTAX_AUTO, &prog,
                        &diags));
  CHECK(hclvm_diagnostics_count(diags) == 0);
  hclvm_diagnostics_free(diags);
  CHECK(hclvm_program_kind_of(prog) == HCLVM_PROGRAM_FILE);
  root = hclvm_program_body(prog);
  CHECK(root != NULL);
  CHECK(hclvm_body_attribute_count(root) == 2);
  CHECK(strcmp(hclvm_body_attribute_name(root, 0), "name") == 0);
  CHECK(strcmp(hclvm_body_attribute_name(root, 1), "port") == 0);
  CHECK(hclvm_body_attribute_name(root, 2) == NULL);
  CHECK(hclvm_body_block_count(root) == 1);
  CHECK(strcmp(hclvm_body_block_type(root, 0), "service") == 0);
  CHECK(hclvm_body_block_type(root, 1) == NULL);
  CHECK(hclvm_body_block_label_count(root, 0) == 2);
  CHECK(strcmp(hclvm_body_block_label(root, 0, 0), "api") == 0);
  CHECK(strcmp(hclvm_body_block_label(root, 0, 1), "v1") == 0);
  CHECK(hclvm_body_block_label(root, 0, 2) == NULL);
  CHECK(hclvm_body_block_label_count(root, 5) == 0);
  svc = hclvm_body_block_body(root, 0);
  CHECK(svc != NULL && hclvm_body_block_body(root, 1) == NULL);
  CHECK(hclvm_body_attribute_count(svc) == 2 && hclvm_body_block_count(svc) == 1);
  lim = hclvm_body_block_body(svc, 0);
  CHECK(strcmp(hclvm_body_block_type(svc, 0), "limits") == 0);
  CHECK(hclvm_body_block_label_count(svc, 0) == 0);
  CHECK(hclvm_body_attribute_count(NULL) == 0 && hclvm_body_block_count(NULL) == 0);

  /* The top-level attributes, as one object. */
  OK(hclvm_eval(vm, prog, ctx, &res));
  CHECK(typed_json_is(hclvm_result_value(res),
                      "{\"value\":{\"name\":\"svc-prod\",\"port\":8080},\"type\":[\"object\",{"
                      "\"name\":\"string\",\"port\":\"number\"}]}"));
  hclvm_result_free(res);

  /* A block's body: one attribute fails, with the block as its context. */
  CHECK(hclvm_eval_body(vm, svc, ctx, &res) == HCLVM_ERR_EVAL);
  CHECK(res != NULL);
  OK(hclvm_value_get(hclvm_result_value(res), "replicas", &e));
  CHECK(is_int(e, 3));
  OK(hclvm_value_get(hclvm_result_value(res), "broken", &e));
  CHECK(hclvm_value_kind(e) == HCLVM_KIND_UNKNOWN);
  d = first_diag(res);
  CHECK(strcmp(d.summary, "Invalid operand") == 0);
  CHECK(strcmp(d.subject.filename, "main.tf") == 0 && d.subject.start.line == 6);
  OK(hclvm_diagnostics_text(hclvm_result_diagnostics(res), 0, 0, &text));
  CHECK(contains(text, "on main.tf line 6, in service \"api\" \"v1\":"));
  CHECK(contains(text, "broken   = env + 1"));
  hclvm_string_free(text);
  hclvm_result_free(res);

  OK(hclvm_eval_body(vm, lim, ctx, &res));
  CHECK(typed_json_is(hclvm_result_value(res),
                      "{\"value\":{\"cpu\":2},\"type\":[\"object\",{\"cpu\":\"number\"}]}"));
  hclvm_result_free(res);

  OK(hclvm_eval_attribute(vm, svc, "replicas", ctx, &res));
  CHECK(is_int(hclvm_result_value(res), 3));
  hclvm_result_free(res);
  CHECK(hclvm_eval_attribute(vm, svc, "nope", ctx, &res) == HCLVM_ERR_NOT_FOUND && res == NULL);
  CHECK(hclvm_eval_attribute(vm, root, "port", NULL, &res) == HCLVM_ERR_EVAL);
  CHECK(strcmp(first_diag(res).summary, "Variables not allowed") == 0);
  hclvm_result_free(res);
  CHECK(hclvm_eval_body(vm, NULL, ctx, &res) == HCLVM_ERR_INVALID_ARGUMENT);
  hclvm_program_free(prog);

  /* A file with a limit hit stops there. */
  {
    hclvm_limits limits;
    hclvm_vm *small = NULL;
    hclvm_limits_default(&limits);
    limits.max_steps = 5;
    OK(hclvm_vm_create(&limits, &small));
    OK(hclvm_compile_file("loop.hcl",
                          "a = 1\nb = [for i in [1, 2, 3, 4, 5, 6, 7, 8] : i + offset]\nc = 3\n",
                          HCLVM_NUL_TERMINATED, HCLVM_SYNTAX_NATIVE, &prog, NULL));
    CHECK(hclvm_eval(small, prog, ctx, &res) == HCLVM_ERR_LIMIT);
    CHECK(strcmp(hclvm_result_limit(res), "steps") == 0);
    CHECK(hclvm_value_kind(hclvm_result_value(res)) == HCLVM_KIND_UNKNOWN);
    CHECK(hclvm_diagnostics_count(hclvm_result_diagnostics(res)) == 1);
    hclvm_result_free(res);
    hclvm_program_free(prog);
    /* The same in the JSON syntax, where the loop is in a template. */
    OK(hclvm_compile_file(
        "loop.tf.json",
        "{\"a\": 1, \"b\": \"${[for i in [1, 2, 3, 4, 5, 6, 7, 8] : i + offset]}\"}",
        HCLVM_NUL_TERMINATED, HCLVM_SYNTAX_AUTO, &prog, NULL));
    CHECK(hclvm_eval(small, prog, ctx, &res) == HCLVM_ERR_LIMIT);
    CHECK(strcmp(hclvm_result_limit(res), "steps") == 0);
    hclvm_result_free(res);
    OK(hclvm_eval_attribute(small, hclvm_program_body(prog), "a", ctx, &res));
    CHECK(is_int(hclvm_result_value(res), 1));
    hclvm_result_free(res);
    hclvm_program_free(prog);
    hclvm_vm_free(small);
  }

  /* The JSON syntax, chosen by the name. */
  OK(hclvm_compile_file("main.tf.json", "{\"name\": \"svc-${env}\", \"ports\": [80, 443]}",
                        HCLVM_NUL_TERMINATED, HCLVM_SYNTAX_AUTO, &prog, NULL));
  root = hclvm_program_body(prog);
  CHECK(hclvm_body_attribute_count(root) == 2 && hclvm_body_block_count(root) == 0);
  OK(hclvm_eval(vm, prog, ctx, &res));
  CHECK(typed_json_is(hclvm_result_value(res),
                      "{\"value\":{\"name\":\"svc-prod\",\"ports\":[80,443]},\"type\":[\"object\",{"
                      "\"name\":\"string\",\"ports\":[\"tuple\",[\"number\",\"number\"]]}]}"));
  hclvm_result_free(res);
  hclvm_program_free(prog);
  /* ... or forced. */
  CHECK(hclvm_compile_file("main.tf", "{\"a\": 1}", HCLVM_NUL_TERMINATED, HCLVM_SYNTAX_NATIVE,
                           &prog, NULL) == HCLVM_ERR_PARSE);
  OK(hclvm_compile_file("main.tf", "{\"a\": 1}", HCLVM_NUL_TERMINATED, HCLVM_SYNTAX_JSON, &prog,
                        NULL));
  hclvm_program_free(prog);
  CHECK(hclvm_compile_file("bad.tf.json", "{\"a\": ", HCLVM_NUL_TERMINATED, HCLVM_SYNTAX_AUTO,
                           &prog, &diags) == HCLVM_ERR_PARSE);
  CHECK(prog == NULL && hclvm_diagnostics_has_errors(diags));
  hclvm_diagnostics_free(diags);

  /* Syntax errors: no program, the diagnostics. */
  CHECK(hclvm_compile_file("bad.tf", "a = \nb = 2\n", HCLVM_NUL_TERMINATED, HCLVM_SYNTAX_AUTO,
                           &prog, &diags) == HCLVM_ERR_PARSE);
  CHECK(prog == NULL);
  OK(hclvm_diagnostics_get(diags, 0, &d));
  CHECK(d.severity == HCLVM_SEVERITY_ERROR && strcmp(d.subject.filename, "bad.tf") == 0);
  CHECK(d.subject.start.line == 1);
  hclvm_diagnostics_free(diags);
  CHECK(hclvm_compile_file(NULL, "", 0, HCLVM_SYNTAX_AUTO, &prog, NULL) ==
        HCLVM_ERR_INVALID_ARGUMENT);

  /* From a path. */
  OK(hclvm_compile_file_path(HCLVM_SOURCE_DIR "/examples/eval/app.tf", HCLVM_SYNTAX_AUTO, &prog,
                             NULL));
  {
    hclvm_context *vars = NULL;
    hclvm_program *json_prog = NULL;
    hclvm_result *json_res = NULL;
    OK(hclvm_context_create(NULL, &vars));
    OK(hclvm_context_set_variables_json(vars,
                                        "{\"var_env\": \"prod\", \"zones\": [\"z1\", \"z2\"], "
                                        "\"base_ports\": [80], \"port_offset\": 1, "
                                        "\"default_tags\": {}, \"team\": \"t\", "
                                        "\"interval_seconds\": 5}",
                                        HCLVM_NUL_TERMINATED));
    OK(hclvm_eval(vm, prog, vars, &res));
    OK(hclvm_value_get(hclvm_result_value(res), "name", &e));
    CHECK(is_string(e, "prod-web"));
    /* The same configuration in the JSON syntax gives the same values. */
    OK(hclvm_compile_file_path(HCLVM_SOURCE_DIR "/examples/eval/app.tf.json", HCLVM_SYNTAX_AUTO,
                               &json_prog, NULL));
    OK(hclvm_eval(vm, json_prog, vars, &json_res));
    CHECK(hclvm_value_equal(hclvm_result_value(res), hclvm_result_value(json_res)));
    hclvm_result_free(json_res);
    hclvm_program_free(json_prog);
    hclvm_result_free(res);
    hclvm_context_free(vars);
  }
  hclvm_program_free(prog);
  CHECK(hclvm_compile_file_path("no/such/file.tf", HCLVM_SYNTAX_AUTO, &prog, &diags) ==
        HCLVM_ERR_IO);
  CHECK(prog == NULL && diags == NULL);
  CHECK(contains(hclvm_last_error(), "no/such/file.tf"));

  hclvm_vm_free(vm);
  hclvm_context_free(ctx);
}

/* --- the cache
 * ------------------------------------------------------------------------------------- */

static void test_cache(void) {
  hclvm_cache *cache = NULL;
  hclvm_program *prog = NULL;
  hclvm_diagnostics *diags = NULL;
  hclvm_cache_outcome outcome = HCLVM_CACHE_NOT_CACHED;
  hclvm_vm *vm = NULL;
  hclvm_result *res = NULL;
  size_t removed = 99;
  const char *src = "a = 1 + 2\nb { c = \"x\" }\n";

  OK(hclvm_cache_open("capi-test-cache", 0, &cache));
  CHECK(strcmp(hclvm_cache_dir(cache), "capi-test-cache") == 0);
  OK(hclvm_cache_clear(cache, NULL));
  OK(hclvm_vm_create(NULL, &vm));

  OK(hclvm_cache_load(cache, "cached.hcl", src, HCLVM_NUL_TERMINATED, HCLVM_SYNTAX_AUTO, &prog,
                      &diags, &outcome));
  CHECK(outcome == HCLVM_CACHE_MISS);
  CHECK(hclvm_diagnostics_count(diags) == 0);
  hclvm_diagnostics_free(diags);
  hclvm_program_free(prog);
  OK(hclvm_cache_load(cache, "cached.hcl", src, HCLVM_NUL_TERMINATED, HCLVM_SYNTAX_AUTO, &prog,
                      NULL, &outcome));
  CHECK(outcome == HCLVM_CACHE_HIT);
  CHECK(hclvm_body_block_count(hclvm_program_body(prog)) == 1);
  OK(hclvm_eval(vm, prog, NULL, &res));
  CHECK(typed_json_is(hclvm_result_value(res),
                      "{\"value\":{\"a\":3},\"type\":[\"object\",{\"a\":\"number\"}]}"));
  hclvm_result_free(res);
  OK(hclvm_eval_attribute(vm, hclvm_body_block_body(hclvm_program_body(prog), 0), "c", NULL, &res));
  CHECK(is_string(hclvm_result_value(res), "x"));
  hclvm_result_free(res);
  hclvm_program_free(prog);

  /* Errors come back from the cache as they went in. */
  CHECK(hclvm_cache_load(cache, "broken.hcl", "a = (", HCLVM_NUL_TERMINATED, HCLVM_SYNTAX_AUTO,
                         &prog, &diags, NULL) == HCLVM_ERR_PARSE);
  CHECK(prog == NULL && hclvm_diagnostics_has_errors(diags));
  hclvm_diagnostics_free(diags);

  OK(hclvm_cache_load_path(cache, HCLVM_SOURCE_DIR "/examples/eval/app.tf", HCLVM_SYNTAX_AUTO,
                           &prog, NULL, &outcome));
  CHECK(outcome == HCLVM_CACHE_MISS);
  hclvm_program_free(prog);
  OK(hclvm_cache_load_path(cache, HCLVM_SOURCE_DIR "/examples/eval/app.tf", HCLVM_SYNTAX_AUTO,
                           &prog, NULL, &outcome));
  CHECK(outcome == HCLVM_CACHE_HIT);
  CHECK(hclvm_body_attribute_count(hclvm_program_body(prog)) == 4);
  hclvm_program_free(prog);
  CHECK(hclvm_cache_load_path(cache, "no/such/file.tf", HCLVM_SYNTAX_AUTO, &prog, NULL, &outcome) ==
        HCLVM_ERR_IO);

  OK(hclvm_cache_clear(cache, &removed));
  CHECK(removed >= 2);
  CHECK(hclvm_cache_load(NULL, "x", "", 0, HCLVM_SYNTAX_AUTO, &prog, NULL, NULL) ==
        HCLVM_ERR_INVALID_ARGUMENT);
  CHECK(hclvm_cache_open(NULL, 0, NULL) == HCLVM_ERR_INVALID_ARGUMENT);
  hclvm_cache_free(cache);
  hclvm_cache_free(NULL);
  hclvm_vm_free(vm);
}

/* --- threads
 * ---------------------------------------------------------------------------------------- */

struct shared {
  const hclvm_program *prog;
  const hclvm_context *ctx;
  int ok;
};

/* Evaluates the shared program with a vm of its own, many times. */
static void *worker(void *arg) {
  struct shared *s = arg;
  hclvm_vm *vm = NULL;
  int i;
  s->ok = hclvm_vm_create(NULL, &vm) == HCLVM_OK;
  for (i = 0; s->ok && i < 200; ++i) {
    hclvm_result *res = NULL;
    s->ok =
        hclvm_eval(vm, s->prog, s->ctx, &res) == HCLVM_OK && is_int(hclvm_result_value(res), 4950);
    hclvm_result_free(res);
  }
  hclvm_vm_free(vm);
  return NULL;
}

static void test_threads(void) {
  hclvm_program *prog = expr("sum([for i in range(n) : i])");
  hclvm_context *ctx = NULL;
  pthread_t threads[4];
  struct shared shared[4];
  int i;
  OK(hclvm_context_create(NULL, &ctx));
  OK(hclvm_context_set_variables_json(ctx, "{\"n\": 100}", HCLVM_NUL_TERMINATED));
  for (i = 0; i < 4; ++i) {
    shared[i].prog = prog;
    shared[i].ctx = ctx;
    shared[i].ok = 0;
    CHECK(pthread_create(&threads[i], NULL, worker, &shared[i]) == 0);
  }
  for (i = 0; i < 4; ++i) {
    CHECK(pthread_join(threads[i], NULL) == 0);
    CHECK(shared[i].ok);
  }
  hclvm_context_free(ctx);
  hclvm_program_free(prog);
}

/* Writes [text] to the file [path], or fails the test. */
static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL);
  CHECK(fputs(text, f) >= 0);
  CHECK(fclose(f) == 0);
}

/* A module evaluated with different inputs: variables as -var text and as
 * values, a supplied resource value, outputs, locals, the JSON document,
 * an expression in the module's scope, and Terraform's diagnostics. */
static void test_modules(void) {
  hclvm_module *module = NULL;
  hclvm_diagnostics *diags = NULL;
  hclvm_module_inputs *in = NULL;
  hclvm_evaluation *ev = NULL;
  hclvm_value *v = NULL;
  hclvm_result *res = NULL;
  char *text = NULL;
  const char *s = NULL;
  size_t n = 0;
  CHECK(system("mkdir -p capi_module && rm -f capi_module/*.tf") == 0);
  write_file("capi_module/main.tf",
             "variable \"env\" {\n  type = string\n}\n"
             "variable \"n\" {\n  type    = number\n  default = 1\n}\n"
             "locals {\n  name = \"app-${var.env}-${var.n}\"\n  vpc = aws_vpc.main.id\n}\n"
             "resource \"aws_vpc\" \"main\" {\n  cidr_block = \"10.0.0.0/16\"\n}\n"
             "output \"name\" {\n  value = local.name\n}\n");
  OK(hclvm_module_load("capi_module", NULL, &module, &diags));
  CHECK(hclvm_diagnostics_count(diags) == 0);
  hclvm_diagnostics_free(diags);

  OK(hclvm_module_inputs_create(&in));
  OK(hclvm_module_inputs_set_auto_var_files(in, 0, NULL));
  OK(hclvm_module_inputs_add_var(in, "env=prod"));
  OK(hclvm_value_int64(3, &v));
  OK(hclvm_module_inputs_set_variable(in, "n", v));
  hclvm_value_free(v);
  OK(hclvm_value_from_json("{\"id\": \"vpc-123\"}", HCLVM_NUL_TERMINATED, NULL, &v));
  OK(hclvm_module_inputs_set_resource(in, "aws_vpc.main", v));
  hclvm_value_free(v);
  OK(hclvm_module_evaluate(module, in, NULL, &ev));
  OK(hclvm_evaluation_output(ev, "name", &v));
  CHECK(is_string(v, "app-prod-3"));
  hclvm_value_free(v);
  OK(hclvm_evaluation_local(ev, "vpc", &v));
  CHECK(is_string(v, "vpc-123"));
  hclvm_value_free(v);
  OK(hclvm_evaluation_variable(ev, "env", &v));
  CHECK(is_string(v, "prod"));
  hclvm_value_free(v);
  CHECK(hclvm_evaluation_output(ev, "nope", &v) == HCLVM_ERR_NOT_FOUND && v == NULL);
  OK(hclvm_evaluation_json(ev, &text));
  CHECK(contains(text, "\"aws_vpc.main\": {\"value\":{\"cidr_block\":\"10.0.0.0/16\"}"));
  hclvm_string_free(text);
  OK(hclvm_evaluation_eval(ev, "upper(local.name)", HCLVM_NUL_TERMINATED, NULL, &res));
  OK(hclvm_value_get_string(hclvm_result_value(res), &s, &n));
  CHECK(n == 10 && memcmp(s, "APP-PROD-3", 10) == 0);
  hclvm_result_free(res);
  CHECK(hclvm_evaluation_eval(ev, "var.nope", HCLVM_NUL_TERMINATED, NULL, &res) == HCLVM_ERR_EVAL);
  OK(hclvm_diagnostics_text(hclvm_result_diagnostics(res), 0, 0, &text));
  CHECK(contains(text, "Error: Reference to undeclared input variable"));
  hclvm_string_free(text);
  hclvm_result_free(res);

  /* Evaluated again with another n, reusing the first evaluation. */
  {
    hclvm_evaluation* again = NULL;
    OK(hclvm_value_int64(4, &v));
    OK(hclvm_module_inputs_set_variable(in, "n", v));
    hclvm_value_free(v);
    OK(hclvm_module_reevaluate(module, ev, in, NULL, &again));
    OK(hclvm_evaluation_output(again, "name", &v));
    CHECK(is_string(v, "app-prod-4"));
    hclvm_value_free(v);
    OK(hclvm_evaluation_local(again, "vpc", &v));
    CHECK(is_string(v, "vpc-123"));
    hclvm_value_free(v);
    hclvm_evaluation_free(again);
    CHECK(hclvm_module_reevaluate(module, NULL, in, NULL, &again) == HCLVM_ERR_INVALID_ARGUMENT);
    CHECK(again == NULL);
  }
  hclvm_evaluation_free(ev);

  /* Another evaluation of the same module, with an invalid value. */
  hclvm_module_inputs_free(in);
  OK(hclvm_module_inputs_create(&in));
  OK(hclvm_module_inputs_set_auto_var_files(in, 0, NULL));
  OK(hclvm_module_inputs_add_var(in, "n=many"));
  CHECK(hclvm_module_evaluate(module, in, NULL, &ev) == HCLVM_ERR_EVAL);
  OK(hclvm_diagnostics_text(hclvm_evaluation_diagnostics(ev), 0, 0, &text));
  CHECK(contains(text, "Unsuitable value for var.n set using -var=\"n=...\": a number is required."));
  CHECK(contains(text, "   4: variable \"n\" {"));
  hclvm_string_free(text);
  OK(hclvm_evaluation_output(ev, "name", &v));
  OK(hclvm_value_console_string(v, &text));
  CHECK(strcmp(text, "(known after apply)") == 0);
  hclvm_string_free(text);
  hclvm_value_free(v);
  hclvm_evaluation_free(ev);
  hclvm_module_inputs_free(in);
  hclvm_module_free(module);

  /* A module with configuration errors is not loaded. */
  write_file("capi_module/main.tf", "variable \"a\" {}\nvariable \"a\" {}\n");
  CHECK(hclvm_module_load("capi_module", NULL, &module, &diags) == HCLVM_ERR_PARSE);
  CHECK(module == NULL && hclvm_diagnostics_count(diags) == 1);
  OK(hclvm_diagnostics_text(diags, 0, 0, &text));
  CHECK(contains(text, "Error: Duplicate variable declaration"));
  hclvm_string_free(text);
  hclvm_diagnostics_free(diags);
  hclvm_module_free(NULL);
  hclvm_evaluation_free(NULL);
  hclvm_module_inputs_free(NULL);
}

/* Formatting and editing: hclvm_format in both styles and on a file with
 * errors; a document edited through every entry point, with the statuses
 * of refused edits. */
static void test_format_and_edit(void) {
  char *out = NULL;
  int changed = 0;
  hclvm_diagnostics *diags = NULL;
  OK(hclvm_format("a=1\nbb = \"${x}\"\n", HCLVM_NUL_TERMINATED, "x.hcl", HCLVM_FORMAT_AUTO, &out, &changed,
                  &diags));
  CHECK(strcmp(out, "a  = 1\nbb = \"${x}\"\n") == 0);
  CHECK(changed == 1);
  hclvm_string_free(out);
  hclvm_diagnostics_free(diags);
  OK(hclvm_format("a=1\nbb = \"${x}\"\n", HCLVM_NUL_TERMINATED, "x.tf", HCLVM_FORMAT_AUTO, &out, NULL, NULL));
  CHECK(strcmp(out, "a  = 1\nbb = x\n") == 0);
  hclvm_string_free(out);
  CHECK(hclvm_format("a = \n", HCLVM_NUL_TERMINATED, NULL, HCLVM_FORMAT_TERRAFORM, &out, NULL, &diags) ==
        HCLVM_ERR_PARSE);
  CHECK(out == NULL);
  CHECK(hclvm_diagnostics_has_errors(diags) == 1);
  hclvm_diagnostics_free(diags);
  CHECK(hclvm_format("", 0, NULL, (hclvm_format_style)7, &out, NULL, NULL) == HCLVM_ERR_INVALID_ARGUMENT);

  hclvm_document *doc = NULL;
  OK(hclvm_document_open("b \"x\" {\n  v = 1 # one\n  l = [1]\n}\n", HCLVM_NUL_TERMINATED, "d.tf", &doc));
  OK(hclvm_document_get(doc, "b.x.v", &out, NULL));
  CHECK(strcmp(out, "1") == 0);
  hclvm_string_free(out);
  OK(hclvm_document_set(doc, "b.x.v", "2", HCLVM_NUL_TERMINATED, NULL));
  OK(hclvm_document_add(doc, "b.x.l", "3", HCLVM_NUL_TERMINATED, NULL));
  hclvm_value *val = NULL;
  OK(hclvm_value_string("s", HCLVM_NUL_TERMINATED, &val));
  OK(hclvm_document_set_value(doc, "b.x.s", val, NULL));
  hclvm_value_free(val);
  OK(hclvm_document_add_block(doc, "b.x.inner", NULL));
  const char *labels[] = {"y"};
  OK(hclvm_document_rename(doc, "b.x", labels, 1, NULL));
  OK(hclvm_document_remove(doc, "b.y.inner", NULL));
  size_t len = 0;
  const char *text = hclvm_document_text(doc, &len);
  CHECK(strcmp(text, "b \"y\" {\n  v = 2 # one\n  l = [1, 3]\n  s = \"s\"\n}\n") == 0);
  CHECK(len == strlen(text));
  CHECK(hclvm_document_get(doc, "b.x.v", &out, &diags) == HCLVM_ERR_NOT_FOUND);
  CHECK(out == NULL);
  CHECK(hclvm_diagnostics_count(diags) == 1);
  hclvm_diagnostics_free(diags);
  CHECK(hclvm_document_set(doc, "b.y.v", "[1,", HCLVM_NUL_TERMINATED, NULL) == HCLVM_ERR_PARSE);
  CHECK(hclvm_document_set(doc, "b..v", "1", HCLVM_NUL_TERMINATED, NULL) == HCLVM_ERR_INVALID_ARGUMENT);
  CHECK(hclvm_document_add(doc, "b.y.v", "1", HCLVM_NUL_TERMINATED, NULL) == HCLVM_ERR_INVALID_ARGUMENT);
  CHECK(hclvm_document_set(doc, "b.y.v", NULL, 0, NULL) == HCLVM_ERR_INVALID_ARGUMENT);
  CHECK(strcmp(hclvm_document_text(doc, NULL), text) == 0);
  hclvm_document_free(doc);
  hclvm_document_free(NULL);
}

/* Conversion to the HCL JSON syntax, and a file with errors. */
static void test_to_json(void) {
  char *out = NULL;
  hclvm_diagnostics *diags = NULL;
  OK(hclvm_to_json("a = 1\nb \"x\" { c = \"${d}\" }\n", HCLVM_NUL_TERMINATED, "t.tf", HCLVM_JSON_SYNTAX, &out,
                   &diags));
  CHECK(strcmp(out, "{\n  \"a\": 1,\n  \"b\": {\n    \"x\": {\n      \"c\": \"${d}\"\n    }\n  }\n}\n") == 0);
  hclvm_string_free(out);
  hclvm_diagnostics_free(diags);
  CHECK(hclvm_to_json("a = \n", HCLVM_NUL_TERMINATED, NULL, HCLVM_JSON_SYNTAX, &out, &diags) == HCLVM_ERR_PARSE);
  CHECK(out == NULL);
  CHECK(hclvm_diagnostics_has_errors(diags) == 1);
  hclvm_diagnostics_free(diags);
  OK(hclvm_to_json("b = 1\na = [1e3]\n", HCLVM_NUL_TERMINATED, NULL, HCLVM_JSON_HCL2JSON, &out, NULL));
  CHECK(strcmp(out, "{\n  \"a\": [\n    1000\n  ],\n  \"b\": 1\n}\n") == 0);
  hclvm_string_free(out);
  OK(hclvm_to_json("b = 1\na = 2\n", HCLVM_NUL_TERMINATED, NULL, HCLVM_JSON_HCL2JSON_ORDERED, &out, NULL));
  CHECK(strcmp(out, "{\n  \"b\": 1,\n  \"a\": 2\n}\n") == 0);
  hclvm_string_free(out);
  CHECK(hclvm_to_json("a {}\na \"x\" {}\n", HCLVM_NUL_TERMINATED, NULL, HCLVM_JSON_HCL2JSON, &out, NULL) ==
        HCLVM_ERR_INVALID_ARGUMENT);
  CHECK(out == NULL);
  CHECK(hclvm_to_json("", 0, NULL, (hclvm_json_shape)9, &out, NULL) == HCLVM_ERR_INVALID_ARGUMENT);
  CHECK(hclvm_to_json(NULL, 0, NULL, HCLVM_JSON_SYNTAX, &out, NULL) == HCLVM_ERR_INVALID_ARGUMENT);
  OK(hclvm_to_json("# c\na = 1\n", HCLVM_NUL_TERMINATED, NULL, HCLVM_JSON_SYNTAX_COMMENTS, &out, NULL));
  CHECK(strcmp(out, "{\n  \"//\": \"c\",\n  \"a\": 1\n}\n") == 0);
  hclvm_string_free(out);
}

/* The JSON syntax back to the native syntax, with each kind of layout. */
static void test_to_native(void) {
  const char *json = "{\"resource\": {\"t\": {\"n\": {\"x\": \"${var.x}\", \"sub\": {\"y\": 1}}}}}";
  char *out = NULL;
  hclvm_diagnostics *diags = NULL;
  OK(hclvm_to_native(json, HCLVM_NUL_TERMINATED, "main.tf.json", HCLVM_LAYOUT_AUTO, NULL, 0, &out, &diags));
  CHECK(strcmp(out, "resource \"t\" \"n\" {\n  x = var.x\n  sub = {\n    y = 1\n  }\n}\n") == 0);
  hclvm_string_free(out);
  hclvm_diagnostics_free(diags);
  OK(hclvm_to_native(json, HCLVM_NUL_TERMINATED, NULL, HCLVM_LAYOUT_LIKE, "resource \"a\" \"b\" {\n sub {}\n}\n",
                     HCLVM_NUL_TERMINATED, &out, NULL));
  CHECK(strcmp(out, "resource \"t\" \"n\" {\n  x = var.x\n\n  sub {\n    y = 1\n  }\n}\n") == 0);
  hclvm_string_free(out);
  OK(hclvm_to_native("{\"b\": {\"y\": 1}}", HCLVM_NUL_TERMINATED, NULL, HCLVM_LAYOUT_SPEC,
                     "block {\n  block_type = \"b\"\n  object {\n    attr \"y\" { type = number }\n  }\n}\n", HCLVM_NUL_TERMINATED, &out, NULL));
  CHECK(strcmp(out, "b {\n  y = 1\n}\n") == 0);
  hclvm_string_free(out);
  OK(hclvm_to_native("{\"b\": {\"y\": 1}}", HCLVM_NUL_TERMINATED, NULL, HCLVM_LAYOUT_NONE, NULL, 0, &out, NULL));
  CHECK(strcmp(out, "b = {\n  y = 1\n}\n") == 0);
  hclvm_string_free(out);
  CHECK(hclvm_to_native("{\"a b\": 1}", HCLVM_NUL_TERMINATED, NULL, HCLVM_LAYOUT_NONE, NULL, 0, &out, &diags) ==
        HCLVM_ERR_PARSE);
  CHECK(out == NULL);
  CHECK(hclvm_diagnostics_has_errors(diags) == 1);
  hclvm_diagnostics_free(diags);
  CHECK(hclvm_to_native("{}", 2, NULL, HCLVM_LAYOUT_SPEC, "nope {", HCLVM_NUL_TERMINATED, &out, NULL) ==
        HCLVM_ERR_INVALID_ARGUMENT);
  CHECK(hclvm_to_native("{}", 2, NULL, HCLVM_LAYOUT_LIKE, NULL, 0, &out, NULL) == HCLVM_ERR_INVALID_ARGUMENT);
  CHECK(hclvm_to_native("{}", 2, NULL, (hclvm_json_layout)9, NULL, 0, &out, NULL) == HCLVM_ERR_INVALID_ARGUMENT);
}

int main(void) {
  test_status();
  test_parse_error();
  test_diagnostics_write_text();
  test_expressions();
  test_scalars();
  test_collections();
  test_marks();
  test_contexts();
  test_functions();
  test_limits();
  test_files();
  test_cache();
  test_threads();
  test_modules();
  test_format_and_edit();
  test_to_json();
  test_to_native();
  printf("capi: %d checks passed\n", checks);
  return 0;
}
