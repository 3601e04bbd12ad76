// OpenSSL for Swift: the library headers plus what Swift cannot import (macro-only settings).
#ifndef CHRONOSKETCH_COPENSSL_SHIM_H
#define CHRONOSKETCH_COPENSSL_SHIM_H

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <stdio.h>

/// A server context for TLS 1.2 and later with this certificate chain and key (PEM files), writes
/// that may be partial and may move between retries (non-blocking sockets). NULL on failure, with
/// the reason in `error` (at least 256 bytes).
static inline SSL_CTX *cs_ssl_server_context(const char *certificate, const char *key, char *error, size_t size) {
    SSL_CTX *context = SSL_CTX_new(TLS_server_method());
    if (context == NULL) {
        snprintf(error, size, "cannot create a TLS context");
        return NULL;
    }
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    SSL_CTX_set_options(context, SSL_OP_NO_RENEGOTIATION);
    if (SSL_CTX_use_certificate_chain_file(context, certificate) != 1) {
        snprintf(error, size, "cannot read the certificate %s", certificate);
    } else if (SSL_CTX_use_PrivateKey_file(context, key, SSL_FILETYPE_PEM) != 1) {
        snprintf(error, size, "cannot read the private key %s", key);
    } else if (SSL_CTX_check_private_key(context) != 1) {
        snprintf(error, size, "the private key does not match the certificate");
    } else {
        return context;
    }
    SSL_CTX_free(context);
    return NULL;
}

/// Clears this thread's OpenSSL error queue (after a failed call, before the next one).
static inline void cs_ssl_clear_errors(void) { ERR_clear_error(); }

#endif
