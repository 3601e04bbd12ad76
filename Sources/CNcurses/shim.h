#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H

// SwiftPM drops pkg-config's -D_XOPEN_SOURCE: ask for the wide-character API explicitly.
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <ncursesw/curses.h>
#include <poll.h>
#include <sys/eventfd.h>

// C globals and macros Swift cannot use directly.
static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline int cn_lines(void) { return LINES; }
static inline int cn_cols(void) { return COLS; }
static inline int cn_attr_bold(void) { return (int)A_BOLD; }
static inline int cn_attr_reverse(void) { return (int)A_REVERSE; }
static inline int cn_attr_dim(void) { return (int)A_DIM; }
static inline int cn_attr_underline(void) { return (int)A_UNDERLINE; }
static inline int cn_key_f(int n) { return KEY_F(n); }
static inline int cn_color_pair(int n) { return (int)COLOR_PAIR(n); }

/// Starts colours when the terminal has them, on its default colours (-1 in a pair). Returns
/// how many colours it shows (0: none).
static inline int cn_start_colors(void) {
    if (!has_colors()) return 0;
    start_color();
    use_default_colors();
    return COLORS;
}

/// How many colour pairs the terminal has.
static inline int cn_color_pairs(void) { return COLOR_PAIRS; }

/// Defines colour pair `pair` (-1: the terminal's default colour).
static inline void cn_init_pair(int pair, int foreground, int background) {
    init_pair((short)pair, (short)foreground, (short)background);
}

/// wcwidth(3): glibc declares it only under _XOPEN_SOURCE, which SwiftPM drops (see above).
extern int wcwidth(wchar_t c);

/// The cells a scalar takes under the calling thread's LC_CTYPE (-1: not printable).
static inline int cn_wcwidth(unsigned int scalar) { return wcwidth((wchar_t)scalar); }

/// Writes a UTF-8 string at (y, x) with attributes, clipped by ncurses at the right edge.
static inline void cn_put(int y, int x, const char *utf8, int attributes) {
    attrset(attributes);
    mvaddstr(y, x, utf8);
    attrset(A_NORMAL);
}

#endif
