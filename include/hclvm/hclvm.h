/* The C API of hclvm: parse and compile HCL expressions and configuration
 * files, load them through the compiled-file cache, give them variables and
 * functions, evaluate them with limits, and read the results, from C or any
 * language with a C foreign function interface. docs/capi.md describes
 * every function; this header is plain C99 and C++.
 *
 *   hclvm_program *prog = NULL;
 *   hclvm_diagnostics *diags = NULL;
 *   if (hclvm_compile_expression("upper(name)", HCLVM_NUL_TERMINATED, "<expr>", &prog, &diags)
 *       != HCLVM_OK) { ... print hclvm_diagnostics_text(diags ...) ... }
 *   hclvm_context *ctx = NULL;
 *   hclvm_context_create(NULL, &ctx);
 *   hclvm_context_set_variables_json(ctx, "{\"name\": \"web\"}", HCLVM_NUL_TERMINATED);
 *   hclvm_vm *vm = NULL;
 *   hclvm_vm_create(NULL, &vm);
 *   hclvm_result *res = NULL;
 *   if (hclvm_eval(vm, prog, ctx, &res) == HCLVM_OK) {
 *     const char *s; size_t n;
 *     hclvm_value_get_string(hclvm_result_value(res), &s, &n);   // "WEB"
 *   }
 *   hclvm_result_free(res); hclvm_vm_free(vm); hclvm_context_free(ctx);
 *   hclvm_program_free(prog); hclvm_diagnostics_free(diags);
 *
 * Conventions:
 *  - Handles are opaque. Every handle a function gives through an `out`
 *    parameter belongs to the caller, who releases it with the matching
 *    hclvm_*_free (each accepts NULL). Pointers returned directly (const
 *    hclvm_value *, const hclvm_body *, const hclvm_diagnostics *, const
 *    char *) are borrowed: they stay valid while the handle they came from
 *    lives, and are never freed by the caller.
 *  - Strings the library allocates for the caller (char **out) are
 *    NUL-terminated and freed with hclvm_string_free.
 *  - Text goes in as a pointer and a byte length; HCLVM_NUL_TERMINATED as the
 *    length means "up to the first NUL". Text is UTF-8.
 *  - Functions that can fail return an hclvm_status; on failure they set
 *    their `out` parameters to NULL (except where said otherwise) and leave
 *    a message for hclvm_last_error(). No C++ exception ever leaves the
 *    library.
 *  - Threads: programs, values, diagnostics, results and contexts are
 *    immutable while being read and may be read from any number of threads
 *    at once (a context must not be changed while an evaluation reads it).
 *    A vm is used by one thread at a time. A cache and a cancel flag may be
 *    used from any thread.
 */
#ifndef HCLVM_HCLVM_H
#define HCLVM_HCLVM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A length meaning "the text runs up to its first NUL byte". */
#define HCLVM_NUL_TERMINATED ((size_t)-1)

/* --- status and errors ----------------------------------------------------------- */

typedef enum hclvm_status {
  HCLVM_OK = 0,
  /* A NULL handle or out pointer, a malformed type or JSON text, an index
   * out of range, duplicate names, ... */
  HCLVM_ERR_INVALID_ARGUMENT = 1,
  /* The source has syntax errors; the diagnostics say which. */
  HCLVM_ERR_PARSE = 2,
  /* Evaluation reported errors; the result's diagnostics say which. */
  HCLVM_ERR_EVAL = 3,
  /* Evaluation stopped at a limit (steps, memory, sizes, depth, timeout,
   * cancel flag); the result's diagnostic names it. */
  HCLVM_ERR_LIMIT = 4,
  /* A file or the cache directory could not be read. */
  HCLVM_ERR_IO = 5,
  HCLVM_ERR_NO_MEMORY = 6,
  /* No attribute, map key or function of that name. */
  HCLVM_ERR_NOT_FOUND = 7,
  /* The value is not of the kind the accessor reads, or cannot be
   * represented as asked (a fraction as an int64, an unknown as JSON). */
  HCLVM_ERR_TYPE = 8,
  /* A bug in the library. */
  HCLVM_ERR_INTERNAL = 9
} hclvm_status;

/* A short constant description of [status], e.g. "parse error". */
const char *hclvm_status_string(hclvm_status status);

/* What went wrong in the last call that returned a status other than
 * HCLVM_OK on this thread; "" after HCLVM_OK. Valid until the next call of a
 * status-returning function on this thread. */
const char *hclvm_last_error(void);

/* Frees a string the library allocated (NULL is fine). */
void hclvm_string_free(char *s);

/* --- opaque handles ---------------------------------------------------------------- */

typedef struct hclvm_program hclvm_program;         /* compiled expression or file */
typedef struct hclvm_body hclvm_body;               /* a body of a compiled file (borrowed) */
typedef struct hclvm_context hclvm_context;         /* variables and functions */
typedef struct hclvm_vm hclvm_vm;                   /* per-thread evaluator with limits */
typedef struct hclvm_value hclvm_value;             /* a value */
typedef struct hclvm_result hclvm_result;           /* a value and its diagnostics */
typedef struct hclvm_diagnostics hclvm_diagnostics; /* a list of diagnostics */
typedef struct hclvm_cache hclvm_cache;             /* the compiled-file cache */
typedef struct hclvm_cancel hclvm_cancel;           /* a cancel flag */

