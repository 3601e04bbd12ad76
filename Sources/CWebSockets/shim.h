// libwebsockets for Swift: the library header plus what Swift cannot import (macros).
#ifndef CHRONOSKETCH_CWEBSOCKETS_SHIM_H
#define CHRONOSKETCH_CWEBSOCKETS_SHIM_H

#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/// The headroom lws needs before every buffer handed to `lws_write` (`LWS_PRE`).
static inline size_t cs_lws_pre(void) { return LWS_PRE; }

/// Options as plain integers (the macros are 64-bit shifts Swift does not import).
static inline uint64_t cs_option_ssl_global_init(void) { return LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT; }

/// Keeps lws quiet except for errors (the `lwsl_*` macros are not importable).
static inline void cs_lws_log_errors_only(void) { lws_set_log_level(LLL_ERR, NULL); }

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
