/* botkit.c: the C99 starter kit for the Resource Rush arena. The API is documented in botkit.h. */
#include "botkit.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Longest line the kit reads; the arena's lines are far shorter. */
#define LINE_MAX_LEN 8192
/* Most words kept from one line. */
#define MAX_WORDS 64

static const int OFF_X[4] = {-1, 0, 1, 0};
static const int OFF_Y[4] = {0, 1, 0, -1};

static void say(char *out, size_t size, const char *fmt, ...) {
    va_list args;
    if (out == NULL || size == 0) return;
    va_start(args, fmt);
    vsnprintf(out, size, fmt, args);
    va_end(args);
}

rr_action rr_wait(void) {
    rr_action a;
    a.moves = false;
    a.to.x = a.to.y = 0;
    return a;
}

rr_action rr_move(rr_pos to) {
    rr_action a;
    a.moves = true;
    a.to = to;
    return a;
}

rr_pos rr_pos_at(int x, int y) {
    rr_pos p;
    p.x = x;
    p.y = y;
    return p;
}

bool rr_pos_eq(rr_pos a, rr_pos b) { return a.x == b.x && a.y == b.y; }

void rr_action_str(rr_action a, char *out, size_t size) {
    if (a.moves)
        say(out, size, "MOVE %d %d", a.to.x, a.to.y);
    else
        say(out, size, "WAIT");
}

/* ---- words and numbers ---- */

/* Splits `line` in place into whitespace-separated words (`\r` counts as whitespace), stopping
 * at a `#` when `comments`. Returns how many (at most MAX_WORDS). */
static int split(char *line, char *words[], bool comments) {
    int n = 0;
    char *p = line;
    if (comments) {
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
    }
    for (;;) {
        while (*p && isspace((unsigned char)*p)) p++;
        if (!*p) break;
        if (n < MAX_WORDS) words[n++] = p;
        while (*p && !isspace((unsigned char)*p)) p++;
        if (!*p) break;
        *p++ = '\0';
    }
    return n;
}

/* Parses an integer word exactly; false on anything else or on overflow. */
static bool parse_int(const char *s, long long *out) {
    char *end = NULL;
    long long v;
    if (!*s || isspace((unsigned char)*s)) return false;
    if (strlen(s) > 18) return false;
    v = strtoll(s, &end, 10);
    if (*end) return false;
    *out = v;
    return true;
}

/* Removes a trailing `\r` and `\n`, so that CRLF input reads like LF input. */
static void chomp(char *line) {
    size_t n = strlen(line);
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
}

/* ---- cells and rules ---- */

bool rr_parse_cell(const char *token, rr_cell *out) {
    size_t n = strlen(token), i;
    int v = 0;
    if (n == 1 && strchr("EWFJDT", token[0])) {
        out->kind = token[0];
        out->value = 0;
        return true;
    }
    if (n == 0 || n > 3) return false;
    for (i = 0; i < n; i++) {
        if (token[i] < '0' || token[i] > '9') return false;
        v = v * 10 + (token[i] - '0');
    }
    if (v > 99) return false;
    out->kind = v == 0 ? '0' : 'R';
    out->value = v;
    return true;
}

bool rr_walkable(rr_cell c) { return c.kind != 'E' && c.kind != 'W' && c.kind != 'F'; }

bool rr_collectable(rr_cell c) { return c.kind == 'R' || c.kind == 'J' || c.kind == 'D' || c.kind == 'T'; }

bool rr_in_bounds(const rr_grid *g, rr_pos p) { return p.x >= 0 && p.y >= 0 && p.x < g->rows && p.y < g->cols; }

rr_cell rr_at(const rr_grid *g, rr_pos p) { return g->cells[p.x * g->cols + p.y]; }

static rr_cell ground(void) {
    rr_cell c;
    c.kind = '0';
    c.value = 0;
    return c;
}

