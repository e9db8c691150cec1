/* Evaluates a configuration file with variables from a JSON file through
 * hclvm's C API, and prints every attribute, blocks included, as
 * `path = {"value":...,"type":...}` (as `hclvm eval FILE --vars-file VARS`
 * does). Diagnostics go to standard error.
 *
 *   eval examples/eval/app.tf examples/eval/vars.json
 *
 * Building it by hand, against the static library of a build directory
 * (the build also makes it, as hclvm_c_example):
 *
 *   cc -std=c99 -Iinclude examples/c/eval.c build/libhclvm_core.a \
 *      $(pkg-config --libs libutf8proc mpfr gmp re2 libcrypto libxcrypt zlib yaml-0.1 libxxhash) \
 *      -lstdc++ -lm -lpthread -o eval
 *
 * Exit status: 0 no errors, 1 errors in the file, 2 unreadable input.
 */
#include <hclvm/hclvm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads the whole file [path] into a NUL-terminated buffer (free()), or
 * returns NULL. */
static char *read_all(const char *path) {
  FILE *f = fopen(path, "rb");
  char *buf = NULL;
  size_t len = 0, cap = 0, n;
  if (f == NULL) return NULL;
  do {
    if (cap - len < 4096) {
      char *grown = realloc(buf, cap = cap * 2 + 4096);
      if (grown == NULL) {
        free(buf);
        fclose(f);
        return NULL;
      }
      buf = grown;
    }
    n = fread(buf + len, 1, cap - len - 1, f);
    len += n;
  } while (n > 0);
  fclose(f);
  buf[len] = '\0';
  return buf;
}

/* Prints [diags] to standard error as the reference renders them. */
static void print_diagnostics(const hclvm_diagnostics *diags) {
  char *text = NULL;
  if (hclvm_diagnostics_count(diags) == 0) return;
  if (hclvm_diagnostics_text(diags, 78, 0, &text) == HCLVM_OK) fputs(text, stderr);
  hclvm_string_free(text);
}

/* Evaluates every attribute of [body] and of its blocks, printing each
 * under [prefix]; returns whether all evaluated without errors. */
static int print_body(hclvm_vm *vm, const hclvm_body *body, const hclvm_context *ctx,
                      const char *prefix) {
  int ok = 1;
  size_t i, j;
  for (i = 0; i < hclvm_body_attribute_count(body); ++i) {
    const char *name = hclvm_body_attribute_name(body, i);
    hclvm_result *res = NULL;
    hclvm_status s = hclvm_eval_attribute(vm, body, name, ctx, &res);
    if (res == NULL) {
      fprintf(stderr, "eval: %s%s: %s\n", prefix, name, hclvm_last_error());
      return 0;
    }
    print_diagnostics(hclvm_result_diagnostics(res));
    if (s == HCLVM_OK) {
      char *json = NULL;
      if (hclvm_value_to_typed_json(hclvm_result_value(res), &json) == HCLVM_OK)
        printf("%s%s = %s\n", prefix, name, json);
      hclvm_string_free(json);
    } else {
      ok = 0;
    }
    hclvm_result_free(res);
  }
  for (i = 0; i < hclvm_body_block_count(body); ++i) {
    /* The path of a block's attributes: type.label1.label2.name */
    char path[1024];
    size_t used =
        (size_t)snprintf(path, sizeof path, "%s%s.", prefix, hclvm_body_block_type(body, i));
    for (j = 0; j < hclvm_body_block_label_count(body, i) && used < sizeof path; ++j)
      used += (size_t)snprintf(path + used, sizeof path - used, "%s.",
                               hclvm_body_block_label(body, i, j));
    ok &= print_body(vm, hclvm_body_block_body(body, i), ctx, path);
  }
  return ok;
}

int main(int argc, char **argv) {
  hclvm_program *prog = NULL;
  hclvm_diagnostics *diags = NULL;
  hclvm_context *ctx = NULL;
  hclvm_vm *vm = NULL;
  char *vars = NULL;
  int status = 2;

  if (argc != 3) {
    fprintf(stderr, "usage: %s FILE VARS.json\n", argv[0]);
    return 2;
  }
  /* Parse and compile the file (its syntax from its name). */
  if (hclvm_compile_file_path(argv[1], HCLVM_SYNTAX_AUTO, &prog, &diags) != HCLVM_OK) {
    print_diagnostics(diags);
    if (diags == NULL || hclvm_diagnostics_count(diags) == 0)
      fprintf(stderr, "eval: %s\n", hclvm_last_error());
    status = prog == NULL && diags != NULL && hclvm_diagnostics_has_errors(diags) ? 1 : 2;
    goto done;
  }
  /* The variables, and the standard library with the file functions
   * reading under the current directory. */
  vars = read_all(argv[2]);
  if (vars == NULL) {
    fprintf(stderr, "eval: cannot read %s\n", argv[2]);
    goto done;
  }
  {
    hclvm_context_options opts;
    hclvm_context_options_default(&opts);
    opts.base_dir = ".";
    if (hclvm_context_create(&opts, &ctx) != HCLVM_OK ||
        hclvm_context_set_variables_json(ctx, vars, HCLVM_NUL_TERMINATED) != HCLVM_OK) {
      fprintf(stderr, "eval: %s\n", hclvm_last_error());
      goto done;
    }
  }
  /* A vm with the default limits, reused for every attribute. */
  if (hclvm_vm_create(NULL, &vm) != HCLVM_OK) {
    fprintf(stderr, "eval: %s\n", hclvm_last_error());
    goto done;
  }
  status = print_body(vm, hclvm_program_body(prog), ctx, "") ? 0 : 1;

done:
  free(vars);
  hclvm_vm_free(vm);
  hclvm_context_free(ctx);
  hclvm_diagnostics_free(diags);
  hclvm_program_free(prog);
  return status;
}
