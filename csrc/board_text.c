/* Board files read in one pass, for the bulk readers of plain files (cardlab.pbn, cardlab.bridge.lin).
 *
 * pbn_scan reads a text whose every game is in the plain form: lines of one tag each
 * ([ \t]*[Name[ \t]+"value"[ \t]*][ \t]*, the value without a quote, a backslash or a control
 * character but the tab), games separated by blank lines (spaces and tabs only), '%' escape
 * lines between games; each game has one Board tag whose value is a plain number (1 to 9
 * digits, no leading zero) and one Deal tag in the plain form (plain_pbn_deal, deal.h).  For
 * each game it gives the number, the deal's owners, where the game and the two values are,
 * and its kind: the first game of the text whose text without the two values is the same (so
 * the caller reads the other tags once a kind).  At the first thing outside that form (a
 * comment, a data line, several tags on a line, a byte outside printable ASCII, a second
 * Board or Deal, a game without one) it returns -1 and reads nothing: the caller's other
 * readers then take the text, and give their errors with line numbers.
 *
 * lin_scan reads a LIN text whose every line is blank or one board as BBO writes it (see
 * lin_line), the dealer and vulnerability those of its number; -1 at anything else.
 * The GIL is released while they scan.
 */
#include "core.h"
#include "deal.h"

#include <string.h>

/* A game as found: where its first tag line starts and its last one ends, and its Board and
 * Deal values (start, end; -1 while not found). */
typedef struct {
    Py_ssize_t start, end, board[2], deal[2];
} game_t;

/* The three pieces of a game's text around its two values, in text order. */
static void pieces(const game_t *g, Py_ssize_t cut[6])
{
    const Py_ssize_t *first = g->board[0] < g->deal[0] ? g->board : g->deal;
    const Py_ssize_t *second = first == g->board ? g->deal : g->board;
    cut[0] = g->start, cut[1] = first[0], cut[2] = first[1], cut[3] = second[0], cut[4] = second[1];
    cut[5] = g->end;
}

static uint64_t mix(uint64_t h, uint64_t word)
{
    h ^= word;
    h *= 0x9E3779B97F4A7C15ULL;
    return h ^ (h >> 29);
}

/* A hash of a game's text without its two values (each piece hashed with its length). */
static uint64_t kind_hash(const unsigned char *t, const Py_ssize_t cut[6])
{
    uint64_t h = 0x243F6A8885A308D3ULL;
    for (int k = 0; k < 6; k += 2) {
        const unsigned char *p = t + cut[k];
        Py_ssize_t left = cut[k + 1] - cut[k];
        h = mix(h, (uint64_t)left);
        for (; left >= 8; left -= 8, p += 8) {
            uint64_t word;
            memcpy(&word, p, 8);
            h = mix(h, word);
        }
        uint64_t tail = 0;
        memcpy(&tail, p, (size_t)left);
        h = mix(h, tail);
    }
    return h;
}

static int same_kind(const unsigned char *t, const Py_ssize_t a[6], const Py_ssize_t b[6])
{
    for (int k = 0; k < 6; k += 2)
        if (a[k + 1] - a[k] != b[k + 1] - b[k] || memcmp(t + a[k], t + b[k], (size_t)(a[k + 1] - a[k])) != 0)
            return 0;
    return 1;
}

/* The board number of a value: 1 to 9 digits, no leading zero; 0 for anything else. */
static int64_t plain_number(const unsigned char *p, Py_ssize_t len)
{
    if (len < 1 || len > 9 || *p < '1' || *p > '9')
        return 0;
    int64_t n = 0;
    for (Py_ssize_t i = 0; i < len; i++) {
        if (p[i] < '0' || p[i] > '9')
            return 0;
        n = n * 10 + (p[i] - '0');
    }
    return n;
}

/* Where the scan writes: n games at most; the kinds' hash table (size a power of two) and each
 * game's pieces, kept apart from the caller's buffers (only ever written here, never read back). */
typedef struct {
    Py_ssize_t n;
    unsigned char *numbers, *owner, *kinds, *spans;
    int32_t *table;
    uint64_t *hashes;
    Py_ssize_t size, *cuts;
} out_t;