bool rr_check_move(const rr_grid *g, rr_pos from, rr_pos to, bool has_jump, char *why, size_t why_size) {
    int dx = to.x - from.x, dy = to.y - from.y, ax = abs(dx), ay = abs(dy);
    bool jump = false;
    rr_cell dest;
    if (!rr_in_bounds(g, to)) {
        say(why, why_size, "(%d, %d) is off the map", to.x, to.y);
        return false;
    }
    if (ax == 0 && ay == 0) {
        say(why, why_size, "(%d, %d) is where the player already is (answer WAIT to stay)", to.x, to.y);
        return false;
    }
    if (ax + ay == 1) {
        jump = false;
    } else if ((ax == 2 && ay == 0) || (ax == 0 && ay == 2)) {
        if (!has_jump) {
            say(why, why_size, "(%d, %d) to (%d, %d) is two cells away and the player has no Jump", from.x, from.y,
                to.x, to.y);
            return false;
        }
        jump = true;
    } else {
        say(why, why_size, "(%d, %d) to (%d, %d) is not a step or a straight two-cell jump", from.x, from.y, to.x,
            to.y);
        return false;
    }
    dest = rr_at(g, to);
    if (dest.kind == 'W' || dest.kind == 'E') {
        say(why, why_size, "(%d, %d) is `%c`, which cannot be entered", to.x, to.y, dest.kind);
        return false;
    }
    if (jump) {
        rr_pos middle = rr_pos_at(from.x + dx / 2, from.y + dy / 2);
        if (rr_in_bounds(g, middle) && rr_at(g, middle).kind == 'F') {
            say(why, why_size, "cannot jump over the fire at (%d, %d)", middle.x, middle.y);
            return false;
        }
    }
    return true;
}

static long long sat_mul(long long a, long long b) { return a > LLONG_MAX / b ? LLONG_MAX : a * b; }

long long rr_collect(rr_player *p, rr_cell c) {
    long long points;
    switch (c.kind) {
        case 'R':
            points = sat_mul(p->multiplier, c.value);
            p->score = p->score > LLONG_MAX - points ? LLONG_MAX : p->score + points;
            return points;
        case 'J': p->jump = true; return 0;
        case 'D': p->multiplier = sat_mul(p->multiplier, 2); return 0;
        case 'T': p->multiplier = sat_mul(p->multiplier, 3); return 0;
        default: return 0;
    }
}

int rr_resolve(rr_grid *g, rr_player *players[], const rr_action moves[], int n, rr_event *events) {
    rr_event found[16];
    int count = 0, i, j, k;
    for (i = 0; i < n && count < 16; i++) {
        rr_pos dest = moves[i].to;
        rr_cell cell;
        bool shared = false;
        int first = i;
        if (!moves[i].moves) continue;
        players[i]->pos = dest;
        if (!rr_in_bounds(g, dest)) continue;
        cell = rr_at(g, dest);
        found[count].pos = dest;
        found[count].item = cell;
        found[count].points = 0;
        found[count].player = i;
        if (cell.kind == 'F') {
            found[count++].kind = RR_FIRE;
            continue;
        }
        if (!rr_collectable(cell)) continue;
        for (j = 0; j < n; j++)
            if (j != i && moves[j].moves && rr_pos_eq(moves[j].to, dest)) {
                shared = true;
                if (j < first) first = j;
            }
        if (shared) {
            if (first == i) {
                found[count].kind = RR_CANCELLED;
                found[count++].player = -1;
            }
            continue;
        }
        found[count].kind = RR_COLLECTED;
        found[count++].points = rr_collect(players[i], cell);
    }
    for (k = 0; k < count; k++) {
        if (found[k].kind != RR_FIRE) g->cells[found[k].pos.x * g->cols + found[k].pos.y] = ground();
        if (events) events[k] = found[k];
    }
    return count;
}

/* ---- the header ---- */

typedef struct {
    char *text;
    int number; /* line number of the last line returned */
} line_reader;

/* The next non-blank line's words (comments removed); 0 at the end. */
static int next_words(line_reader *r, char *words[]) {
    while (r->text && *r->text) {
        char *line = r->text, *nl = strchr(line, '\n');
        int n;
        if (nl) {
            *nl = '\0';
            r->text = nl + 1;
        } else {
            r->text += strlen(line);
        }
        r->number++;
        n = split(line, words, true);
        if (n > 0) return n;
    }
    return 0;
}

static bool is_word(int n, char *words[], const char *word) { return n == 1 && strcmp(words[0], word) == 0; }