/* --- diagnostics ---------------------------------------------------------------------- */

typedef enum hclvm_severity { HCLVM_SEVERITY_ERROR = 1, HCLVM_SEVERITY_WARNING = 2 } hclvm_severity;

/* A position in a source: 1-based line, 1-based column counted in grapheme
 * clusters, 0-based byte offset. */
typedef struct hclvm_pos {
  uint32_t line;
  uint32_t column;
  uint32_t byte;
} hclvm_pos;

/* [start, end) in the file named [filename] (borrowed). */
typedef struct hclvm_range {
  const char *filename;
  hclvm_pos start;
  hclvm_pos end;
} hclvm_range;

/* One diagnostic; the strings are borrowed from the list it came from. */
typedef struct hclvm_diagnostic {
  hclvm_severity severity;
  const char *summary;
  const char *detail;
  int has_subject; /* whether [subject] is set: the range the diagnostic is about */
  hclvm_range subject;
  int has_context; /* whether [context] is set: a wider range around it */
  hclvm_range context;
} hclvm_diagnostic;

size_t hclvm_diagnostics_count(const hclvm_diagnostics *diags);
/* Whether any diagnostic is an error (0 or 1). */
int hclvm_diagnostics_has_errors(const hclvm_diagnostics *diags);
/* Fills [*out] with diagnostic [index]. */
hclvm_status hclvm_diagnostics_get(const hclvm_diagnostics *diags, size_t index,
                                   hclvm_diagnostic *out);
/* The diagnostics as the reference's text writer renders them, with the
 * source snippet and block context ("on main.tf line 3, in service "api":"),
 * the detail wrapped at [width] columns (0: not wrapped), VT100 colours when
 * [color] is non-zero. */
hclvm_status hclvm_diagnostics_text(const hclvm_diagnostics *diags, unsigned width, int color,
                                    char **out);
/* Receives [len] bytes of text at [data] (not NUL-terminated); returns 0 to
 * go on, anything else to stop. */
typedef int (*hclvm_write_fn)(void *user_data, const char *data, size_t len);
/* The same text as hclvm_diagnostics_text, handed to [write] piece by piece
 * as it is made, so that memory stays within a piece of about 64 KiB (or one
 * source line, when longer): the text can be far larger than the source,
 * since each diagnostic shows the lines it is about, and many diagnostics on
 * one long line (a hostile file) make text that grows with the square of
 * the line's length. HCLVM_ERR_IO when [write] asked to stop. */
hclvm_status hclvm_diagnostics_write_text(const hclvm_diagnostics *diags, unsigned width,
                                          int color, hclvm_write_fn write, void *user_data);
/* The diagnostics as the JSON document `hcldec --diags=json` prints. */
hclvm_status hclvm_diagnostics_json(const hclvm_diagnostics *diags, char **out);
void hclvm_diagnostics_free(hclvm_diagnostics *diags);

/* --- compiling ---------------------------------------------------------------------- */

typedef enum hclvm_syntax {
  HCLVM_SYNTAX_AUTO = 0,   /* JSON for names ending in ".json", else native */
  HCLVM_SYNTAX_NATIVE = 1, /* HCL native syntax */
  HCLVM_SYNTAX_JSON = 2    /* HCL JSON syntax */
} hclvm_syntax;

/* Parses and compiles one expression ([filename] names it in diagnostics;
 * NULL: "<expr>"). On syntax errors returns HCLVM_ERR_PARSE and no program.
 * [diags], when not NULL, always receives the parse diagnostics (possibly
 * none; the caller frees them), on success as on failure. */
hclvm_status hclvm_compile_expression(const char *text, size_t len, const char *filename,
                                      hclvm_program **out, hclvm_diagnostics **diags);
/* As hclvm_compile_expression, for a standalone template: text with
 * ${...} interpolations and %{...} directives, without surrounding quotes. */
hclvm_status hclvm_compile_template(const char *text, size_t len, const char *filename,
                                    hclvm_program **out, hclvm_diagnostics **diags);
/* Parses and compiles a configuration file from its bytes. */
hclvm_status hclvm_compile_file(const char *filename, const char *bytes, size_t len,
                                hclvm_syntax syntax, hclvm_program **out,
                                hclvm_diagnostics **diags);
/* Reads the file at [path] (HCLVM_ERR_IO when it cannot) and compiles it;
 * diagnostics name it [path]. */
hclvm_status hclvm_compile_file_path(const char *path, hclvm_syntax syntax, hclvm_program **out,
                                     hclvm_diagnostics **diags);
void hclvm_program_free(hclvm_program *prog);

typedef enum hclvm_program_kind {
  HCLVM_PROGRAM_EXPRESSION = 1,
  HCLVM_PROGRAM_FILE = 2
} hclvm_program_kind;

hclvm_program_kind hclvm_program_kind_of(const hclvm_program *prog);
/* The root body of a compiled file (borrowed from [prog]), or NULL for an
 * expression. */
const hclvm_body *hclvm_program_body(const hclvm_program *prog);

