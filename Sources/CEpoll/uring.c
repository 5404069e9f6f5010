// A minimal io_uring for one purpose: many socket sends in one system call (see uring.h).
#ifdef __linux__
#define _GNU_SOURCE
#include "include/CEpoll.h"

#if CEPOLL_HAS_URING
#include <errno.h>
#include <linux/io_uring.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

struct cepoll_uring {
  int fd;
  unsigned entries;
  unsigned queued;
  unsigned *sq_head, *sq_tail, *sq_mask, *sq_array;
  unsigned *cq_head, *cq_tail, *cq_mask;
  struct io_uring_sqe *sqes;
  struct io_uring_cqe *cqes;
  void *sq_ring;
  size_t sq_ring_size;
  void *cq_ring;
  size_t cq_ring_size;
  size_t sqes_size;
};

/* Whether the ring's kernel supports IORING_OP_SEND (IORING_REGISTER_PROBE). */
static int cepoll_uring_sends(int fd) {
  size_t size = sizeof(struct io_uring_probe) + 256 * sizeof(struct io_uring_probe_op);
  struct io_uring_probe *probe = calloc(1, size);
  if (!probe) return 0;
  int supported = 0;
  if (syscall(__NR_io_uring_register, fd, IORING_REGISTER_PROBE, probe, 256) == 0 &&
      probe->last_op >= IORING_OP_SEND) {
    supported = (probe->ops[IORING_OP_SEND].flags & IO_URING_OP_SUPPORTED) != 0;
  }
  free(probe);
  return supported;
}

cepoll_uring *cepoll_uring_create(unsigned entries, int *error) {
  struct io_uring_params params;
  memset(&params, 0, sizeof params);
  int fd = (int)syscall(__NR_io_uring_setup, entries, &params);
  if (fd < 0) {
    *error = errno;
    return NULL;
  }
  // Sends are relied on to finish inside the submission when told not to wait
  // (MSG_DONTWAIT), which kernels have done well before 5.12 (native workers); an older
  // kernel, or one without IORING_OP_SEND, is not used.
  if (!(params.features & IORING_FEAT_NATIVE_WORKERS) || !cepoll_uring_sends(fd)) {
    close(fd);
    *error = ENOSYS;
    return NULL;
  }
  cepoll_uring *ring = calloc(1, sizeof *ring);
  if (!ring) {
    close(fd);
    *error = ENOMEM;
    return NULL;
  }
  ring->fd = fd;
  ring->entries = params.sq_entries;
  ring->sq_ring_size = params.sq_off.array + params.sq_entries * sizeof(unsigned);
  ring->cq_ring_size = params.cq_off.cqes + params.cq_entries * sizeof(struct io_uring_cqe);
  int single = (params.features & IORING_FEAT_SINGLE_MMAP) != 0;
  if (single) {
    if (ring->cq_ring_size > ring->sq_ring_size) ring->sq_ring_size = ring->cq_ring_size;
    ring->cq_ring_size = ring->sq_ring_size;
  }
  ring->sq_ring = mmap(NULL, ring->sq_ring_size, PROT_READ | PROT_WRITE,
                       MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQ_RING);
  if (ring->sq_ring == MAP_FAILED) goto fail;
  ring->cq_ring = single ? ring->sq_ring
                         : mmap(NULL, ring->cq_ring_size, PROT_READ | PROT_WRITE,
                                MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_CQ_RING);
  if (ring->cq_ring == MAP_FAILED) goto fail;
  ring->sqes_size = params.sq_entries * sizeof(struct io_uring_sqe);
  ring->sqes = mmap(NULL, ring->sqes_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
                    fd, IORING_OFF_SQES);
  if (ring->sqes == MAP_FAILED) goto fail;
  char *sq = ring->sq_ring, *cq = ring->cq_ring;
  ring->sq_head = (unsigned *)(sq + params.sq_off.head);
  ring->sq_tail = (unsigned *)(sq + params.sq_off.tail);
  ring->sq_mask = (unsigned *)(sq + params.sq_off.ring_mask);
  ring->sq_array = (unsigned *)(sq + params.sq_off.array);
  ring->cq_head = (unsigned *)(cq + params.cq_off.head);
  ring->cq_tail = (unsigned *)(cq + params.cq_off.tail);
  ring->cq_mask = (unsigned *)(cq + params.cq_off.ring_mask);
  ring->cqes = (struct io_uring_cqe *)(cq + params.cq_off.cqes);
  return ring;
fail:
  *error = errno;
  cepoll_uring_destroy(ring);
  return NULL;
}