bool rr_parse_header(const char *text, rr_mode mode, rr_game *g, char *err, size_t err_size) {
    char *copy = malloc(strlen(text) + 1), *w[MAX_WORDS];
    line_reader r;
    long long v[3];
    rr_pos places[3];
    int place_lines[3], n, i, x, jump;
    static const char *names[3] = {"your start", "the opponent's start", "the final"};
    bool ok = false;
    if (!copy) {
        say(err, err_size, "bad header: out of memory");
        return false;
    }
    strcpy(copy, text);
    r.text = copy;
    r.number = 0;
    memset(g, 0, sizeof *g);
    g->mode = mode;
    n = next_words(&r, w);
    if (n != 4 || strcmp(w[0], "ARENA") != 0 || !parse_int(w[1], &v[0]) || !parse_int(w[2], &v[1]) ||
        !parse_int(w[3], &v[2])) {
        say(err, err_size, "bad header: line %d: expected `ARENA N M ROUNDS`", r.number);
        goto done;
    }
    if (v[0] < 1 || v[0] > RR_MAX_SIDE || v[1] < 1 || v[1] > RR_MAX_SIDE || v[2] < 1 || v[2] > INT_MAX) {
        say(err, err_size, "bad header: line %d: map size or rounds out of range", r.number);
        goto done;
    }
    g->grid.rows = (int)v[0];
    g->grid.cols = (int)v[1];
    g->rounds = (int)v[2];
    for (i = 0; i < 3; i++) {
        n = next_words(&r, w);
        if (n != 2 || !parse_int(w[0], &v[0]) || !parse_int(w[1], &v[1]) || v[0] < INT_MIN || v[0] > INT_MAX ||
            v[1] < INT_MIN || v[1] > INT_MAX) {
            say(err, err_size, "bad header: line %d: expected %s as `X Y`", r.number, names[i]);
            goto done;
        }
        places[i] = rr_pos_at((int)v[0], (int)v[1]);
        place_lines[i] = r.number;
    }
    if (!is_word(next_words(&r, w), w, "MAP")) {
        say(err, err_size, "bad header: line %d: expected `MAP`", r.number);
        goto done;
    }
    for (x = 0; x < g->grid.rows; x++) {
        n = next_words(&r, w);
        if (n != g->grid.cols) {
            say(err, err_size, "bad header: line %d: map row %d has %d cells, expected %d", r.number, x, n,
                g->grid.cols);
            goto done;
        }
        for (i = 0; i < n; i++)
            if (!rr_parse_cell(w[i], &g->grid.cells[x * g->grid.cols + i])) {
                say(err, err_size, "bad header: line %d: bad cell `%s`", r.number, w[i]);
                goto done;
            }
    }
    if (!is_word(next_words(&r, w), w, "END_MAP")) {
        say(err, err_size, "bad header: line %d: expected `END_MAP`", r.number);
        goto done;
    }
    if (!is_word(next_words(&r, w), w, "STREAM")) {
        say(err, err_size, "bad header: line %d: expected `STREAM`", r.number);
        goto done;
    }
    for (i = 0; i < 3; i++)
        if (!rr_in_bounds(&g->grid, places[i]) || !rr_walkable(rr_at(&g->grid, places[i]))) {
            say(err, err_size, "bad header: line %d: %s (%d, %d) is not a walkable cell", place_lines[i], names[i],
                places[i].x, places[i].y);
            goto done;
        }
    g->starts[0] = places[0];
    g->starts[1] = places[1];
    g->final_pos = places[2];
    for (i = 0; i < 2; i++) {
        rr_player *p = i == 0 ? &g->me : &g->opponent;
        p->pos = places[i];
        p->score = 0;
        p->multiplier = 1;
        p->jump = false;
        p->status = RR_PLAYING;
    }
    g->pending_ = rr_wait();
    /* Walls, voids and fire never change, so the safe moves from every cell are fixed. */
    for (jump = 0; jump < 2; jump++)
        for (i = 0; i < g->grid.rows * g->grid.cols; i++) {
            rr_pos out[8];
            int k, m = rr_safe_moves(g, rr_pos_at(i / g->grid.cols, i % g->grid.cols), jump != 0, out);
            g->nmoves_[jump][i] = (unsigned char)m;
            for (k = 0; k < m; k++) g->moves_[jump][i][k] = (short)(out[k].x * g->grid.cols + out[k].y);
        }
    ok = true;
done:
    free(copy);
    return ok;
}

bool rr_parse_tick(const char *line, int *tick, rr_action *action, char *err, size_t err_size) {
    char copy[LINE_MAX_LEN], shown[LINE_MAX_LEN], *w[MAX_WORDS];
    long long t, x, y;
    int n;
    strncpy(copy, line, sizeof copy - 1);
    copy[sizeof copy - 1] = '\0';
    strcpy(shown, copy);
    chomp(shown);
    n = split(copy, w, false);
    if (n < 3 || strcmp(w[0], "TICK") != 0) {
        say(err, err_size, "bad TICK line `%s`: expected `TICK t <action>`", shown);
        return false;
    }
    if (!parse_int(w[1], &t) || t < 0 || t > INT_MAX) {
        say(err, err_size, "bad TICK line `%s`: `%s` is not a tick number", shown, w[1]);
        return false;
    }
    *tick = (int)t;
    if (n == 3 && strcmp(w[2], "WAIT") == 0) {
        *action = rr_wait();
        return true;
    }
    if (n == 5 && strcmp(w[2], "MOVE") == 0 && parse_int(w[3], &x) && parse_int(w[4], &y) && x >= INT_MIN &&
        x <= INT_MAX && y >= INT_MIN && y <= INT_MAX) {
        *action = rr_move(rr_pos_at((int)x, (int)y));
        return true;
    }
    say(err, err_size, "bad TICK line `%s`: expected `WAIT` or `MOVE x y`", shown);
    return false;
}

