// Expat (Debian's libexpat1-dev) for Swift: the streaming XML parser the importers read MS
// Project XML and GanttProject files with.
#ifndef CHRONOSKETCH_CEXPAT_SHIM_H
#define CHRONOSKETCH_CEXPAT_SHIM_H

#include <expat.h>

#endif
