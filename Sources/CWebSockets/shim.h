// libwebsockets for Swift: the library header plus what Swift cannot import (macros).
#ifndef CHRONOSKETCH_CWEBSOCKETS_SHIM_H
#define CHRONOSKETCH_CWEBSOCKETS_SHIM_H

#include <ev.h>
#include <libwebsockets.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/// The headroom lws needs before every buffer handed to `lws_write` (`LWS_PRE`).
static inline size_t cs_lws_pre(void) { return LWS_PRE; }

/// Server options as plain integers (the macros are 64-bit shifts Swift does not import).
static inline uint64_t cs_option_validate_utf8(void) { return LWS_SERVER_OPTION_VALIDATE_UTF8; }
static inline uint64_t cs_option_ssl_global_init(void) { return LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT; }
static inline uint64_t cs_option_disable_ipv6(void) { return LWS_SERVER_OPTION_DISABLE_IPV6; }

/// lws on a libev loop (epoll) instead of its own poll() over every descriptor: a context
/// created with `cs_option_libev` and `foreign_loops` pointing at a loop from `cs_ev_loop_new`
/// is served by calling `cs_ev_run_once` until it is destroyed.
static inline uint64_t cs_option_libev(void) { return LWS_SERVER_OPTION_LIBEV; }
/// A new libev loop on epoll (nil when epoll is unavailable).
static inline void *cs_ev_loop_new(void) { return ev_loop_new(EVBACKEND_EPOLL | EVFLAG_NOENV); }
/// Waits for and serves one round of events.
static inline void cs_ev_run_once(void *loop) { ev_run((struct ev_loop *)loop, EVRUN_ONCE); }
/// Frees a loop made by `cs_ev_loop_new` (after the context using it is destroyed).
static inline void cs_ev_loop_destroy(void *loop) { ev_loop_destroy((struct ev_loop *)loop); }

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