/* A body's attributes and blocks, in source order (a JSON-syntax file has
 * attributes only: one per top-level property). Names and labels are
 * borrowed from the program. Out of range: 0 or NULL. */
size_t hclvm_body_attribute_count(const hclvm_body *body);
const char *hclvm_body_attribute_name(const hclvm_body *body, size_t index);
size_t hclvm_body_block_count(const hclvm_body *body);
const char *hclvm_body_block_type(const hclvm_body *body, size_t index);
size_t hclvm_body_block_label_count(const hclvm_body *body, size_t index);
const char *hclvm_body_block_label(const hclvm_body *body, size_t index, size_t label);
const hclvm_body *hclvm_body_block_body(const hclvm_body *body, size_t index);

/* --- the compiled-file cache ------------------------------------------------------------ */

typedef enum hclvm_cache_outcome {
  HCLVM_CACHE_HIT = 0,       /* loaded from the cache */
  HCLVM_CACHE_MISS = 1,      /* compiled, and stored */
  HCLVM_CACHE_REPLACED = 2,  /* the entry was refused, compiled again and replaced */
  HCLVM_CACHE_NOT_CACHED = 3 /* compiled; could not be stored */
} hclvm_cache_outcome;

/* Opens the cache in directory [dir] (NULL or "": $HCLVM_CACHE_DIR, else
 * $XDG_CACHE_HOME/hclvm, else $HOME/.cache/hclvm), keeping at most
 * [max_bytes] (0: 512 MiB). The directory is made when first written. */
hclvm_status hclvm_cache_open(const char *dir, uint64_t max_bytes, hclvm_cache **out);
void hclvm_cache_free(hclvm_cache *cache);
/* The cache's directory (borrowed). */
const char *hclvm_cache_dir(const hclvm_cache *cache);
/* Removes every entry; [*removed], if not NULL, receives how many. */
hclvm_status hclvm_cache_clear(const hclvm_cache *cache, size_t *removed);
/* As hclvm_compile_file, loading the compiled file from the cache when a
 * valid entry for these bytes is there, else compiling and storing it.
 * [outcome], if not NULL, says which. A failure to store is no error
 * (HCLVM_CACHE_NOT_CACHED). */
hclvm_status hclvm_cache_load(const hclvm_cache *cache, const char *filename, const char *bytes,
                              size_t len, hclvm_syntax syntax, hclvm_program **out,
                              hclvm_diagnostics **diags, hclvm_cache_outcome *outcome);
hclvm_status hclvm_cache_load_path(const hclvm_cache *cache, const char *path, hclvm_syntax syntax,
                                   hclvm_program **out, hclvm_diagnostics **diags,
                                   hclvm_cache_outcome *outcome);

/* --- values ------------------------------------------------------------------------------ */

typedef enum hclvm_kind {
  HCLVM_KIND_NULL = 0,
  HCLVM_KIND_UNKNOWN = 1,
  HCLVM_KIND_BOOL = 2,
  HCLVM_KIND_NUMBER = 3,
  HCLVM_KIND_STRING = 4,
  HCLVM_KIND_LIST = 5,
  HCLVM_KIND_SET = 6,
  HCLVM_KIND_TUPLE = 7,
  HCLVM_KIND_MAP = 8,
  HCLVM_KIND_OBJECT = 9,
  HCLVM_KIND_CAPSULE = 10
} hclvm_kind;

/* Types are written as an HCL type expression ("string", "list(number)",
 * "map(any)", "object({name = string})", "any") or as cty's JSON form
 * ("\"string\"", "[\"list\",\"number\"]", "\"dynamic\""); NULL means any
 * type (the dynamic pseudo-type) where a type is optional. */

/* Builders. Each makes a new value owned by the caller; element values are
 * copied (the caller still owns and frees the ones it passed). */
hclvm_status hclvm_value_string(const char *text, size_t len, hclvm_value **out);
/* [d] must not be NaN; infinities are allowed. */
hclvm_status hclvm_value_number(double d, hclvm_value **out);
hclvm_status hclvm_value_int64(int64_t i, hclvm_value **out);
/* A decimal number ("1.5", "-3e100", "12345678901234567890123"), exactly. */
hclvm_status hclvm_value_number_from_string(const char *text, size_t len, hclvm_value **out);
hclvm_status hclvm_value_bool(int b, hclvm_value **out);
/* The null value of [type] (NULL: of any type). */
hclvm_status hclvm_value_null(const char *type, hclvm_value **out);
/* A value not known yet, of [type] (NULL: of any type). */
hclvm_status hclvm_value_unknown(const char *type, hclvm_value **out);
/* A list or a set of [n] elements converted to [elem_type], or (NULL) to
 * the type the elements unify to. */
hclvm_status hclvm_value_list(const hclvm_value *const *elems, size_t n, const char *elem_type,
                              hclvm_value **out);
hclvm_status hclvm_value_set(const hclvm_value *const *elems, size_t n, const char *elem_type,
                             hclvm_value **out);
hclvm_status hclvm_value_tuple(const hclvm_value *const *elems, size_t n, hclvm_value **out);
/* A map from [n] distinct NUL-terminated [keys] to [values], converted to
 * [elem_type] or to the type they unify to. */
