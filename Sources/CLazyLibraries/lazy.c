// The loader behind CLazyLibraries.h.
#include "CLazyLibraries.h"

#if defined(__linux__)
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int rb_lazy_load(rb_lazy_library *library, char *error, size_t size) {
  if (atomic_load_explicit(&library->handle, memory_order_acquire) != NULL) return 1;
  pthread_mutex_lock(&library->lock);
  void *handle = atomic_load_explicit(&library->handle, memory_order_relaxed);
  char reason[768] = "";
  const char *named = getenv(library->variable);
  if (handle == NULL) {  // not loaded by another thread meanwhile
    if (named != NULL && named[0] != '\0') {
      handle = dlopen(named, RTLD_NOW | RTLD_LOCAL);
      if (handle == NULL) snprintf(reason, sizeof reason, "%s", dlerror());
    } else {
      for (const char *const *name = library->names; handle == NULL && *name != NULL; name++) {
        handle = dlopen(*name, RTLD_NOW | RTLD_LOCAL);
        // The first name is the usual one: its failure says most.
        if (handle == NULL && reason[0] == '\0') {
          snprintf(reason, sizeof reason, "%s", dlerror());
        }
      }
    }
    if (handle != NULL) atomic_store_explicit(&library->handle, handle, memory_order_release);
  }
  pthread_mutex_unlock(&library->lock);
  if (handle != NULL) return 1;
  if (error != NULL && size > 0) {
    if (named != NULL && named[0] != '\0') {
      snprintf(
        error, size, "cannot load %s from %s=%s: %s", library->what, library->variable, named,
        reason);
    } else {
      snprintf(
        error, size, "cannot load %s: %s (Debian's package %s has it; %s may name its file)",
        library->what, reason, library->package, library->variable);
    }
  }
  return 0;
}

/// Ends the process: a trampoline has no way to report an error to its caller.
static void rb_lazy_fail(const char *message) {
  fprintf(stderr, "Error: %s\n", message);
  fflush(stderr);
  _exit(1);
}

void *rb_lazy_symbol(rb_lazy_library *library, const char *symbol) {
  char error[1024];
  if (!rb_lazy_load(library, error, sizeof error)) rb_lazy_fail(error);
  void *handle = atomic_load_explicit(&library->handle, memory_order_acquire);
  dlerror();
  void *address = dlsym(handle, symbol);
  if (address == NULL) {
    const char *reason = dlerror();
    snprintf(
      error, sizeof error, "cannot find %s in %s: %s", symbol, library->what,
      reason != NULL ? reason : "no such symbol");
    rb_lazy_fail(error);
  }
  return address;
}

#else

int rb_lazy_load(rb_lazy_library *library, char *error, size_t size) {
  (void)library;
  (void)error;
  (void)size;
  return 1;
}

void *rb_lazy_symbol(rb_lazy_library *library, const char *symbol) {
  (void)library;
  (void)symbol;
  return NULL;
}

// The libraries are linked as usual here (Package.swift), so they are always loaded.
int rb_sqlite3_load(char *error, size_t size) { return rb_lazy_load(NULL, error, size); }
int rb_pq_load(char *error, size_t size) { return rb_lazy_load(NULL, error, size); }
int rb_crypto_load(char *error, size_t size) { return rb_lazy_load(NULL, error, size); }

#endif