/* ---- moves and paths ---- */

int rr_ticks_left(const rr_game *g) {
    int left = g->rounds + 1 - (g->tick > 1 ? g->tick : 1);
    return left > 0 ? left : 0;
}

int rr_legal_moves(const rr_game *g, rr_pos from, bool jump, rr_pos out[8]) {
    int n = 0, k, d;
    for (k = 1; k <= (jump ? 2 : 1); k++)
        for (d = 0; d < 4; d++) {
            rr_pos to = rr_pos_at(from.x + OFF_X[d] * k, from.y + OFF_Y[d] * k);
            if (rr_check_move(&g->grid, from, to, jump, NULL, 0)) out[n++] = to;
        }
    return n;
}

int rr_safe_moves(const rr_game *g, rr_pos from, bool jump, rr_pos out[8]) {
    rr_pos all[8];
    int n = rr_legal_moves(g, from, jump, all), k, m = 0;
    for (k = 0; k < n; k++)
        if (rr_at(&g->grid, all[k]).kind != 'F') out[m++] = all[k];
    return m;
}

void rr_reach_from(const rr_game *g, rr_pos from, bool jump, rr_reach *r) {
    int n = g->grid.rows * g->grid.cols, cols = g->grid.cols, head = 0, tail = 0, i, src, stop;
    static int queue[2 * RR_MAX_CELLS];
    r->rows = g->grid.rows;
    r->cols = cols;
    for (i = 0; i < 2 * n; i++) r->dist[i] = r->parent[i] = -1;
    if (!rr_in_bounds(&g->grid, from)) return;
    stop = g->final_pos.x * cols + g->final_pos.y;
    src = (jump ? n : 0) + from.x * cols + from.y;
    r->dist[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        int s = queue[head++], j = s >= n, here = s % n, k;
        if (here == stop && s != src) continue;
        for (k = 0; k < g->nmoves_[j][here]; k++) {
            int q = g->moves_[j][here][k];
            int t = (j || g->grid.cells[q].kind == 'J' ? n : 0) + q;
            if (r->dist[t] < 0) {
                r->dist[t] = r->dist[s] + 1;
                r->parent[t] = s;
                queue[tail++] = t;
            }
        }
    }
}

static int state_index(int rows, int cols, rr_pos p, bool jump) {
    if (p.x < 0 || p.y < 0 || p.x >= rows || p.y >= cols) return -1;
    return (jump ? rows * cols : 0) + p.x * cols + p.y;
}

int rr_reach_dist(const rr_reach *r, rr_pos p, bool jump) {
    int s = state_index(r->rows, r->cols, p, jump);
    return s < 0 ? -1 : r->dist[s];
}

int rr_reach_best(const rr_reach *r, rr_pos p) {
    int a = rr_reach_dist(r, p, false), b = rr_reach_dist(r, p, true);
    if (a < 0) return b;
    if (b < 0) return a;
    return a < b ? a : b;
}

bool rr_reach_best_jump(const rr_reach *r, rr_pos p) {
    int a = rr_reach_dist(r, p, false), b = rr_reach_dist(r, p, true);
    return b >= 0 && (a < 0 || b < a);
}

int rr_reach_path(const rr_reach *r, rr_pos p, bool jump, rr_pos *out, int cap) {
    int s = state_index(r->rows, r->cols, p, jump), n = r->rows * r->cols, len, k;
    if (s < 0 || r->dist[s] < 0 || r->dist[s] > cap) return -1;
    len = r->dist[s];
    for (k = len - 1; k >= 0; k--) {
        int here = s % n;
        out[k] = rr_pos_at(here / r->cols, here % r->cols);
        s = r->parent[s];
    }
    return len;
}

