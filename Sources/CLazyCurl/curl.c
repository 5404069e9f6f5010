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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

RB_CURL_FORWARD_VARIADIC(curl_easy_getinfo)
RB_CURL_FORWARD_VARIADIC(curl_multi_setopt)

// ---------------------------------------------------------------------------------------------
// A head cut off by the server.
//
// libcurl 7.x (Debian 12 has 7.88) ends a transfer whose server closed the connection inside
// its answer's head ("HTTP/1.1 200 OK\r\nContent-") with CURLE_OK. FoundationNetworking then
// has a status line and no end of the head, and stops the process ("Transfer completed, but
// there's no response", NativeProtocol.swift). So every head line FoundationNetworking is
// given passes through `rb_head_line` first, which notes whether a head is open (a status line
// seen, its blank line not yet); a transfer reported done with CURLE_OK while its head is open
// is reported as CURLE_GOT_NOTHING instead, with what happened in the handle's error buffer.
// FoundationNetworking turns that into `networkConnectionLost`, as Apple's platforms report it.
//
// The debug build exports these three functions from roadmapctl (Package.swift) so that the
// shared libFoundationNetworking.so calls them too; the release build links Foundation in.

enum {
  RB_CURLOPT_ERRORBUFFER = 10010,
  RB_CURLOPT_HEADERDATA = 10029,
  RB_CURLOPT_HEADERFUNCTION = 20079,
  RB_CURLMSG_DONE = 1,
  RB_CURLE_OK = 0,
  RB_CURLE_GOT_NOTHING = 52,
  RB_CURL_ERROR_SIZE = 256,
};

typedef size_t (*rb_header_function)(char *line, size_t size, size_t count, void *data);

/// curl's CURLMsg: what `curl_multi_info_read` returns.
typedef struct {
  int msg;
  void *easy_handle;
  union {
    void *whatever;
    int result;
  } data;
} rb_curl_message;

/// One easy handle whose head lines are watched.
typedef struct rb_head_watch {
  void *easy;
  /// The caller's CURLOPT_HEADERFUNCTION and CURLOPT_HEADERDATA.
  rb_header_function function;
  void *data;
  /// The caller's CURLOPT_ERRORBUFFER (CURL_ERROR_SIZE bytes), or NULL.
  char *errors;
  /// 1 from a status line until the blank line that ends its head.
  _Atomic int open;
  struct rb_head_watch *next;
} rb_head_watch;

static pthread_mutex_t rb_head_watches_lock = PTHREAD_MUTEX_INITIALIZER;
static rb_head_watch *rb_head_watches;

/// The watch of `easy`, made when `create` and there is none; NULL otherwise. Holds the lock.
static rb_head_watch *rb_head_watch_of(void *easy, int create) {
  rb_head_watch *watch = rb_head_watches;
  while (watch != NULL && watch->easy != easy) watch = watch->next;
  if (watch == NULL && create) {
    watch = calloc(1, sizeof *watch);
    if (watch != NULL) {
      watch->easy = easy;
      watch->next = rb_head_watches;
      rb_head_watches = watch;
    }
  }
  return watch;
}

static size_t rb_head_line(char *line, size_t size, size_t count, void *data) {
  rb_head_watch *watch = data;
  size_t length = size * count;
  if (length >= 5 && memcmp(line, "HTTP/", 5) == 0) {
    atomic_store(&watch->open, 1);
  } else if ((length == 2 && line[0] == '\r' && line[1] == '\n') ||
             (length == 1 && line[0] == '\n')) {
    atomic_store(&watch->open, 0);
  }
  return watch->function(line, size, count, watch->data);
}

static int rb_curl_setopt(void *easy, int option, void *argument) {
  static void *_Atomic slot;
  int (*setopt)(void *, int, ...) = rb_lazy_function(&rb_curl_library, &slot, "curl_easy_setopt");
  return setopt(easy, option, argument);
}

__attribute__((weak)) int curl_easy_setopt(void *easy, int option, ...) {
  va_list arguments;
  va_start(arguments, option);
  void *argument = va_arg(arguments, void *);
  va_end(arguments);
  if (option != RB_CURLOPT_HEADERFUNCTION && option != RB_CURLOPT_HEADERDATA &&
      option != RB_CURLOPT_ERRORBUFFER) {
    return rb_curl_setopt(easy, option, argument);
  }
  pthread_mutex_lock(&rb_head_watches_lock);
  rb_head_watch *watch = rb_head_watch_of(easy, 1);
  pthread_mutex_unlock(&rb_head_watches_lock);
  if (watch == NULL) return rb_curl_setopt(easy, option, argument);  // out of memory: unwatched
  if (option == RB_CURLOPT_ERRORBUFFER) {
    watch->errors = argument;
    return rb_curl_setopt(easy, option, argument);
  }
  if (option == RB_CURLOPT_HEADERDATA) {
    watch->data = argument;
    // Without a function of the caller's, curl writes head lines to the data as a FILE *.
    return rb_curl_setopt(easy, option, watch->function != NULL ? (void *)watch : argument);
  }
  watch->function = (rb_header_function)argument;
  if (argument == NULL) {
    rb_curl_setopt(easy, RB_CURLOPT_HEADERDATA, watch->data);
    return rb_curl_setopt(easy, option, NULL);
  }
  int code = rb_curl_setopt(easy, RB_CURLOPT_HEADERDATA, watch);
  return code != RB_CURLE_OK ? code : rb_curl_setopt(easy, option, (void *)rb_head_line);
}

__attribute__((weak)) void curl_easy_cleanup(void *easy) {
  static void *_Atomic slot;
  void (*cleanup)(void *) = rb_lazy_function(&rb_curl_library, &slot, "curl_easy_cleanup");
  cleanup(easy);
  pthread_mutex_lock(&rb_head_watches_lock);
  for (rb_head_watch **link = &rb_head_watches; *link != NULL; link = &(*link)->next) {
    if ((*link)->easy == easy) {
      rb_head_watch *watch = *link;
      *link = watch->next;
      free(watch);
      break;
    }
  }
  pthread_mutex_unlock(&rb_head_watches_lock);
}

__attribute__((weak)) void *curl_multi_info_read(void *multi, int *queued) {
  static void *_Atomic slot;
  void *(*read)(void *, int *) = rb_lazy_function(&rb_curl_library, &slot, "curl_multi_info_read");
  rb_curl_message *message = read(multi, queued);
  if (message != NULL && message->msg == RB_CURLMSG_DONE && message->data.result == RB_CURLE_OK) {
    pthread_mutex_lock(&rb_head_watches_lock);
    rb_head_watch *watch = rb_head_watch_of(message->easy_handle, 0);
    if (watch != NULL && atomic_load(&watch->open)) {
      message->data.result = RB_CURLE_GOT_NOTHING;
      if (watch->errors != NULL) {
        snprintf(watch->errors, RB_CURL_ERROR_SIZE, "%s",
          "the server closed the connection before the end of its answer's head");
      }
    }
    pthread_mutex_unlock(&rb_head_watches_lock);
  }
  return message;
}

#else

int rb_curl_load(char *error, unsigned long size) {
  (void)error;
  (void)size;
  return 1;
}

#endif
