#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H

// SwiftPM drops pkg-config's -D_XOPEN_SOURCE: ask for the wide-character API explicitly.
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <ncursesw/curses.h>
#include <poll.h>
#include <sys/eventfd.h>

// The mouse through ncurses (where the terminal's `kmous` lets it decode the reports): presses,
// releases and motion reported at once (no click resolution), and the wheel.
static inline void cn_enable_mouse(void) {
    mouseinterval(0);
    mousemask(ALL_MOUSE_EVENTS | REPORT_MOUSE_POSITION, NULL);
}

/// The mouse event ncurses decoded after KEY_MOUSE, at (*x, *y): 1 a left press, 2 a left
/// release, 3 motion, 4 wheel up, 5 wheel down, 6 a left click (press and release); 0 none.
static inline int cn_mouse_event(int *x, int *y) {
    MEVENT event;
    if (getmouse(&event) != OK) return 0;
    *x = event.x;
    *y = event.y;
    mmask_t state = event.bstate;
    if (state & REPORT_MOUSE_POSITION) return 3;
    if (state & BUTTON4_PRESSED) return 4;
#ifdef BUTTON5_PRESSED
    if (state & BUTTON5_PRESSED) return 5;
#endif
    if (state & BUTTON1_PRESSED) return 1;
    if (state & BUTTON1_RELEASED) return 2;
    if (state & BUTTON1_CLICKED) return 6;
    return 0;
}

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
