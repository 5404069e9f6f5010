// CEpoll: the Linux-only system calls HTTPServer needs that Swift's Glibc module does not
// export: <sys/epoll.h> and accept4(2). Empty on other systems (HTTPServer uses poll there).
#ifndef CEPOLL_H
#define CEPOLL_H

#ifdef __linux__
#include <sys/epoll.h>
#include <sys/socket.h>

/// accept4(2): a GNU extension, declared by <sys/socket.h> only with _GNU_SOURCE, which the
/// Glibc module is built without; defined in shim.c, which sets it.
int cepoll_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);

/// The event bits, as plain unsigned values (glibc declares them as enum constants).
static const unsigned int cepoll_in = EPOLLIN;
static const unsigned int cepoll_out = EPOLLOUT;
static const unsigned int cepoll_err = EPOLLERR;
static const unsigned int cepoll_hup = EPOLLHUP;

#if defined(__has_include)
#if __has_include(<linux/io_uring.h>)
#define CEPOLL_HAS_URING 1
#endif
#endif
#ifndef CEPOLL_HAS_URING
#define CEPOLL_HAS_URING 0
#endif

/// A submission ring used for one thing: many non-blocking socket sends in one system call
/// (`IORING_OP_SEND` with `MSG_DONTWAIT | MSG_NOSIGNAL`, each completed before the call
/// returns, with what send(2) would have returned). Opaque; one thread uses it.
typedef struct cepoll_uring cepoll_uring;

/// A ring of at least `entries` sends, or NULL with `*error` set (ENOSYS where this build
/// had no <linux/io_uring.h> or the kernel has none, EPERM under a seccomp filter, ...).
cepoll_uring *cepoll_uring_create(unsigned entries, int *error);
/// Frees the ring.
void cepoll_uring_destroy(cepoll_uring *ring);
/// How many sends fit before a submit.
unsigned cepoll_uring_capacity(const cepoll_uring *ring);
/// The ring's descriptor (for tests that make its submissions fail).
int cepoll_uring_descriptor(const cepoll_uring *ring);
/// Queues a send of `length` bytes at `bytes` to `fd`; -1 when the ring is full. The bytes
/// must stay valid until the submit returns.
int cepoll_uring_queue_send(cepoll_uring *ring, int fd, const void *bytes, unsigned length,
                            unsigned long long tag);
/// Submits every queued send and waits for their completions; how many were submitted, or
/// -errno.
int cepoll_uring_submit(cepoll_uring *ring);
/// Takes the next completion: 1 with its tag and result (bytes sent, or -errno), 0 if none.
int cepoll_uring_next(cepoll_uring *ring, unsigned long long *tag, int *result);
#endif

#endif