void rr_distances_to(const rr_game *g, rr_pos target, rr_to_target *r) {
    int n = g->grid.rows * g->grid.cols, cols = g->grid.cols, head = 0, tail = 0, i, t, stop;
    static int queue[2 * RR_MAX_CELLS];
    r->rows = g->grid.rows;
    r->cols = cols;
    for (i = 0; i < 2 * n; i++) r->dist[i] = -1;
    if (!rr_in_bounds(&g->grid, target) || !rr_walkable(rr_at(&g->grid, target))) return;
    t = target.x * cols + target.y;
    stop = g->final_pos.x * cols + g->final_pos.y;
    r->dist[t] = r->dist[n + t] = 0;
    queue[tail++] = t;
    queue[tail++] = n + t;
    while (head < tail) {
        int s = queue[head++], j = s >= n, q = s % n, layers[2], count = 0, l, k;
        bool takes_jump = g->grid.cells[q].kind == 'J';
        /* Predecessors: states whose move lands in this one. Moves are symmetric. */
        if (j) {
            layers[count++] = 1;
            if (takes_jump) layers[count++] = 0;
        } else if (!takes_jump) {
            layers[count++] = 0;
        }
        for (l = 0; l < count; l++)
            for (k = 0; k < g->nmoves_[layers[l]][q]; k++) {
                int p = g->moves_[layers[l]][q][k], u;
                if (p == stop) continue;
                u = (layers[l] ? n : 0) + p;
                if (r->dist[u] < 0) {
                    r->dist[u] = r->dist[s] + 1;
                    queue[tail++] = u;
                }
            }
    }
}

int rr_to_target_get(const rr_to_target *t, rr_pos p, bool jump) {
    int s = state_index(t->rows, t->cols, p, jump);
    return s < 0 ? -1 : t->dist[s];
}

int rr_path_to(const rr_game *g, rr_pos target, rr_pos *out, int cap) {
    rr_reach *r = malloc(sizeof *r);
    int len;
    if (!r) return -1;
    rr_reach_from(g, g->me.pos, g->me.jump, r);
    len = rr_reach_path(r, target, rr_reach_best_jump(r, target), out, cap);
    free(r);
    return len;
}

int rr_distance_to(const rr_game *g, rr_pos target) {
    rr_reach *r = malloc(sizeof *r);
    int d;
    if (!r) return -1;
    rr_reach_from(g, g->me.pos, g->me.jump, r);
    d = rr_reach_best(r, target);
    free(r);
    return d;
}

/* ---- following the game ---- */

void rr_on_tick(rr_game *g, int tick, rr_action opponent) {
    if (g->mode == RR_TEST) {
        /* The scripted opponent moves first, unchecked, and takes what lies there. */
        if (opponent.moves) {
            g->opponent.pos = opponent.to;
            if (rr_in_bounds(&g->grid, opponent.to) && rr_collectable(rr_at(&g->grid, opponent.to)))
                g->grid.cells[opponent.to.x * g->grid.cols + opponent.to.y] = ground();
        }
    } else {
        rr_player *players[2];
        rr_action moves[2];
        rr_event events[16];
        int n, k;
        players[0] = &g->me;
        players[1] = &g->opponent;
        moves[0] = g->pending_;
        moves[1] = g->opponent.status == RR_PLAYING ? opponent : rr_wait();
        n = rr_resolve(&g->grid, players, moves, 2, events);
        for (k = 0; k < n; k++)
            if (events[k].kind == RR_FIRE && events[k].player == 1) {
                g->opponent.status = RR_FORFEIT;
                g->opponent.score = 0;
            }
        g->pending_ = rr_wait();
        if (g->opponent.status == RR_PLAYING && rr_pos_eq(g->opponent.pos, g->final_pos) && tick > 1)
            g->opponent.status = RR_FINISHED;
    }
    g->tick = tick;
}

void rr_commit(rr_game *g, rr_action mine) {
    if (g->mode == RR_TEST) {
        if (mine.moves) {
            rr_player *players[2];
            rr_action moves[2];
            players[0] = &g->me;
            players[1] = &g->opponent;
            moves[0] = mine;
            moves[1] = rr_wait();
            rr_resolve(&g->grid, players, moves, 2, NULL);
        }
    } else {
        g->pending_ = mine;
    }
}

void rr_view_line(const rr_game *g, int frame, char *out, size_t size) {
    long long items = 0, value = 0;
    int i;
    const rr_player *a = &g->me, *b = &g->opponent;
    for (i = 0; i < g->grid.rows * g->grid.cols; i++) {
        items += rr_collectable(g->grid.cells[i]);
        value += g->grid.cells[i].kind == 'R' ? g->grid.cells[i].value : 0;
    }
    say(out, size, "RR_VIEW %d %d %d %lld %lld %d %d %d %lld %lld %d %lld %lld", frame, a->pos.x, a->pos.y, a->score,
        a->multiplier, a->jump ? 1 : 0, b->pos.x, b->pos.y, b->score, b->multiplier, b->jump ? 1 : 0, items, value);
}

/* ---- the loops ---- */