hclvm_status hclvm_value_map(const char *const *keys, const hclvm_value *const *values, size_t n,
                             const char *elem_type, hclvm_value **out);
/* An object of [n] attributes with distinct NUL-terminated [names]. */
hclvm_status hclvm_value_object(const char *const *names, const hclvm_value *const *values,
                                size_t n, hclvm_value **out);
/* A value read from JSON: with [type] NULL, of the type the JSON implies
 * (objects, tuples, numbers, ...; as jsondecode reads it); else of [type]
 * (with [type] "\"dynamic\"", the {"value":...,"type":...} form). */
hclvm_status hclvm_value_from_json(const char *json, size_t len, const char *type,
                                   hclvm_value **out);
/* Another reference to [v]: values are immutable, so this is cheap. */
hclvm_status hclvm_value_clone(const hclvm_value *v, hclvm_value **out);
/* [v] without any marks (such as "sensitive"), at any depth. */
hclvm_status hclvm_value_unmark(const hclvm_value *v, hclvm_value **out);
void hclvm_value_free(hclvm_value *v);

/* Inspection. A marked value is read through its marks. */
hclvm_kind hclvm_value_kind(const hclvm_value *v);
int hclvm_value_is_null(const hclvm_value *v);
int hclvm_value_is_known(const hclvm_value *v);
/* Known, and every element inside known too. */
int hclvm_value_is_wholly_known(const hclvm_value *v);
int hclvm_value_is_marked(const hclvm_value *v);
/* Whether [a] and [b] are the same value of the same type (1), or not (0). */
int hclvm_value_equal(const hclvm_value *a, const hclvm_value *b);
/* cty's name of the value's type ("list of string", "object"). */
hclvm_status hclvm_value_type_name(const hclvm_value *v, char **out);
/* The value's type in cty's JSON form ("\"string\"", "[\"list\",\"number\"]"). */
hclvm_status hclvm_value_type_json(const hclvm_value *v, char **out);

hclvm_status hclvm_value_get_bool(const hclvm_value *v, int *out);
/* The nearest double (infinities beyond its range). */
hclvm_status hclvm_value_get_double(const hclvm_value *v, double *out);
/* HCLVM_ERR_TYPE when the number is not an integer in int64's range. */
hclvm_status hclvm_value_get_int64(const hclvm_value *v, int64_t *out);
/* The number as exact decimal text ("1.5", "+Inf"). */
hclvm_status hclvm_value_get_number_text(const hclvm_value *v, char **out);
/* The string's bytes (borrowed from [v]; NUL-terminated as well, though the
 * string may itself hold NUL bytes) and their count. */
hclvm_status hclvm_value_get_string(const hclvm_value *v, const char **data, size_t *len);

/* Elements of a list, set or tuple, entries of a map, attributes of an
 * object (maps and objects in order of their keys, bytewise). */
hclvm_status hclvm_value_length(const hclvm_value *v, size_t *out);
/* Element [index] of a list, set or tuple (borrowed from [v]). */
hclvm_status hclvm_value_element(const hclvm_value *v, size_t index, const hclvm_value **out);
/* Attribute [index] of an object or entry [index] of a map: its name or key
 * (borrowed, NUL-terminated; [name_len] may be NULL) and value (borrowed). */
hclvm_status hclvm_value_entry(const hclvm_value *v, size_t index, const char **name,
                               size_t *name_len, const hclvm_value **value);
/* The attribute of an object or the entry of a map named [name]
 * (HCLVM_ERR_NOT_FOUND when there is none). */
hclvm_status hclvm_value_get(const hclvm_value *v, const char *name, const hclvm_value **out);

/* [v] as jsonencode writes it (unknown and marked values cannot be written:
 * HCLVM_ERR_TYPE). */
hclvm_status hclvm_value_to_json(const hclvm_value *v, char **out);
/* [v] with its type, as {"value":...,"type":...}: reads back exactly with
 * hclvm_value_from_json(json, len, "\"dynamic\"", ...). */
hclvm_status hclvm_value_to_typed_json(const hclvm_value *v, char **out);

/* --- cancel flags and limits ------------------------------------------------------------- */

hclvm_status hclvm_cancel_create(hclvm_cancel **out);
/* Asks every run that watches [c] to stop ("Evaluation cancelled"). May be
 * called from any thread. */
void hclvm_cancel_set(hclvm_cancel *c);
void hclvm_cancel_reset(hclvm_cancel *c);
int hclvm_cancel_is_set(const hclvm_cancel *c);
/* The flag must outlive every vm whose limits name it. */
void hclvm_cancel_free(hclvm_cancel *c);

/* What one evaluation may consume (see hclvm/limits.h for what each
 * counts). UINT64_MAX (UINT32_MAX for max_depth) means no limit. */
typedef struct hclvm_limits {
  uint64_t max_steps;           /* loop iterations and function calls */
  uint64_t max_memory;          /* bytes of values created */
  uint64_t max_string_bytes;    /* bytes of any one string */
  uint64_t max_collection_size; /* elements of any one collection */
  uint32_t max_depth;           /* nested evaluations */
  uint64_t timeout_ms;          /* wall-clock time; 0: none */
  const hclvm_cancel *cancel;   /* NULL: none */
} hclvm_limits;

