// libwebsockets for Swift: the library header plus what Swift cannot import (macros).
#ifndef CHRONOSKETCH_CWEBSOCKETS_SHIM_H
#define CHRONOSKETCH_CWEBSOCKETS_SHIM_H

#include <libwebsockets.h>

/// The headroom lws needs before every buffer handed to `lws_write` (`LWS_PRE`).
static inline size_t cs_lws_pre(void) { return LWS_PRE; }

/// Server options as plain integers (the macros are 64-bit shifts Swift does not import).
static inline uint64_t cs_option_validate_utf8(void) { return LWS_SERVER_OPTION_VALIDATE_UTF8; }
static inline uint64_t cs_option_ssl_global_init(void) { return LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT; }
static inline uint64_t cs_option_disable_ipv6(void) { return LWS_SERVER_OPTION_DISABLE_IPV6; }

/// Keeps lws quiet except for errors (the `lwsl_*` macros are not importable).
static inline void cs_lws_log_errors_only(void) { lws_set_log_level(LLL_ERR, NULL); }

#endif