/* Reads one line into `line`; false at the end of input. A line too long is an error. */
static bool read_line(FILE *in, char *line, size_t size, bool *too_long) {
    size_t n;
    *too_long = false;
    if (!fgets(line, (int)size, in)) return false;
    n = strlen(line);
    if (n == size - 1 && line[n - 1] != '\n' && !feof(in)) *too_long = true;
    return true;
}

static int fail(const char *why) {
    fprintf(stderr, "botkit: %s\n", why);
    return 1;
}

/* Refuses an opponent's move off the map, as the Rust SDK does. The arena never sends one (it
 * tells an invalid move as `WAIT`, and a test file's scripted moves are on its map), so such a
 * line was typed or piped by hand: stopping says so, where the kit would have put the opponent
 * off its map. */
static bool check_on_map(const rr_game *g, const char *line, rr_action opponent, char *err, size_t err_size) {
    char shown[LINE_MAX_LEN];
    if (!opponent.moves || rr_in_bounds(&g->grid, opponent.to)) return true;
    strncpy(shown, line, sizeof shown - 1);
    shown[sizeof shown - 1] = '\0';
    chomp(shown);
    say(err, err_size,
        "bad TICK line `%s`: the opponent's move to (%d, %d) is off the %d x %d map (the arena never sends one)", shown,
        opponent.to.x, opponent.to.y, g->grid.rows, g->grid.cols);
    return false;
}

int rr_run_io(rr_act_fn act, void *user, FILE *in, FILE *out, rr_mode mode, FILE *debug) {
    static rr_game game;
    static char header[64 * 1024];
    char line[LINE_MAX_LEN], copy[LINE_MAX_LEN], err[LINE_MAX_LEN + 128], *w[MAX_WORDS];
    size_t used = 0;
    bool too_long;
    header[0] = '\0';
    for (;;) {
        size_t n;
        if (!read_line(in, line, sizeof line, &too_long)) return 0;
        if (too_long) return fail("a header line is too long");
        n = strlen(line);
        if (used + n + 1 >= sizeof header) return fail("bad header: too long");
        memcpy(header + used, line, n + 1);
        used += n;
        strcpy(copy, line);
        if (is_word(split(copy, w, true), w, "STREAM")) break;
    }
    if (!rr_parse_header(header, mode, &game, err, sizeof err)) return fail(err);
    while (read_line(in, line, sizeof line, &too_long)) {
        int tick;
        rr_action theirs, mine;
        char answer[64];
        if (too_long) return fail("a TICK line is too long");
        strcpy(copy, line);
        if (split(copy, w, false) == 0) continue;
        if (!rr_parse_tick(line, &tick, &theirs, err, sizeof err)) return fail(err);
        if (!check_on_map(&game, line, theirs, err, sizeof err)) return fail(err);
        rr_on_tick(&game, tick, theirs);
        if (debug && mode == RR_DUEL) {
            rr_view_line(&game, tick - 1, copy, sizeof copy);
            fprintf(debug, "%s\n", copy);
            fflush(debug);
        }
        mine = act(&game, user);
        rr_commit(&game, mine);
        if (debug && mode == RR_TEST) {
            rr_view_line(&game, tick, copy, sizeof copy);
            fprintf(debug, "%s\n", copy);
            fflush(debug);
        }
        rr_action_str(mine, answer, sizeof answer);
        fprintf(out, "%s\n", answer);
        fflush(out); /* the arena waits for this line */
    }
    return 0;
}

int rr_run(rr_act_fn act, void *user) {
    const char *mode = getenv("RR_MODE"), *debug = getenv("RR_DEBUG");
    return rr_run_io(act, user, stdin, stdout, mode && strcmp(mode, "test") == 0 ? RR_TEST : RR_DUEL,
                     debug && *debug ? stderr : NULL);
}

/* Reads a board prompt's `height` lines and `END` into `cells` (width * height of them), each
 * token turned by `cell`. Returns false and writes why into `err`. */
static bool read_board(FILE *in, int width, int height, bool (*cell)(const char *, void *), void *cells,
                       size_t item, char *err, size_t err_size) {
    char line[LINE_MAX_LEN], copy[LINE_MAX_LEN], *w[MAX_WORDS];
    int r, k, n, count = 0;
    bool too_long;
    for (r = 0; r < height; r++) {
        if (!read_line(in, line, sizeof line, &too_long) || too_long) {
            say(err, err_size, "expected the board then `END`");
            return false;
        }
        chomp(line);
        strcpy(copy, line);
        n = split(copy, w, false);
        for (k = 0; k < n; k++) {
            if (count >= width * height || !cell(w[k], (char *)cells + item * (size_t)count)) {
                say(err, err_size, "bad line `%s`: bad cell `%s`", line, w[k]);
                return false;
            }
            count++;
        }
    }
    line[0] = '\0';
    if (!read_line(in, line, sizeof line, &too_long)) line[0] = '\0';
    chomp(line);
    strcpy(copy, line);
    if (!is_word(split(copy, w, false), w, "END") || count != width * height) {
        say(err, err_size, "bad line `%s`: expected the board then `END`", line);
        return false;
    }
    return true;
}