/* The defaults, safe for untrusted input: 10 million steps, 256 MiB, 16 MiB
 * strings, a million elements, depth 32, 10 seconds, no cancel flag. */
void hclvm_limits_default(hclvm_limits *out);
/* No limit at all: for trusted input only. */
void hclvm_limits_none(hclvm_limits *out);

/* hclvm_value_to_json within [limits] (NULL: the defaults): a value small in
 * memory may be enormous as text (a part held many times over, a number
 * such as 1e100000000 from a request). The text counts against max_memory,
 * the writing against timeout_ms and cancel; HCLVM_ERR_LIMIT, nothing
 * written, when it would pass them (hclvm_last_error says why). */
hclvm_status hclvm_value_to_json_within(const hclvm_value* v, const hclvm_limits* limits,
                                        char** out);

/* --- contexts: variables and functions ------------------------------------------------- */

typedef enum hclvm_function_library {
  /* The standard library: Terraform's functions. */
  HCLVM_FUNCTIONS_STANDARD = 0,
  /* The functions of the reference's own tools: go-cty's standard library
   * under Terraform's names. */
  HCLVM_FUNCTIONS_GO_CTY = 1,
  /* No functions but the ones registered. */
  HCLVM_FUNCTIONS_NONE = 2
} hclvm_function_library;

typedef struct hclvm_context_options {
  hclvm_function_library library;
  /* The directory the filesystem functions (file, templatefile, ...) read
   * under; NULL or "": those functions are left out. Standard library only. */
  const char *base_dir;
  /* Whether timestamp, uuid and bcrypt are included (standard library). */
  int impure;
} hclvm_context_options;

/* The standard library, without filesystem functions, impure ones included. */
void hclvm_context_options_default(hclvm_context_options *out);

/* A context with no variables and the functions [options] ask for (NULL: the
 * defaults). */
hclvm_status hclvm_context_create(const hclvm_context_options *options, hclvm_context **out);
void hclvm_context_free(hclvm_context *ctx);
/* Sets one variable per property of the JSON object [json], each of the type
 * its JSON implies. On failure the context is unchanged. */
hclvm_status hclvm_context_set_variables_json(hclvm_context *ctx, const char *json, size_t len);
/* Sets variable [name] to a copy of [v]. */
hclvm_status hclvm_context_set_variable(hclvm_context *ctx, const char *name, const hclvm_value *v);
/* The variable [name] (borrowed from [ctx], valid until it is set again or
 * the context freed), or HCLVM_ERR_NOT_FOUND. */
hclvm_status hclvm_context_get_variable(const hclvm_context *ctx, const char *name,
                                        const hclvm_value **out);

/* A C function callable from expressions. [args] are the call's arguments,
 * converted to the parameter types (a variadic parameter's arguments
 * follow the others), borrowed for the call. On success the callback
 * stores a new value in [*result], which the library takes over and
 * converts to the return type. On failure it returns a status other than
 * HCLVM_OK and may store in [*error_message] a message allocated with
 * malloc (the library frees it); the call then fails with the reference's
 * "Error in function call" diagnostic: Call to function "NAME" failed:
 * MESSAGE (a value stored in [*result] then is freed). The callback runs
 * on the thread of the evaluation (on several threads at once when they
 * share the context), and must not use that evaluation's vm
 * (another vm may evaluate from inside it), and, written in C++, must not
 * throw. A limit that a call into the library from inside the callback
 * runs into (HCLVM_ERR_LIMIT) ends the evaluation once the callback
 * returns, whatever it returns. */
typedef hclvm_status (*hclvm_callback)(void *user_data, const hclvm_value *const *args,
                                       size_t nargs, hclvm_value **result, char **error_message);

typedef struct hclvm_param {
  const char *name;  /* for messages ("Invalid value for "name" parameter") */
  const char *type;  /* as for builders; NULL: any type */
  int allow_null;    /* else a null argument is an error */
  int allow_unknown; /* else an unknown argument makes the result unknown without a call */
} hclvm_param;

typedef struct hclvm_function_def {
  const hclvm_param *params; /* [nparams] positional parameters */
  size_t nparams;
  const hclvm_param *variadic; /* NULL: none; else any number of further arguments */
  const char *return_type;     /* NULL: any type (the result's own) */
  hclvm_callback callback;
  void *user_data;
  /* Called with [user_data] when the function is no longer referenced by
   * any context (NULL: nothing to do). */
  void (*free_user_data)(void *user_data);
  const char *description; /* NULL: none */
} hclvm_function_def;

/* Adds (or replaces) function [name] in the context's table. [def] and its
 * strings are copied. When the call fails, [def->free_user_data] is not
 * called. */
hclvm_status hclvm_context_add_function(hclvm_context *ctx, const char *name,
                                        const hclvm_function_def *def);
/* Removes function [name] (HCLVM_ERR_NOT_FOUND when there is none). */
hclvm_status hclvm_context_remove_function(hclvm_context *ctx, const char *name);
/* Whether the context has function [name] (0 or 1). */
int hclvm_context_has_function(const hclvm_context *ctx, const char *name);

/* --- evaluating ----------------------------------------------------------------------- */

