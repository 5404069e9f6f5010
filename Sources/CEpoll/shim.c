// See include/CEpoll.h.
#ifdef __linux__
#define _GNU_SOURCE
#include <sys/socket.h>

#include "CEpoll.h"

int cepoll_accept4(int fd, struct sockaddr *address, socklen_t *length, int flags) {
  return accept4(fd, address, length, flags);
}
#else
// Other systems need nothing from this target; keep the translation unit non-empty.
typedef int cepoll_unused;
#endif
