// zlib for Swift: the library's header plus what Swift cannot import directly (the init macros,
// which pass the library's version and the stream's size).
#ifndef CHRONOSKETCH_CZLIB_SHIM_H
#define CHRONOSKETCH_CZLIB_SHIM_H

#include <zlib.h>

/// `deflateInit2` for the gzip format (RFC 1952): a 32 KiB window plus 16 asks for the gzip
/// wrapper (a header without name or time, so equal input gives equal output), memory level 9.
static inline int cz_deflate_init_gzip(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
}

/// `inflateInit2` for the gzip format only (a 32 KiB window plus 16).
static inline int cz_inflate_init_gzip(z_streamp stream) {
    return inflateInit2(stream, 15 + 16);
}

#endif