/* The game g ends: checked, read and given its kind. 0 when it is not a plain game. */
static int finish(const unsigned char *t, const game_t *g, Py_ssize_t index, out_t *o)
{
    if (g->board[0] < 0 || g->deal[0] < 0 || index >= o->n)
        return 0;
    const int64_t number = plain_number(t + g->board[0], g->board[1] - g->board[0]);
    if (number == 0 || !plain_pbn_deal(t + g->deal[0], t + g->deal[1], o->owner + 52 * index))
        return 0;
    Py_ssize_t *cut = o->cuts + 6 * index;
    pieces(g, cut);
    const int64_t span[6] = {g->start, g->end, g->board[0], g->board[1], g->deal[0], g->deal[1]};
    memcpy(o->numbers + 8 * index, &number, 8);
    memcpy(o->spans + 48 * index, span, sizeof span);
    const uint64_t h = kind_hash(t, cut);
    Py_ssize_t slot = (Py_ssize_t)(h & (uint64_t)(o->size - 1));
    int32_t kind = (int32_t)index;
    for (;; slot = (slot + 1) & (o->size - 1)) {
        const int32_t seen = o->table[slot];
        if (seen < 0) {
            o->table[slot] = (int32_t)index;
            o->hashes[slot] = h;
            break;
        }
        if (o->hashes[slot] == h && same_kind(t, cut, o->cuts + 6 * (Py_ssize_t)seen)) {
            kind = seen;
            break;
        }
    }
    memcpy(o->kinds + 4 * index, &kind, 4);
    return 1;
}

static int blank(unsigned char c) { return c == ' ' || c == '\t'; }

/* A character of a tag name: A-Z, a-z, 0-9 or '_'. */
static int name_char(unsigned char c)
{
    return c == '_' || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* Every byte printable ASCII or a tab (str.splitlines() would cut a line at some others). */
static int printable(const unsigned char *p, Py_ssize_t len)
{
    for (Py_ssize_t i = 0; i < len; i++)
        if ((p[i] < 0x20 && p[i] != '\t') || p[i] >= 0x7F)
            return 0;
    return 1;
}

/* The games of t[0 .. len) into o: their number, or -1 when the text is not all plain games. */
static Py_ssize_t scan(const unsigned char *t, Py_ssize_t len, out_t *o)
{
    Py_ssize_t games = 0, pos = 0;
    int open = 0;
    game_t g = {0, 0, {-1, -1}, {-1, -1}};
    while (pos < len) {
        const unsigned char *eol = memchr(t + pos, '\n', (size_t)(len - pos));
        const Py_ssize_t stop = eol ? eol - t : len;
        Py_ssize_t p = pos;
        while (p < stop && blank(t[p]))
            p++;
        if (p == stop) {  /* a blank line ends the game */
            if (open && !finish(t, &g, games++, o))
                return -1;
            open = 0;
        } else if (t[p] == '%') {
            if (open || !printable(t + p, stop - p))
                return -1;
        } else if (t[p] == '[') {
            const Py_ssize_t name = ++p;
            while (p < stop && name_char(t[p]))
                p++;
            const Py_ssize_t name_len = p - name;
            if (name_len == 0 || p == stop || !blank(t[p]))
                return -1;
            while (p < stop && blank(t[p]))
                p++;
            if (p == stop || t[p] != '"')
                return -1;
            const Py_ssize_t value = ++p;
            while (p < stop && t[p] != '"' && t[p] != '\\' && (t[p] >= 0x20 || t[p] == '\t') && t[p] < 0x7F)
                p++;
            if (p == stop || t[p] != '"')
                return -1;
            const Py_ssize_t value_end = p++;
            while (p < stop && blank(t[p]))
                p++;
            if (p == stop || t[p] != ']')
                return -1;
            p++;
            while (p < stop && blank(t[p]))
                p++;
            if (p != stop)
                return -1;
            if (!open) {
                open = 1;
                g.start = pos;
                g.board[0] = g.board[1] = g.deal[0] = g.deal[1] = -1;
            }
            g.end = stop;
            Py_ssize_t *field = name_len == 5 && memcmp(t + name, "Board", 5) == 0 ? g.board
                              : name_len == 4 && memcmp(t + name, "Deal", 4) == 0 ? g.deal : NULL;
            if (field != NULL) {
                if (field[0] >= 0)
                    return -1;  /* a second Board or Deal starts a new game: the line-by-line reader's */
                field[0] = value, field[1] = value_end;
            }
        } else {
            return -1;
        }
        pos = eol ? stop + 1 : len;
    }
    if (open && !finish(t, &g, games++, o))
        return -1;
    return games;
}

/* pbn_scan(text, n, numbers, owner, kinds, spans) -> the number of games, or -1
 *
 * n: at most 2^22 (cardlab.pbn.MOST_SCANNED), else ValueError.
 * text: ASCII bytes; at most n games are read into numbers (int64 x n), owner (52 x n bytes:
 * the seat 0 N .. 3 W of each card id), kinds (int32 x n: the index of the first game of the
 * same kind) and spans (int64 x 6 n: each game's start and end, its Board value's start and
 * end, its Deal value's).  -1 when the text is not all plain games or has more than n. */
static PyObject *pbn_scan(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer tb, nb, ob, kb, sb;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "y*nw*w*w*w*", &tb, &n, &nb, &ob, &kb, &sb))
        return NULL;
    Py_ssize_t games = -1;
    int32_t *table = NULL;
    uint64_t *hashes = NULL;
    Py_ssize_t *cuts = NULL;
    CL_FAIL_IF(n < 0 || n > (1 << 22), "pbn_scan: n is 0 .. 2^22 games");
    CL_FAIL_IF(nb.len != 8 * n || ob.len != 52 * n || kb.len != 4 * n || sb.len != 48 * n,
               "pbn_scan: numbers are 8 n bytes, owner 52 n, kinds 4 n, spans 48 n");
    Py_ssize_t size = 16;
    while (size < 2 * n)
        size *= 2;
    table = malloc((size_t)size * sizeof *table);
    hashes = malloc((size_t)size * sizeof *hashes);
    cuts = malloc((size_t)(6 * n + 1) * sizeof *cuts);
    if (table == NULL || hashes == NULL || cuts == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    memset(table, 0xFF, (size_t)size * sizeof *table);
    out_t o = {n, nb.buf, ob.buf, kb.buf, sb.buf, table, hashes, size, cuts};
    Py_BEGIN_ALLOW_THREADS
    games = scan((const unsigned char *)tb.buf, tb.len, &o);
    Py_END_ALLOW_THREADS
done:
    CL_FREE(table, hashes, cuts);
    return CL_RELEASE_COUNT(games, &tb, &nb, &ob, &kb, &sb);
}

