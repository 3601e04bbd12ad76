// libwebsockets for Swift: the library header plus what Swift cannot import (macros).
#ifndef CHRONOSKETCH_CWEBSOCKETS_SHIM_H
#define CHRONOSKETCH_CWEBSOCKETS_SHIM_H

#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <unistd.h>

/// The headroom lws needs before every buffer handed to `lws_write` (`LWS_PRE`).
static inline size_t cs_lws_pre(void) { return LWS_PRE; }

/// Server options as plain integers (the macros are 64-bit shifts Swift does not import).
static inline uint64_t cs_option_ssl_global_init(void) { return LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT; }
static inline uint64_t cs_option_disable_ipv6(void) { return LWS_SERVER_OPTION_DISABLE_IPV6; }

/// epoll without its packed `epoll_event` (which Swift cannot import faithfully): a descriptor is
/// registered with a 64-bit token, and waiting fills parallel arrays of tokens and event masks.
static inline int cs_epoll_control(int epoll, int operation, int fd, uint32_t events, uint64_t token) {
    struct epoll_event event = {.events = events, .data = {.u64 = token}};
    return epoll_ctl(epoll, operation, fd, &event);
}
static inline int cs_epoll_wait(int epoll, uint64_t *tokens, uint32_t *events, int capacity, int timeout_ms) {
    struct epoll_event ready[256];
    if (capacity > 256) capacity = 256;
    int count = epoll_wait(epoll, ready, capacity, timeout_ms);
    for (int index = 0; index < count; index++) {
        tokens[index] = ready[index].data.u64;
        events[index] = ready[index].events;
    }
    return count;
}

/// The `Sec-WebSocket-Accept` value for a `Sec-WebSocket-Key` (RFC 6455 §4.2.2), NUL-terminated
/// in `out` (at least 29 bytes); returns its length.
static inline int cs_websocket_accept(const char *key, char *out, int out_size) {
    char joined[128];
    unsigned char digest[20];
    int length = snprintf(joined, sizeof joined, "%s258EAFA5-E914-47DA-95CA-C5AB0DC85B11", key);
    if (length <= 0 || length >= (int)sizeof joined) return -1;
    lws_SHA1((const unsigned char *)joined, (size_t)length, digest);
    return lws_b64_encode_string((const char *)digest, 20, out, out_size);
}

/// The peer's numeric address of a connected socket ("10.0.0.2", "::1") in `out`, NUL-terminated;
/// "?" when it cannot be read. Never consults a resolver: `getpeername` and `inet_ntop` only
/// (lws_get_peer_addresses looks the name up, blocking the calling thread on DNS).
static inline void cs_peer_numeric_address(int fd, char *out, size_t size) {
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    const char *text = NULL;
    if (size == 0) return;
    out[0] = 0;
    if (getpeername(fd, (struct sockaddr *)&address, &length) == 0) {
        if (address.ss_family == AF_INET)
            text = inet_ntop(AF_INET, &((struct sockaddr_in *)&address)->sin_addr, out, (socklen_t)size);
        else if (address.ss_family == AF_INET6)
            text = inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&address)->sin6_addr, out, (socklen_t)size);
    }
    if (text == NULL) snprintf(out, size, "?");
}

/// Keeps lws quiet except for errors (the `lwsl_*` macros are not importable).
static inline void cs_lws_log_errors_only(void) { lws_set_log_level(LLL_ERR, NULL); }

/// Raises the soft limit of open descriptors to the hard limit (lws sizes its tables from it
/// when a context is created).
static inline void cs_raise_descriptor_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
}

/// A listening IPv4 TCP socket on `host` (a name or address) and `port` (0: any free one), for
/// transports that accept connections themselves and hand them to lws contexts. Returns the
/// descriptor and sets `bound_port`, or returns -1.
static inline int cs_listen_tcp(const char *host, int port, int backlog, int *bound_port) {
    struct addrinfo hints, *found = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    if (getaddrinfo(host, service, &hints, &found) != 0 || found == NULL) return -1;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd >= 0) fcntl(fd, F_SETFD, FD_CLOEXEC);
    int on = 1;
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0
        || bind(fd, found->ai_addr, found->ai_addrlen) != 0 || listen(fd, backlog) != 0) {
        if (fd >= 0) close(fd);
        freeaddrinfo(found);
        return -1;
    }
    freeaddrinfo(found);
    struct sockaddr_in address;
    socklen_t length = sizeof address;
    if (getsockname(fd, (struct sockaddr *)&address, &length) != 0) {
        close(fd);
        return -1;
    }
    *bound_port = ntohs(address.sin_port);
    return fd;
}

/// Accepts a connection on a listening socket with what lws's own listener would set: close on
/// exec, and no Nagle delay (a small answer must not wait for the peer's delayed ACK). Returns
/// the descriptor, or -1 with `errno` set.
static inline int cs_accept(int listener) {
    int fd = accept(listener, NULL, NULL);
    if (fd < 0) return -1;
    int on = 1;
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    return fd;
}

/// A protocol table of one protocol and the terminating entry, owning a copy of the name; it must
/// outlive the context. Free it with `cs_free_protocols`.
static inline struct lws_protocols *cs_make_protocols(const char *name, lws_callback_function *callback,
                                                      size_t per_session_data_size, size_t rx_buffer_size) {
    struct lws_protocols *table = calloc(2, sizeof *table);
    table[0].name = strdup(name);
    table[0].callback = callback;
    table[0].per_session_data_size = per_session_data_size;
    table[0].rx_buffer_size = rx_buffer_size;
    return table;
}

/// Frees a table made by `cs_make_protocols`.
static inline void cs_free_protocols(struct lws_protocols *table) {
    if (table) {
        free((void *)table[0].name);
        free(table);
    }
}

#endif
