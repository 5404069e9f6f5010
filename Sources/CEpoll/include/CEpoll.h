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
#endif

#endif
