// libcurl's functions as FoundationNetworking calls them, loaded on first use (CLazyCurl.h).
//
// The curl headers are not needed to build this: each function is declared here with the
// same calling convention (curl's enums are ints, its handles pointers). The variadic
// setopt and getinfo functions take exactly one argument after the option, always a long,
// a pointer or a curl_off_t, all passed alike in one integer register on the 64-bit Linux
// ABIs, so it is read and passed on as a pointer-sized value.
#include "CLazyCurl.h"

#if defined(__linux__)
#include <CLazyLibraries.h>
#include <stdarg.h>
#include <stddef.h>

RB_LAZY_LIBRARY(
  rb_curl_library, "ROADMAPBRIDGE_CURL_LIBRARY", "libcurl", "libcurl4", "libcurl.so.4",
  "libcurl-gnutls.so.4", "libcurl.so");

int rb_curl_load(char *error, unsigned long size) {
  return rb_lazy_load(&rb_curl_library, error, size);
}

_Static_assert(sizeof(void *) == sizeof(long), "curl's variadic arguments are forwarded as words");

// clang-format off
RB_LAZY_FORWARD(rb_curl_library, int, curl_global_init, (long flags), (flags))
RB_LAZY_FORWARD(rb_curl_library, char *, curl_version, (void), ())
RB_LAZY_FORWARD(rb_curl_library, void *, curl_version_info, (int age), (age))
RB_LAZY_FORWARD(rb_curl_library, void *, curl_easy_init, (void), ())
RB_LAZY_FORWARD_VOID(rb_curl_library, curl_easy_cleanup, (void *easy), (easy))
RB_LAZY_FORWARD(rb_curl_library, int, curl_easy_pause, (void *easy, int mask), (easy, mask))
RB_LAZY_FORWARD(rb_curl_library, const char *, curl_easy_strerror, (int code), (code))
RB_LAZY_FORWARD_VOID(rb_curl_library, curl_free, (void *pointer), (pointer))
RB_LAZY_FORWARD(rb_curl_library, void *, curl_multi_init, (void), ())
RB_LAZY_FORWARD(rb_curl_library, int, curl_multi_cleanup, (void *multi), (multi))
RB_LAZY_FORWARD(rb_curl_library, int, curl_multi_add_handle, (void *multi, void *easy),
  (multi, easy))
RB_LAZY_FORWARD(rb_curl_library, int, curl_multi_remove_handle, (void *multi, void *easy),
  (multi, easy))
RB_LAZY_FORWARD(rb_curl_library, int, curl_multi_assign,
  (void *multi, int socket, void *pointer), (multi, socket, pointer))
RB_LAZY_FORWARD(rb_curl_library, void *, curl_multi_info_read, (void *multi, int *queued),
  (multi, queued))
RB_LAZY_FORWARD(rb_curl_library, int, curl_multi_socket_action,
  (void *multi, int socket, int mask, int *running), (multi, socket, mask, running))
RB_LAZY_FORWARD(rb_curl_library, void *, curl_slist_append, (void *list, const char *text),
  (list, text))
RB_LAZY_FORWARD_VOID(rb_curl_library, curl_slist_free_all, (void *list), (list))
RB_LAZY_FORWARD(rb_curl_library, void *, curl_url, (void), ())
RB_LAZY_FORWARD(rb_curl_library, int, curl_url_get,
  (const void *url, int part, char **value, unsigned int flags), (url, part, value, flags))
RB_LAZY_FORWARD(rb_curl_library, int, curl_url_set,
  (void *url, int part, const char *value, unsigned int flags), (url, part, value, flags))
// clang-format on

/// Defines the variadic `name(handle, option, ...)` as a call of the real one with the one
/// argument that follows the option.
#define RB_CURL_FORWARD_VARIADIC(name) \
  __attribute__((weak)) int name(void *handle, int option, ...) { \
    static void *_Atomic slot; \
    void *function = rb_lazy_function(&rb_curl_library, &slot, #name); \
    va_list arguments; \
    va_start(arguments, option); \
    void *argument = va_arg(arguments, void *); \
    va_end(arguments); \
    return ((int (*)(void *, int, ...))function)(handle, option, argument); \
  }

RB_CURL_FORWARD_VARIADIC(curl_easy_setopt)
RB_CURL_FORWARD_VARIADIC(curl_easy_getinfo)
RB_CURL_FORWARD_VARIADIC(curl_multi_setopt)

#else

int rb_curl_load(char *error, unsigned long size) {
  (void)error;
  (void)size;
  return 1;
}

#endif