void cepoll_uring_destroy(cepoll_uring *ring) {
  if (!ring) return;
  if (ring->sqes && ring->sqes != MAP_FAILED) munmap(ring->sqes, ring->sqes_size);
  if (ring->cq_ring && ring->cq_ring != MAP_FAILED && ring->cq_ring != ring->sq_ring)
    munmap(ring->cq_ring, ring->cq_ring_size);
  if (ring->sq_ring && ring->sq_ring != MAP_FAILED) munmap(ring->sq_ring, ring->sq_ring_size);
  close(ring->fd);
  free(ring);
}

unsigned cepoll_uring_capacity(const cepoll_uring *ring) { return ring->entries; }

int cepoll_uring_descriptor(const cepoll_uring *ring) { return ring->fd; }

int cepoll_uring_queue_send(cepoll_uring *ring, int fd, const void *bytes, unsigned length,
                            unsigned long long tag) {
  if (ring->queued >= ring->entries) return -1;
  unsigned tail = *ring->sq_tail;
  unsigned index = tail & *ring->sq_mask;
  struct io_uring_sqe *sqe = &ring->sqes[index];
  memset(sqe, 0, sizeof *sqe);
  sqe->opcode = IORING_OP_SEND;
  sqe->fd = fd;
  sqe->addr = (unsigned long long)(uintptr_t)bytes;
  sqe->len = length;
  // Never wait for room: a full socket answers EAGAIN at once, as send(2) would.
  sqe->msg_flags = MSG_DONTWAIT | MSG_NOSIGNAL;
  sqe->user_data = tag;
  ring->sq_array[index] = index;
  __atomic_store_n(ring->sq_tail, tail + 1, __ATOMIC_RELEASE);
  ring->queued += 1;
  return 0;
}

int cepoll_uring_submit(cepoll_uring *ring) {
  unsigned count = ring->queued;
  if (count == 0) return 0;
  for (;;) {
    long done = syscall(__NR_io_uring_enter, ring->fd, count, count, IORING_ENTER_GETEVENTS,
                        NULL, 0);
    if (done >= 0) {
      ring->queued -= (unsigned)done < count ? (unsigned)done : count;
      return (int)done;
    }
    if (errno != EINTR) return -errno;
  }
}

int cepoll_uring_next(cepoll_uring *ring, unsigned long long *tag, int *result) {
  unsigned head = *ring->cq_head;
  if (head == __atomic_load_n(ring->cq_tail, __ATOMIC_ACQUIRE)) return 0;
  struct io_uring_cqe *cqe = &ring->cqes[head & *ring->cq_mask];
  *tag = cqe->user_data;
  *result = cqe->res;
  __atomic_store_n(ring->cq_head, head + 1, __ATOMIC_RELEASE);
  return 1;
}
#else
#include <errno.h>
#include <stddef.h>
cepoll_uring *cepoll_uring_create(unsigned entries, int *error) {
  (void)entries;
  *error = ENOSYS;
  return NULL;
}
void cepoll_uring_destroy(cepoll_uring *ring) { (void)ring; }
unsigned cepoll_uring_capacity(const cepoll_uring *ring) { (void)ring; return 0; }
int cepoll_uring_descriptor(const cepoll_uring *ring) { (void)ring; return -1; }
int cepoll_uring_queue_send(cepoll_uring *ring, int fd, const void *bytes, unsigned length,
                            unsigned long long tag) {
  (void)ring; (void)fd; (void)bytes; (void)length; (void)tag;
  return -1;
}
int cepoll_uring_submit(cepoll_uring *ring) { (void)ring; return -ENOSYS; }
int cepoll_uring_next(cepoll_uring *ring, unsigned long long *tag, int *result) {
  (void)ring; (void)tag; (void)result;
  return 0;
}
#endif
#endif