/* Reads the intro line `KEYWORD a b c letter` (Atoms, Tactics; `shape` is the whole expected
 * line) into `v` and `letter`, and allocates the board: `v[1] * v[2]` items of `item` bytes.
 * Returns 1 when ready, 0 at the end of input, -1 after reporting a bad line. */
static int read_intro(FILE *in, const char *shape, long long v[3], char *letter, size_t item, void **board) {
    char line[LINE_MAX_LEN], copy[LINE_MAX_LEN], keyword[16], err[LINE_MAX_LEN + 128], *w[MAX_WORDS];
    bool too_long;
    int n;
    if (!read_line(in, line, sizeof line, &too_long)) return 0;
    chomp(line);
    strcpy(copy, line);
    n = split(copy, w, false);
    sscanf(shape, "%15s", keyword);
    if (too_long || n != 5 || strcmp(w[0], keyword) != 0 || !parse_int(w[1], &v[0]) || !parse_int(w[2], &v[1]) ||
        !parse_int(w[3], &v[2]) || v[1] < 1 || v[2] < 1 || v[1] > 1000 || v[2] > 1000) {
        say(err, sizeof err, "bad line `%s`: expected `%s`", line, shape);
        fail(err);
        return -1;
    }
    *letter = w[4][0];
    *board = malloc(item * (size_t)v[1] * (size_t)v[2]);
    if (!*board) {
        fail("out of memory");
        return -1;
    }
    return 1;
}

/* ---- Atoms ---- */

int atoms_limit(int width, int height, int x, int y) {
    return 4 - (x == 0 || x == width - 1) - (y == 0 || y == height - 1);
}

atoms_cell atoms_at(const atoms_view *v, int x, int y) { return v->cells[y * v->width + x]; }

int atoms_neighbours(const atoms_view *v, int x, int y, int out[4][2]) {
    int n = 0;
    if (y > 0) out[n][0] = x, out[n++][1] = y - 1;
    if (x + 1 < v->width) out[n][0] = x + 1, out[n++][1] = y;
    if (y + 1 < v->height) out[n][0] = x, out[n++][1] = y + 1;
    if (x > 0) out[n][0] = x - 1, out[n++][1] = y;
    return n;
}

bool atoms_legal(const atoms_view *v, int x, int y) {
    atoms_cell c;
    if (x < 0 || y < 0 || x >= v->width || y >= v->height) return false;
    c = atoms_at(v, x, y);
    return c.owner == '.' || c.owner == v->me;
}

static bool atoms_token(const char *t, void *out) {
    atoms_cell *c = out;
    long long n;
    if (t[0] == '.') {
        c->owner = '.';
        c->atoms = 0;
        return true;
    }
    if (!t[0] || !parse_int(t + 1, &n) || n < 0 || n > INT_MAX) return false;
    c->owner = t[0];
    c->atoms = (int)n;
    return true;
}

int atoms_run_io(atoms_place_fn place, void *user, FILE *in, FILE *out) {
    char line[LINE_MAX_LEN], copy[LINE_MAX_LEN], err[LINE_MAX_LEN + 128], *w[MAX_WORDS];
    long long v[3], turn;
    atoms_view view;
    bool too_long;
    void *board = NULL;
    int status = read_intro(in, "ATOMS players width height letter", v, &view.me, sizeof *view.cells, &board);
    if (status <= 0) return -status;
    status = 0;
    view.players = (int)v[0];
    view.width = (int)v[1];
    view.height = (int)v[2];
    view.cells = board;
    while (read_line(in, line, sizeof line, &too_long)) {
        int x = 0, y = 0;
        chomp(line);
        strcpy(copy, line);
        if (split(copy, w, false) != 2 || strcmp(w[0], "TURN") != 0 || !parse_int(w[1], &turn)) {
            say(err, sizeof err, "bad line `%s`: expected `TURN n`", line);
            status = fail(err);
            break;
        }
        view.turn = (int)turn;
        if (!read_board(in, view.width, view.height, atoms_token, view.cells, sizeof *view.cells, err, sizeof err)) {
            status = fail(err);
            break;
        }
        place(&view, user, &x, &y);
        fprintf(out, "PLACE %d %d\n", x, y);
        fflush(out);
    }
    free(view.cells);
    return status;
}

