/*
 * idle_conns.c: opens N TCP connections to a loopback HTTP server and keeps them open, idle,
 * so the server's memory per idle connection can be read (Benchmarks/service.sh,
 * Benchmarks/idle-connections.sh).
 *
 *   cc -O2 -o idle_conns idle_conns.c
 *   idle_conns HOST PORT N MODE PATH [PER_ADDRESS]
 *
 * MODE "request": every connection sends one keep-alive `GET PATH` and reads its whole answer
 * (status line, headers, Content-Length body), then stays open and silent.
 * MODE "silent": every connection is opened and never sends a byte.
 * PER_ADDRESS > 0 binds each run of that many connections to its own source address
 * (127.1.0.1, 127.1.0.2, ...), so a per-address connection limit is met without turning it off.
 *
 * Prints "ready N" once all are open (and answered), then reads commands from stdin:
 *   check   prints "open K": how many connections the server has not closed
 *   (end of input) closes everything and exits.
 * Only loopback targets: HOST must be a 127.x.y.z address.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

static void die(const char *what, int i) {
  fprintf(stderr, "idle_conns: %s (connection %d): %s\n", what, i, strerror(errno));
  exit(1);
}

/* Reads one whole HTTP response from fd (blocking); returns its status or -1. */
static int read_response(int fd) {
  char buf[8192];
  size_t have = 0;
  for (;;) {
    ssize_t n = recv(fd, buf + have, sizeof buf - 1 - have, 0);
    if (n <= 0) return -1;
    have += (size_t)n;
    buf[have] = 0;
    char *end = strstr(buf, "\r\n\r\n");
    if (!end) {
      if (have >= sizeof buf - 1) return -1;
      continue;
    }
    size_t head = (size_t)(end - buf) + 4;
    long length = 0;
    char *cl = strcasestr(buf, "\r\ncontent-length:");
    if (cl && cl < end) length = strtol(cl + 17, NULL, 10);
    size_t total = head + (size_t)length;
    while (have < total) {
      /* The body may be larger than the buffer: count it, keep nothing. */
      char sink[8192];
      n = recv(fd, sink, sizeof sink, 0);
      if (n <= 0) return -1;
      have += (size_t)n;
    }
    int status = 0;
    if (sscanf(buf, "HTTP/1.%*d %d", &status) != 1) return -1;
    return status;
  }
}

int main(int argc, char **argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: idle_conns HOST PORT N request|silent PATH [PER_ADDRESS]\n");
    return 64;
  }
  const char *host = argv[1];
  int port = atoi(argv[2]);
  int count = atoi(argv[3]);
  int request = strcmp(argv[4], "request") == 0;
  if (!request && strcmp(argv[4], "silent") != 0) {
    fprintf(stderr, "idle_conns: MODE must be request or silent\n");
    return 64;
  }
  const char *path = argv[5];
  int per_address = argc > 6 ? atoi(argv[6]) : 0;
  struct sockaddr_in to = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  if (inet_pton(AF_INET, host, &to.sin_addr) != 1 || (ntohl(to.sin_addr.s_addr) >> 24) != 127) {
    fprintf(stderr, "idle_conns: HOST must be a 127.x.y.z address\n");
    return 64;
  }
  struct rlimit limit;
  getrlimit(RLIMIT_NOFILE, &limit);
  if (limit.rlim_cur < (rlim_t)count + 16) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
  char req[1024];
  int req_len = snprintf(req, sizeof req, "GET %s HTTP/1.1\r\nHost: %s:%d\r\n\r\n", path, host, port);
  int *fds = calloc((size_t)count, sizeof *fds);
  for (int i = 0; i < count; i++) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) die("socket", i);
    if (per_address > 0) {
      int a = i / per_address;
      struct sockaddr_in from = {.sin_family = AF_INET};
      from.sin_addr.s_addr = htonl((127u << 24) | (1u << 16) | ((unsigned)(a / 250) << 8) | (unsigned)(a % 250 + 1));
      if (bind(fd, (struct sockaddr *)&from, sizeof from) < 0) die("bind", i);
    }
    if (connect(fd, (struct sockaddr *)&to, sizeof to) < 0) die("connect", i);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (request) {
      if (send(fd, req, (size_t)req_len, MSG_NOSIGNAL) != req_len) die("send", i);
      int status = read_response(fd);
      if (status != 200) {
        fprintf(stderr, "idle_conns: connection %d got status %d\n", i, status);
        return 1;
      }
    }
    fds[i] = fd;
  }
  printf("ready %d\n", count);
  fflush(stdout);
  char line[64];
  while (fgets(line, sizeof line, stdin)) {
    if (strncmp(line, "check", 5) != 0) continue;
    int open = 0;
    for (int i = 0; i < count; i++) {
      struct pollfd p = {.fd = fds[i], .events = POLLIN};
      /* Readable on an idle connection means the server closed it (or wrote): not open. */
      if (poll(&p, 1, 0) == 0) open++;
    }
    printf("open %d\n", open);
    fflush(stdout);
  }
  for (int i = 0; i < count; i++) close(fds[i]);
  return 0;
}