/* A vm with [limits] (NULL: the defaults). */
hclvm_status hclvm_vm_create(const hclvm_limits *limits, hclvm_vm **out);
void hclvm_vm_free(hclvm_vm *vm);
hclvm_status hclvm_vm_set_limits(hclvm_vm *vm, const hclvm_limits *limits);
hclvm_status hclvm_vm_get_limits(const hclvm_vm *vm, hclvm_limits *out);

/* What the last evaluation consumed. */
typedef struct hclvm_stats {
  uint64_t steps;
  uint64_t memory;
  int limit_hit;     /* whether it stopped at a limit */
  const char *limit; /* which (static): "steps", "memory", "string_size",
                        "collection_size", "depth", "timeout", "cancelled";
                        NULL when none was hit */
} hclvm_stats;

hclvm_status hclvm_vm_stats(const hclvm_vm *vm, hclvm_stats *out);

/* Evaluates [prog] with [vm] against [ctx] (NULL: no context, so any
 * variable is "Variables not allowed" and any call "Function calls not
 * allowed"). An expression gives its value; a file gives an object of its
 * top-level attributes (the attributes of blocks are read with
 * hclvm_eval_body). [*out] receives the result, also on HCLVM_ERR_EVAL
 * and HCLVM_ERR_LIMIT (its value then holds what could be computed, unknown
 * where errors were; its diagnostics say what went wrong); on other
 * failures it is NULL. A file whose evaluation hits a limit stops there. */
hclvm_status hclvm_eval(hclvm_vm *vm, const hclvm_program *prog, const hclvm_context *ctx,
                        hclvm_result **out);
/* Evaluates every attribute of [body] (of a compiled file) into an object. */
hclvm_status hclvm_eval_body(hclvm_vm *vm, const hclvm_body *body, const hclvm_context *ctx,
                             hclvm_result **out);
/* Evaluates attribute [name] of [body] (HCLVM_ERR_NOT_FOUND, no result,
 * when it has none). */
hclvm_status hclvm_eval_attribute(hclvm_vm *vm, const hclvm_body *body, const char *name,
                                  const hclvm_context *ctx, hclvm_result **out);

/* HCLVM_OK, HCLVM_ERR_EVAL or HCLVM_ERR_LIMIT: what the evaluation returned. */
hclvm_status hclvm_result_status(const hclvm_result *res);
/* The value (borrowed from [res]). */
const hclvm_value *hclvm_result_value(const hclvm_result *res);
/* The diagnostics, warnings included (borrowed from [res]). */
const hclvm_diagnostics *hclvm_result_diagnostics(const hclvm_result *res);
/* The limit hit ("steps", ...: see hclvm_stats), or NULL. */
const char *hclvm_result_limit(const hclvm_result *res);
void hclvm_result_free(hclvm_result *res);

/* --- modules (Terraform modules and Packer templates, hclvm/config.h) -------------- */

/* A module loaded from a directory with its local child modules: every
 * expression compiled once; immutable, and evaluated any number of times,
 * from any number of threads at once. */
typedef struct hclvm_module hclvm_module;
/* What one evaluation of a module is given. */
typedef struct hclvm_module_inputs hclvm_module_inputs;
/* The values of one evaluation, and a scope for more expressions. */
typedef struct hclvm_evaluation hclvm_evaluation;

/* Loads the directory [dir] as a Terraform module (a Packer template when it
 * holds only *.pkr.hcl / *.pkr.json files). With [cache] (NULL: none) the
 * files' programs are read from the compiled-file cache, compiled and
 * stored on a miss. On errors (Terraform's configuration errors) returns
 * HCLVM_ERR_PARSE and no module; [*diags] (if given) receives the
 * diagnostics either way, which hclvm_diagnostics_text renders as
 * Terraform does. */
hclvm_status hclvm_module_load(const char *dir, const hclvm_cache *cache, hclvm_module **out,
                               hclvm_diagnostics **diags);
void hclvm_module_free(hclvm_module *module);

hclvm_status hclvm_module_inputs_create(hclvm_module_inputs **out);
void hclvm_module_inputs_free(hclvm_module_inputs *in);
/* Sets variable [name] to [v] (converted to the variable's type as a -var
 * value is); applied after every other source. */
hclvm_status hclvm_module_inputs_set_variable(hclvm_module_inputs *in, const char *name,
                                             const hclvm_value *v);
/* Adds a -var argument "NAME=VALUE" (read as Terraform reads it: raw for
 * primitive types, as an HCL expression otherwise), in order with var files. */
hclvm_status hclvm_module_inputs_add_var(hclvm_module_inputs *in, const char *assignment);
/* Adds a -var-file (.tfvars, .tfvars.json; Packer .pkrvars.hcl/.json). */
hclvm_status hclvm_module_inputs_add_var_file(hclvm_module_inputs *in, const char *path);
/* Adds an environment entry "NAME=VALUE" (TF_VAR_x / PKR_VAR_x set variables). */
hclvm_status hclvm_module_inputs_add_env(hclvm_module_inputs *in, const char *entry);
/* Whether terraform.tfvars and *.auto.tfvars(.json) are read from [dir]
 * (default: yes, from "."). */
hclvm_status hclvm_module_inputs_set_auto_var_files(hclvm_module_inputs *in, int enabled,
                                                   const char *dir);