/* The length of a field "key|value|" at p (value without '|'), or 0 when key is not there. */
static Py_ssize_t field(const unsigned char *p, const unsigned char *end, const char *key)
{
    if (end - p < 3 || p[0] != (unsigned char)key[0] || p[1] != (unsigned char)key[1] || p[2] != '|')
        return 0;
    const unsigned char *q = p + 3;
    while (q < end && *q != '|')
        q++;
    return q < end ? q + 1 - p : 0;
}

/* A rank as LIN writes it: 2 .. 9, T, J, Q, K, A (capitals only). */
static int lin_rank(unsigned char c)
{
    return (c >= '2' && c <= '9') || c == 'T' || c == 'J' || c == 'Q' || c == 'K' || c == 'A';
}

/* One LIN line (p .. end, printable ASCII) as BBO writes a board: [pn|..|][st|..|]md|D<S>,<W>,<N>[,]|
 * [rh|..|]ah|Board N|sv|V|[pg|..|] and spaces or tabs, each hand S..H..D..C.. of capital ranks,
 * the dealer digit D and vulnerability V those of board N.  Its number and owners; 0 otherwise. */
static int64_t lin_line(const unsigned char *p, const unsigned char *end, uint8_t *owner)
{
    static const char dealer_digit[4] = {'3', '4', '1', '2'};  /* boards 1, 2, 3, 4: N E S W */
    static const char *const vul_letters[16] = {"0oO", "nN", "eE", "bB", "nN", "eE", "bB", "0oO",
                                                "eE", "bB", "0oO", "nN", "bB", "0oO", "nN", "eE"};
    p += field(p, end, "pn");
    p += field(p, end, "st");
    if (end - p < 4 || memcmp(p, "md|", 3) != 0 || p[3] < '1' || p[3] > '4')
        return 0;
    const unsigned char dealer = p[3];
    p += 4;
    unsigned char deal[128] = "S:";  /* 70 ranks and dots at most, then 11 separators at most */
    Py_ssize_t used = 2;
    static const char suits[4] = {'S', 'H', 'D', 'C'};
    for (int hand = 0; hand < 3; hand++) {
        for (int s = 0; s < 4; s++) {
            if (p == end || *p != suits[s])
                return 0;
            p++;
            if (s > 0)
                deal[used++] = '.';
            while (p < end && lin_rank(*p)) {
                if (used >= 70)
                    return 0;  /* more ranks than a deal has */
                deal[used++] = *p++;
            }
        }
        if (hand < 2) {
            if (p == end || *p != ',')
                return 0;
            p++;
            deal[used++] = ' ';
        }
    }
    if (p < end && *p == ',')
        p++;
    if (p == end || *p != '|')
        return 0;
    p++;
    memcpy(deal + used, " -", 2);
    used += 2;
    p += field(p, end, "rh");
    if (end - p < 9 || memcmp(p, "ah|Board ", 9) != 0)
        return 0;
    p += 9;
    const unsigned char *digits = p;
    while (p < end && *p >= '0' && *p <= '9')
        p++;
    const int64_t number = plain_number(digits, p - digits);
    if (number == 0 || end - p < 6 || memcmp(p, "|sv|", 4) != 0 || p[5] != '|')
        return 0;
    const unsigned char vul = p[4];
    p += 6;
    p += field(p, end, "pg");
    while (p < end && blank(*p))
        p++;
    if (p != end || dealer != dealer_digit[(number - 1) % 4] || vul == 0 ||
        strchr(vul_letters[(number - 1) % 16], vul) == NULL)
        return 0;
    return plain_pbn_deal(deal, deal + used, owner) ? number : 0;
}

