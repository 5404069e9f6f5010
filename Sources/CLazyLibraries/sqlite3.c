// SQLite's functions as VoteStore calls them, loaded on first use (see CLazyLibraries.h).
#include "CLazyLibraries.h"

#if defined(__linux__)
#include <sqlite3.h>

RB_LAZY_LIBRARY(
  rb_sqlite3_library, "ROADMAPBRIDGE_SQLITE_LIBRARY", "SQLite", "libsqlite3-0",
  "libsqlite3.so.0", "libsqlite3.so");

int rb_sqlite3_load(char *error, size_t size) {
  return rb_lazy_load(&rb_sqlite3_library, error, size);
}

// clang-format off
RB_LAZY_FORWARD(rb_sqlite3_library, int, sqlite3_open_v2,
  (const char *filename, sqlite3 **db, int flags, const char *vfs), (filename, db, flags, vfs))
RB_LAZY_FORWARD(rb_sqlite3_library, int, sqlite3_close_v2, (sqlite3 *db), (db))
RB_LAZY_FORWARD(rb_sqlite3_library, const char *, sqlite3_errmsg, (sqlite3 *db), (db))
RB_LAZY_FORWARD(rb_sqlite3_library, const char *, sqlite3_errstr, (int code), (code))
RB_LAZY_FORWARD(rb_sqlite3_library, int, sqlite3_extended_result_codes,
  (sqlite3 *db, int onoff), (db, onoff))
RB_LAZY_FORWARD(rb_sqlite3_library, int, sqlite3_busy_timeout, (sqlite3 *db, int ms), (db, ms))
RB_LAZY_FORWARD(rb_sqlite3_library, const char *, sqlite3_libversion, (void), ())
RB_LAZY_FORWARD(rb_sqlite3_library, int, sqlite3_exec,
  (sqlite3 *db, const char *sql, int (*callback)(void *, int, char **, char **), void *argument,
   char **message),
  (db, sql, callback, argument, message))
RB_LAZY_FORWARD(rb_sqlite3_library, int, sqlite3_prepare_v3,
  (sqlite3 *db, const char *sql, int bytes, unsigned int flags, sqlite3_stmt **statement,
   const char **tail),
  (db, sql, bytes, flags, statement, tail))
RB_LAZY_FORWARD(rb_sqlite3_library, int, sqlite3_step, (sqlite3_stmt *statement), (statement))
RB_LAZY_FORWARD(rb_sqlite3_library, int, sqlite3_reset, (sqlite3_stmt *statement), (statement))
RB_LAZY_FORWARD(rb_sqlite3_library, int, sqlite3_finalize, (sqlite3_stmt *statement),
  (statement))
RB_LAZY_FORWARD(rb_sqlite3_library, int, sqlite3_clear_bindings, (sqlite3_stmt *statement),
  (statement))
RB_LAZY_FORWARD(rb_sqlite3_library, int, sqlite3_bind_text,
  (sqlite3_stmt *statement, int index, const char *text, int bytes, void (*destructor)(void *)),
  (statement, index, text, bytes, destructor))
RB_LAZY_FORWARD(rb_sqlite3_library, int, sqlite3_bind_int64,
  (sqlite3_stmt *statement, int index, sqlite3_int64 value), (statement, index, value))
RB_LAZY_FORWARD(rb_sqlite3_library, int, sqlite3_bind_null, (sqlite3_stmt *statement, int index),
  (statement, index))
RB_LAZY_FORWARD(rb_sqlite3_library, int, sqlite3_column_count, (sqlite3_stmt *statement),
  (statement))
RB_LAZY_FORWARD(rb_sqlite3_library, int, sqlite3_column_type,
  (sqlite3_stmt *statement, int column), (statement, column))
RB_LAZY_FORWARD(rb_sqlite3_library, const unsigned char *, sqlite3_column_text,
  (sqlite3_stmt *statement, int column), (statement, column))
RB_LAZY_FORWARD(rb_sqlite3_library, sqlite3_int64, sqlite3_column_int64,
  (sqlite3_stmt *statement, int column), (statement, column))
RB_LAZY_FORWARD(rb_sqlite3_library, int, sqlite3_column_bytes,
  (sqlite3_stmt *statement, int column), (statement, column))
RB_LAZY_FORWARD(rb_sqlite3_library, int, sqlite3_changes, (sqlite3 *db), (db))
RB_LAZY_FORWARD(rb_sqlite3_library, sqlite3_int64, sqlite3_last_insert_rowid, (sqlite3 *db),
  (db))
RB_LAZY_FORWARD(rb_sqlite3_library, int, sqlite3_get_autocommit, (sqlite3 *db), (db))
RB_LAZY_FORWARD(rb_sqlite3_library, int, sqlite3_file_control,
  (sqlite3 *db, const char *name, int operation, void *argument),
  (db, name, operation, argument))
RB_LAZY_FORWARD(rb_sqlite3_library, void *, sqlite3_wal_hook,
  (sqlite3 *db, int (*hook)(void *, sqlite3 *, const char *, int), void *argument),
  (db, hook, argument))
RB_LAZY_FORWARD(rb_sqlite3_library, void *, sqlite3_update_hook,
  (sqlite3 *db, void (*hook)(void *, int, const char *, const char *, sqlite3_int64),
   void *argument),
  (db, hook, argument))
// clang-format on

#endif  // elsewhere the loaders are in lazy.c