/* terraform.workspace (default "default"). */
hclvm_status hclvm_module_inputs_set_workspace(hclvm_module_inputs *in, const char *name);
/* The value of a resource instance by address ("aws_vpc.this",
 * "aws_subnet.a[0]", "module.m.data.x.y"); resources without are unknown. */
hclvm_status hclvm_module_inputs_set_resource(hclvm_module_inputs *in, const char *address,
                                             const hclvm_value *v);

/* Evaluates [module] with [in] (NULL: no inputs) on [vm] (NULL: a vm of
 * this thread). The evaluation as a whole is held to the vm's limits: its
 * expressions share one budget and one deadline, each count/for_each
 * instance is a step, and exceeding a shared limit ends it with that error
 * (docs/config.md, "Limits"). [*out] is set even when the evaluation
 * reported errors, in which case the status is HCLVM_ERR_EVAL. */
hclvm_status hclvm_module_evaluate(const hclvm_module *module, const hclvm_module_inputs *in,
                                   hclvm_vm *vm, hclvm_evaluation **out);
/* The same, with the same result, reusing the work of [previous] (an
 * evaluation of [module]) wherever what it depended on is unchanged: the
 * variables, locals, outputs, module calls and resources whose inputs are
 * the same values, that read no file changed since, and that called no
 * impure function (docs/config.md, "Re-evaluation"). [previous] is only
 * read: many threads may reevaluate it at once. HCLVM_ERR_INVALID_ARGUMENT
 * when [previous] is an evaluation of another module. */
hclvm_status hclvm_module_reevaluate(const hclvm_module *module, const hclvm_evaluation *previous,
                                     const hclvm_module_inputs *in, hclvm_vm *vm,
                                     hclvm_evaluation **out);
void hclvm_evaluation_free(hclvm_evaluation *ev);
/* The diagnostics of the evaluation (borrowed). */
const hclvm_diagnostics *hclvm_evaluation_diagnostics(const hclvm_evaluation *ev);
/* The value of the root module's output, local or variable [name]; unknown
 * where evaluation failed. HCLVM_ERR_NOT_FOUND when there is none. */
hclvm_status hclvm_evaluation_output(const hclvm_evaluation *ev, const char *name,
                                     hclvm_value **out);
hclvm_status hclvm_evaluation_local(const hclvm_evaluation *ev, const char *name,
                                    hclvm_value **out);
hclvm_status hclvm_evaluation_variable(const hclvm_evaluation *ev, const char *name,
                                       hclvm_value **out);
/* The whole evaluation as the JSON document of `hclvm eval DIR` (docs/config.md). */
hclvm_status hclvm_evaluation_json(const hclvm_evaluation *ev, char **out);
/* Evaluates the expression [text] in the root module's scope, as terraform
 * console does, on [vm] (NULL: a vm of this thread). */
hclvm_status hclvm_evaluation_eval(const hclvm_evaluation *ev, const char *text, size_t len,
                                   hclvm_vm *vm, hclvm_result **out);
/* [v] as terraform console prints it. */
hclvm_status hclvm_value_console_string(const hclvm_value *v, char **out);

/* --- formatting and editing ---------------------------------------------------------- */

/* Which reference formatter's output hclvm_format gives: by the file name
 * (Terraform's for *.tf, *.tfvars, *.tftest.hcl and *.tfmock.hcl, hclfmt's
 * otherwise), hclfmt's, or terraform fmt's. */
typedef enum hclvm_format_style {
  HCLVM_FORMAT_AUTO = 0,
  HCLVM_FORMAT_HCL = 1,
  HCLVM_FORMAT_TERRAFORM = 2
} hclvm_format_style;

/* Formats the configuration file [text] named [filename] (NULL:
 * "<input>") as hclfmt or terraform fmt would, byte for byte. [*out]
 * receives the formatted text (the caller frees it with hclvm_string_free)
 * and [*changed], when not NULL, whether it differs from the input. A file
 * with syntax errors is not formatted: HCLVM_ERR_PARSE, [*out] NULL, and
 * [diags] (when not NULL) receives the errors, as on success it receives
 * the warnings, if any. */
hclvm_status hclvm_format(const char *text, size_t len, const char *filename, hclvm_format_style style,
                          char **out, int *changed, hclvm_diagnostics **diags);

/* --- conversion to JSON ------------------------------------------------------------- */

/* Which JSON document hclvm_to_json writes (include/hclvm/convert.h). */
typedef enum hclvm_json_shape {
  HCLVM_JSON_SYNTAX = 0,  /* the HCL JSON syntax: a .tf.json / .hcl.json twin */
  HCLVM_JSON_HCL2JSON = 1, /* what @cdktf/hcl2json's parse() returns: keys sorted */
  HCLVM_JSON_HCL2JSON_ORDERED = 2, /* the same with keys in source order */
  HCLVM_JSON_SYNTAX_COMMENTS = 3  /* the JSON syntax, comments as "//" properties */
} hclvm_json_shape;

