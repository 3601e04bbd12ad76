// Socket, epoll and eventfd calls (and the allocator's trim) for Swift, without the parts Swift cannot import (the packed
// `epoll_event`, variadic and macro-only APIs). Effects only; every decision is made in Swift.
#ifndef CHRONOSKETCH_CNETWORK_H
#define CHRONOSKETCH_CNETWORK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/types.h>

/// Registers (or modifies, deletes) `fd` in an epoll set with a 64-bit token.
int cn_epoll_control(int epoll, int operation, int fd, uint32_t events, uint64_t token);
/// Waits for events; fills parallel arrays of tokens and event masks (at most 256 at a time).
int cn_epoll_wait(int epoll, uint64_t *tokens, uint32_t *events, int capacity, int timeout_ms);

/// Raises the soft limit of open descriptors to the hard limit.
void cn_raise_descriptor_limit(void);

/// Hands the memory the allocator holds free back to the system (glibc's `malloc_trim`, which
/// `Glibc` does not import): what a storm of closed connections freed.
void cn_release_free_memory(void);
/// Makes every thread allocate from one heap (glibc's `M_ARENA_MAX` = 1); call it before threads
/// start. Blocks freed by one thread are then reused by all, and `malloc_trim` finds the free
/// pages together: with an arena per thread, a 60-s cut left a server at twice its memory after
/// its plan was unloaded; with one, at its level before the cut.
void cn_use_one_heap_arena(void);

/// A non-blocking listening TCP socket on `host` and `port` (0: any free one); sets `bound_port`.
/// An IPv6 literal listens on IPv6, dual-stack (`::` serves IPv4 peers too); anything else (an
/// IPv4 address, or a name resolved once at start) listens on IPv4. Returns the descriptor or -1.
int cn_listen_tcp(const char *host, int port, int backlog, int *bound_port);
/// Accepts one connection, non-blocking and close-on-exec, with TCP_NODELAY; -1 with errno.
int cn_accept(int listener);
/// The peer's numeric address ("10.0.0.2", "::1") in `out`; never consults a resolver.
void cn_peer_numeric_address(int fd, char *out, size_t size);

/// A non-blocking, close-on-exec eventfd; -1 on failure.
int cn_eventfd(void);
/// Adds one to an eventfd (wakes its epoll waiter).
void cn_eventfd_signal(int fd);
/// Resets an eventfd after a wakeup.
void cn_eventfd_drain(int fd);

/// Sends without SIGPIPE; `more` says more data follows at once (MSG_MORE). -1 with errno.
ssize_t cn_send(int fd, const void *bytes, size_t count, int more);

/// Sends `first` then `second` in one call (a frame header and its payload), without SIGPIPE;
/// `more` as for `cn_send`. Returns the bytes sent (possibly fewer than both), or -1 with errno.
ssize_t cn_send2(int fd, const void *first, size_t first_count, const void *second, size_t second_count, int more);

/// Lowers the calling thread's scheduling priority to `nice` (Linux: nice is per thread).
void cn_lower_thread_priority(int nice);

/// errno, for Swift code that cannot read it reliably across calls.
int cn_errno(void);

#endif
