// libpq for Swift: the client header plus what Swift cannot import directly (macros).
#ifndef CHRONOSKETCH_CPOSTGRES_SHIM_H
#define CHRONOSKETCH_CPOSTGRES_SHIM_H

#include <libpq-fe.h>

/// The SQLSTATE field code (`PG_DIAG_SQLSTATE`) for `PQresultErrorField`.
static inline int cs_diag_sqlstate(void) { return 'C'; }
/// The primary message field code (`PG_DIAG_MESSAGE_PRIMARY`).
static inline int cs_diag_message_primary(void) { return 'M'; }
/// The severity field code, never translated (`PG_DIAG_SEVERITY_NONLOCALIZED`).
static inline int cs_diag_severity_nonlocalized(void) { return 'V'; }

#endif