/* Converts the configuration file [text] of the native syntax named
 * [filename] (NULL: "<input>") to the JSON document [shape] says (see
 * docs/cli.md, `hclvm json`). [*out] receives the document (the caller
 * frees it with hclvm_string_free). A file with syntax errors gives
 * HCLVM_ERR_PARSE, [*out] NULL, and [diags] (when not NULL) receives the
 * errors, as on success it receives the warnings, if any. A file the
 * hcl2json shape cannot hold (what hcl2json refuses) gives
 * HCLVM_ERR_INVALID_ARGUMENT and the reason in hclvm_last_error(). */
hclvm_status hclvm_to_json(const char *text, size_t len, const char *filename, hclvm_json_shape shape,
                           char **out, hclvm_diagnostics **diags);

/* Which properties of a JSON-syntax file hclvm_to_native writes as blocks
 * (the JSON syntax cannot tell a block from an attribute holding an
 * object; see docs/cli.md, `hclvm json --to hcl`). */
typedef enum hclvm_json_layout {
  HCLVM_LAYOUT_AUTO = 0,      /* by file name: Terraform's, Packer's or none */
  HCLVM_LAYOUT_NONE = 1,      /* every property an attribute */
  HCLVM_LAYOUT_TERRAFORM = 2, /* Terraform's blocks and meta-blocks */
  HCLVM_LAYOUT_PACKER = 3,    /* Packer's */
  HCLVM_LAYOUT_LIKE = 4,      /* the blocks of the native file [layout_text] */
  HCLVM_LAYOUT_SPEC = 5       /* the blocks the hcldec spec [layout_text] reads */
} hclvm_json_layout;

/* Converts the JSON-syntax file [text] named [filename] (NULL: "<input>")
 * back to the native syntax, laid out as hclfmt lays it out, with the
 * blocks [layout] says ([layout_text], [layout_len]: the native file or
 * spec for HCLVM_LAYOUT_LIKE and HCLVM_LAYOUT_SPEC, else ignored). [*out]
 * receives the text (free it with hclvm_string_free). JSON syntax errors,
 * and what the native syntax cannot hold (names, labels, strings that are
 * no valid templates), give HCLVM_ERR_PARSE and [*out] NULL, with the
 * errors in [diags] when not NULL; a layout text that does not read gives
 * HCLVM_ERR_INVALID_ARGUMENT. */
hclvm_status hclvm_to_native(const char *text, size_t len, const char *filename, hclvm_json_layout layout,
                             const char *layout_text, size_t layout_len, char **out, hclvm_diagnostics **diags);

/* A configuration file being edited (include/hclvm/format.h, Document):
 * paths name attributes, blocks, object items and tuple elements
 * ("resource.aws_s3_bucket.logs.tags.Env", "module.vpc.azs[0]"; see
 * docs/api.md), and what an edit does not touch keeps its bytes and
 * comments. A failed edit changes nothing; its status says why:
 * HCLVM_ERR_NOT_FOUND (nothing at the path), HCLVM_ERR_PARSE (the
 * expression does not parse, or the file would not parse after the edit),
 * HCLVM_ERR_INVALID_ARGUMENT (a malformed path, an edit that does not
 * apply to what the path names); [diags], when not NULL, receives the
 * details. */
typedef struct hclvm_document hclvm_document;

/* Reads [text] named [filename] (NULL: "<input>") for editing. Files with
 * syntax errors are read too (what parsed can be edited). */
hclvm_status hclvm_document_open(const char *text, size_t len, const char *filename, hclvm_document **out);
void hclvm_document_free(hclvm_document *doc);
/* The current text (borrowed: valid until the next edit or free); [len]
 * receives its length when not NULL. */
const char *hclvm_document_text(const hclvm_document *doc, size_t *len);
/* The source text of what [path] names: an attribute's or item's value,
 * an element, a whole block. The caller frees [*out]. */
hclvm_status hclvm_document_get(const hclvm_document *doc, const char *path, char **out,
                                hclvm_diagnostics **diags);
/* Sets the attribute, object item or element at [path] to the expression
 * [expr]; a missing attribute or item is added. */
hclvm_status hclvm_document_set(hclvm_document *doc, const char *path, const char *expr, size_t len,
                                hclvm_diagnostics **diags);
/* The same with a value, written as an HCL literal (it must be known and
 * unmarked). */
hclvm_status hclvm_document_set_value(hclvm_document *doc, const char *path, const hclvm_value *value,
                                      hclvm_diagnostics **diags);
/* Adds an attribute or object item that is not there yet, or appends to
 * the tuple [path] names. */
hclvm_status hclvm_document_add(hclvm_document *doc, const char *path, const char *expr, size_t len,
                                hclvm_diagnostics **diags);
/* Adds an empty block: [path] is where (the longest prefix that names a
 * body) followed by the block's type and labels. */
hclvm_status hclvm_document_add_block(hclvm_document *doc, const char *path, hclvm_diagnostics **diags);
/* Removes the attribute, block, object item or element at [path] with its
 * comment lines. */
hclvm_status hclvm_document_remove(hclvm_document *doc, const char *path, hclvm_diagnostics **diags);
/* Replaces the last [n] labels of the block at [path] with [labels]. */
hclvm_status hclvm_document_rename(hclvm_document *doc, const char *path, const char *const *labels, size_t n,
                                   hclvm_diagnostics **diags);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* HCLVM_HCLVM_H */
