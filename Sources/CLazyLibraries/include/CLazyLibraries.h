// Loads the system's SQLite, libpq and libcrypto on first use instead of at process start.
//
// On Linux the functions VoteStore calls are defined here as trampolines: the first call of
// each looks the real function up in the library, loaded with dlopen on first need, and later
// calls go straight through. A process that never opens a store (`roadmapctl validate`, say)
// never maps these libraries or their dependencies. Elsewhere the libraries are linked as
// usual and the functions below always succeed.
#ifndef CLAZYLIBRARIES_H
#define CLAZYLIBRARIES_H

#include <stddef.h>

/// A library loaded on first use: the environment variable that may name its file, the file
/// names tried otherwise (NULL-terminated), and what it is, for error messages.
typedef struct rb_lazy_library rb_lazy_library;

/// Loads `library` if it is not loaded yet. Returns 1 when it is loaded; otherwise 0, with
/// why in `error` (NUL-terminated, at most `size` bytes). Thread-safe; a failure is retried
/// at the next call.
int rb_lazy_load(rb_lazy_library *library, char *error, size_t size);

/// The address of `symbol` in `library`, loading it first. A library or symbol that cannot be
/// found ends the process with a message on standard error naming both: callers that can
/// report an error check `rb_lazy_load` first.
void *rb_lazy_symbol(rb_lazy_library *library, const char *symbol);

/// Loads SQLite (libsqlite3.so.0, or the file named by ROADMAPBRIDGE_SQLITE_LIBRARY).
int rb_sqlite3_load(char *error, size_t size);
/// Loads libpq (libpq.so.5, or the file named by ROADMAPBRIDGE_PQ_LIBRARY).
int rb_pq_load(char *error, size_t size);
/// Loads libcrypto (libcrypto.so.3, or the file named by ROADMAPBRIDGE_CRYPTO_LIBRARY).
int rb_crypto_load(char *error, size_t size);

// For the C files that define trampolines (here and in CLazyCurl); not for Swift.
#if defined(__linux__) && !defined(__swift__)
#include <pthread.h>
#include <stdatomic.h>

struct rb_lazy_library {
  /// The environment variable that may name the library's file.
  const char *variable;
  /// The file names tried in order when the variable is not set; NULL-terminated.
  const char *const *names;
  /// What the library is, for messages ("SQLite", "libcurl").
  const char *what;
  /// The Debian package that has it, for messages.
  const char *package;
  pthread_mutex_t lock;
  void *_Atomic handle;
};

#define RB_LAZY_LIBRARY(identifier, env, description, debianPackage, ...) \
  static const char *const identifier##_names[] = {__VA_ARGS__, NULL}; \
  rb_lazy_library identifier = { \
    .variable = env, \
    .names = identifier##_names, \
    .what = description, \
    .package = debianPackage, \
    .lock = PTHREAD_MUTEX_INITIALIZER, \
    .handle = NULL, \
  }

/// The function `name` of `library`, looked up once and kept in `slot`.
static inline void *rb_lazy_function(
  rb_lazy_library *library, void *_Atomic *slot, const char *name) {
  void *function = atomic_load_explicit(slot, memory_order_acquire);
  if (function == NULL) {
    function = rb_lazy_symbol(library, name);
    atomic_store_explicit(slot, function, memory_order_release);
  }
  return function;
}

/// Defines `name` with the parameters `params` (a parenthesised list) as a call through to
/// the same function of `library`, passing `args` (the parameter names, parenthesised). The
/// definition is weak: a program that links the library itself (a static SQLite, say) keeps
/// its own functions, and these go unused.
#define RB_LAZY_FORWARD(library, result, name, params, args) \
  __attribute__((weak)) result name params { \
    static void *_Atomic slot; \
    return ((result(*) params)rb_lazy_function(&library, &slot, #name)) args; \
  }

/// `RB_LAZY_FORWARD` for a function that returns nothing.
#define RB_LAZY_FORWARD_VOID(library, name, params, args) \
  __attribute__((weak)) void name params { \
    static void *_Atomic slot; \
    ((void(*) params)rb_lazy_function(&library, &slot, #name)) args; \
  }

#endif

#endif