/* The boards of a LIN text into numbers and owner (n at most): their number, or -1. */
static Py_ssize_t scan_lin(const unsigned char *t, Py_ssize_t len, Py_ssize_t n, unsigned char *numbers,
                           unsigned char *owner)
{
    Py_ssize_t boards = 0, pos = 0;
    while (pos < len) {
        const unsigned char *eol = memchr(t + pos, '\n', (size_t)(len - pos));
        const Py_ssize_t stop = eol ? eol - t : len;
        if (!printable(t + pos, stop - pos))
            return -1;
        Py_ssize_t p = pos;
        while (p < stop && blank(t[p]))
            p++;
        if (p < stop) {
            if (boards >= n)
                return -1;
            const int64_t number = lin_line(t + pos, t + stop, owner + 52 * boards);
            if (number == 0)
                return -1;
            memcpy(numbers + 8 * boards, &number, 8);
            boards++;
        }
        pos = eol ? stop + 1 : len;
    }
    return boards;
}

/* lin_scan(text, n, numbers, owner) -> the number of boards, or -1
 *
 * text: ASCII bytes, every line blank or a board as lin_line reads it; at most n boards read
 * into numbers (int64 x n) and owner (52 x n bytes).  -1 for any other text or more than n. */
static PyObject *lin_scan(PyObject *Py_UNUSED(self), PyObject *args)
{
    Py_buffer tb, nb, ob;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "y*nw*w*", &tb, &n, &nb, &ob))
        return NULL;
    Py_ssize_t boards = -1;
    CL_FAIL_IF(n < 0 || n > (1 << 22), "lin_scan: n is 0 .. 2^22 boards");
    CL_FAIL_IF(nb.len != 8 * n || ob.len != 52 * n, "lin_scan: numbers are 8 n bytes, owner 52 n");
    Py_BEGIN_ALLOW_THREADS
    boards = scan_lin((const unsigned char *)tb.buf, tb.len, n, nb.buf, ob.buf);
    Py_END_ALLOW_THREADS
done:
    return CL_RELEASE_COUNT(boards, &tb, &nb, &ob);
}

CL_METHODS(board_text,
    CL_METHOD(pbn_scan, "pbn_scan(text, n, numbers, owner, kinds, spans) -> int: the plain games of a PBN text."),
    CL_METHOD(lin_scan, "lin_scan(text, n, numbers, owner) -> int: the boards of a LIN text of plain lines."));