int atoms_run(atoms_place_fn place, void *user) { return atoms_run_io(place, user, stdin, stdout); }

/* ---- OOPtimal Tactics ---- */

bool tactics_on_map(const tactics_view *v, int col, int row) {
    return col >= 1 && row >= 1 && col <= v->width && row <= v->height;
}

tactics_field tactics_at(const tactics_view *v, int col, int row) { return v->fields[(row - 1) * v->width + col - 1]; }

int tactics_neighbours(const tactics_view *v, int col, int row, int out[8][2]) {
    int n = 0, dr, dc;
    for (dr = -1; dr <= 1; dr++)
        for (dc = -1; dc <= 1; dc++)
            if ((dc || dr) && tactics_on_map(v, col + dc, row + dr) && tactics_at(v, col + dc, row + dr).owner != '~') {
                out[n][0] = col + dc;
                out[n++][1] = row + dr;
            }
    return n;
}

int tactics_claimed(const tactics_view *v, char letter) {
    int n = 0, i;
    for (i = 0; i < v->width * v->height; i++) n += v->fields[i].owner == letter;
    return n;
}

void tactics_place(char *command, size_t size, int amount, int col, int row) {
    say(command, size, "place %d %d %d", amount, col, row);
}

void tactics_move(char *command, size_t size, int amount, int from_col, int from_row, int to_col, int to_row) {
    say(command, size, "move %d %d %d %d %d", amount, from_col, from_row, to_col, to_row);
}

void tactics_pass(char *command, size_t size) { say(command, size, "pass"); }

static bool tactics_token(const char *t, void *out) {
    tactics_field *f = out;
    long long n;
    if (t[0] == '.' || t[0] == '~') {
        f->owner = t[0];
        f->chips = 0;
        return true;
    }
    if (!t[0] || !parse_int(t + 1, &n) || n < 0 || n > INT_MAX) return false;
    f->owner = t[0];
    f->chips = (int)n;
    return true;
}

int tactics_run_io(tactics_act_fn act, void *user, FILE *in, FILE *out) {
    char line[LINE_MAX_LEN], copy[LINE_MAX_LEN], err[LINE_MAX_LEN + 128], command[256], *w[MAX_WORDS];
    long long v[3], n;
    tactics_view view;
    bool too_long;
    void *board = NULL;
    int status = read_intro(in, "TACTICS rounds width height letter", v, &view.me, sizeof *view.fields, &board);
    if (status <= 0) return -status;
    status = 0;
    view.rounds = (int)v[0];
    view.width = (int)v[1];
    view.height = (int)v[2];
    view.fields = board;
    while (read_line(in, line, sizeof line, &too_long)) {
        bool round_ok;
        chomp(line);
        strcpy(copy, line);
        round_ok = split(copy, w, false) == 2 && strcmp(w[0], "ROUND") == 0;
        if (round_ok && strchr(w[1], '/')) *strchr(w[1], '/') = '\0'; /* `r/rounds`: keep r */
        if (!round_ok || !parse_int(w[1], &n)) {
            say(err, sizeof err, "bad line `%s`: expected `ROUND r/rounds`", line);
            status = fail(err);
            break;
        }
        view.round = (int)n;
        if (!read_line(in, line, sizeof line, &too_long)) line[0] = '\0';
        chomp(line);
        strcpy(copy, line);
        if (split(copy, w, false) != 2 || strcmp(w[0], "PHASE") != 0 ||
            (strcmp(w[1], "PLACEMENT") != 0 && strcmp(w[1], "MOVEMENT") != 0)) {
            say(err, sizeof err, "bad line `%s`: expected `PHASE PLACEMENT` or `PHASE MOVEMENT`", line);
            status = fail(err);
            break;
        }
        view.movement = strcmp(w[1], "MOVEMENT") == 0;
        if (!read_line(in, line, sizeof line, &too_long)) line[0] = '\0';
        chomp(line);
        strcpy(copy, line);
        if (split(copy, w, false) != 2 || strcmp(w[0], "CHIPS") != 0 || !parse_int(w[1], &n)) {
            say(err, sizeof err, "bad line `%s`: expected `CHIPS n`", line);
            status = fail(err);
            break;
        }
        view.chips = (int)n;
        if (!read_board(in, view.width, view.height, tactics_token, view.fields, sizeof *view.fields, err,
                        sizeof err)) {
            status = fail(err);
            break;
        }
        command[0] = '\0';
        act(&view, user, command, sizeof command);
        fprintf(out, "%s\n", command);
        fflush(out);
    }
    free(view.fields);
    return status;
}

int tactics_run(tactics_act_fn act, void *user) { return tactics_run_io(act, user, stdin, stdout); }
