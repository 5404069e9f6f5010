// libpq's functions as VoteStore calls them, loaded on first use (see CLazyLibraries.h).
#include "CLazyLibraries.h"

#if defined(__linux__)
#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#else
#include <postgresql/libpq-fe.h>
#endif

RB_LAZY_LIBRARY(
  rb_pq_library, "ROADMAPBRIDGE_PQ_LIBRARY", "libpq", "libpq5", "libpq.so.5", "libpq.so");

int rb_pq_load(char *error, size_t size) { return rb_lazy_load(&rb_pq_library, error, size); }

// clang-format off
RB_LAZY_FORWARD(rb_pq_library, PGconn *, PQconnectdbParams,
  (const char *const *keywords, const char *const *values, int expand), (keywords, values, expand))
RB_LAZY_FORWARD(rb_pq_library, PGconn *, PQconnectStartParams,
  (const char *const *keywords, const char *const *values, int expand), (keywords, values, expand))
RB_LAZY_FORWARD(rb_pq_library, PostgresPollingStatusType, PQconnectPoll, (PGconn *connection),
  (connection))
RB_LAZY_FORWARD(rb_pq_library, PQconninfoOption *, PQconninfoParse,
  (const char *conninfo, char **errmsg), (conninfo, errmsg))
RB_LAZY_FORWARD_VOID(rb_pq_library, PQconninfoFree, (PQconninfoOption *options), (options))
RB_LAZY_FORWARD_VOID(rb_pq_library, PQfreemem, (void *pointer), (pointer))
RB_LAZY_FORWARD_VOID(rb_pq_library, PQfinish, (PGconn *connection), (connection))
RB_LAZY_FORWARD(rb_pq_library, ConnStatusType, PQstatus, (const PGconn *connection),
  (connection))
RB_LAZY_FORWARD(rb_pq_library, char *, PQerrorMessage, (const PGconn *connection), (connection))
RB_LAZY_FORWARD(rb_pq_library, PGTransactionStatusType, PQtransactionStatus,
  (const PGconn *connection), (connection))
RB_LAZY_FORWARD(rb_pq_library, PQnoticeProcessor, PQsetNoticeProcessor,
  (PGconn *connection, PQnoticeProcessor processor, void *argument),
  (connection, processor, argument))
RB_LAZY_FORWARD(rb_pq_library, int, PQsocket, (const PGconn *connection), (connection))
RB_LAZY_FORWARD(rb_pq_library, int, PQsetnonblocking, (PGconn *connection, int argument),
  (connection, argument))
RB_LAZY_FORWARD(rb_pq_library, int, PQflush, (PGconn *connection), (connection))
RB_LAZY_FORWARD(rb_pq_library, int, PQconsumeInput, (PGconn *connection), (connection))
RB_LAZY_FORWARD(rb_pq_library, int, PQisBusy, (PGconn *connection), (connection))
RB_LAZY_FORWARD(rb_pq_library, int, PQsendQuery, (PGconn *connection, const char *query),
  (connection, query))
RB_LAZY_FORWARD(rb_pq_library, int, PQsendPrepare,
  (PGconn *connection, const char *name, const char *query, int count, const Oid *types),
  (connection, name, query, count, types))
RB_LAZY_FORWARD(rb_pq_library, int, PQsendQueryPrepared,
  (PGconn *connection, const char *name, int count, const char *const *values,
   const int *lengths, const int *formats, int resultFormat),
  (connection, name, count, values, lengths, formats, resultFormat))
RB_LAZY_FORWARD(rb_pq_library, PGresult *, PQgetResult, (PGconn *connection), (connection))
RB_LAZY_FORWARD_VOID(rb_pq_library, PQclear, (PGresult *result), (result))
RB_LAZY_FORWARD(rb_pq_library, ExecStatusType, PQresultStatus, (const PGresult *result),
  (result))
RB_LAZY_FORWARD(rb_pq_library, char *, PQresultErrorMessage, (const PGresult *result), (result))
RB_LAZY_FORWARD(rb_pq_library, char *, PQresultErrorField, (const PGresult *result, int field),
  (result, field))
RB_LAZY_FORWARD(rb_pq_library, int, PQntuples, (const PGresult *result), (result))
RB_LAZY_FORWARD(rb_pq_library, int, PQnfields, (const PGresult *result), (result))
RB_LAZY_FORWARD(rb_pq_library, char *, PQgetvalue, (const PGresult *result, int row, int field),
  (result, row, field))
RB_LAZY_FORWARD(rb_pq_library, int, PQgetisnull, (const PGresult *result, int row, int field),
  (result, row, field))
RB_LAZY_FORWARD(rb_pq_library, char *, PQcmdTuples, (PGresult *result), (result))
// clang-format on

#endif  // elsewhere the loaders are in lazy.c
