/* The C kit's own tests: `make test`. The same cases as the Python kit's test_botkit.py. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "botkit.h"

static int failures = 0;
#define CHECK(cond)                                                              \
    do {                                                                         \
        if (!(cond)) {                                                           \
            fprintf(stderr, "%s:%d: failed: %s\n", __FILE__, __LINE__, #cond);   \
            failures++;                                                          \
        }                                                                        \
    } while (0)

/* The final lies behind a wall: only a path through the J at (1, 1) gets there. */
static const char *J_MAP = "ARENA 3 5 20\n1 0\n2 0\n1 4\nMAP\n0 0 0 W 0\n0 J 0 W 0\n0 0 0 W 0\nEND_MAP\nSTREAM\n";
/* The plain shortest way to the 9 crosses the final at (0, 1). */
static const char *FINAL_MAP = "ARENA 2 3 9\n0 0\n0 0\n0 1\nMAP\n0 0 9\n0 0 0\nEND_MAP\nSTREAM\n";
/* Rows for collecting, cancelling and fire. */
static const char *ROW_MAP = "ARENA 2 5 6\n0 1\n0 3\n0 4\nMAP\nF 0 9 0 0\n0 F 0 0 0\nEND_MAP\nSTREAM\n";
/* The same with the starts swapped: the opponent beside the fire. */
static const char *ROW_MAP_SWAPPED = "ARENA 2 5 6\n0 3\n0 1\n0 4\nMAP\nF 0 9 0 0\n0 F 0 0 0\nEND_MAP\nSTREAM\n";

static rr_game game;
static rr_reach reach;
static rr_to_target to_target;

static rr_game *load(const char *text, rr_mode mode) {
    char err[256];
    if (!rr_parse_header(text, mode, &game, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        exit(1);
    }
    return &game;
}

static bool path_is(const rr_pos *path, int len, const int (*want)[2], int n) {
    int k;
    if (len != n) return false;
    for (k = 0; k < n; k++)
        if (path[k].x != want[k][0] || path[k].y != want[k][1]) return false;
    return true;
}

static rr_action to_final(const rr_game *g, void *user) {
    rr_pos path[RR_MAX_CELLS];
    (void)user;
    return rr_path_to(g, g->final_pos, path, RR_MAX_CELLS) > 0 ? rr_move(path[0]) : rr_wait();
}

static void first_legal(const atoms_view *v, void *user, int *x, int *y) {
    int i;
    (void)user;
    for (i = v->width * v->height - 1; i >= 0; i--)
        if (atoms_legal(v, i % v->width, i / v->width)) *x = i % v->width, *y = i / v->width;
}

static void place_all(const tactics_view *v, void *user, char *command, size_t size) {
    int row, col;
    (void)user;
    for (row = v->height; row >= 1; row--)
        for (col = v->width; col >= 1; col--)
            if (tactics_at(v, col, row).owner == v->me) tactics_place(command, size, v->chips, col, row);
}

/* Runs `fn` on `text` through a temporary file and returns its output (static). */
static const char *run_on(const char *text, int which) {
    static char out[4096];
    FILE *in = tmpfile(), *o = tmpfile();
    size_t n;
    fputs(text, in);
    rewind(in);
    if (which == 0) rr_run_io(to_final, NULL, in, o, RR_DUEL, NULL);
    if (which == 1) atoms_run_io(first_legal, NULL, in, o);
    if (which == 2) tactics_run_io(place_all, NULL, in, o);
    rewind(o);
    n = fread(out, 1, sizeof out - 1, o);
    out[n] = '\0';
    fclose(in);
    fclose(o);
    return out;
}

int main(void) {
    rr_pos path[64], moves[8];
    char why[256], lf[1024], crlf[2048], first[4096];
    const char *ticks = "TICK 1 WAIT\n\nTICK 2 MOVE 2 1\nTICK 3 WAIT\n";
    size_t i, k;
    rr_game *s;
    rr_player p;
    rr_cell c;
    { /* paths plan through a J */
        static const int want[3][2] = {{1, 1}, {1, 2}, {1, 4}};
        s = load(J_MAP, RR_DUEL);
        CHECK(path_is(path, rr_path_to(s, rr_pos_at(1, 4), path, 64), want, 3));
        CHECK(rr_distance_to(s, rr_pos_at(1, 4)) == 3);
        rr_reach_from(s, s->me.pos, false, &reach);
        CHECK(rr_reach_dist(&reach, rr_pos_at(1, 4), false) == -1);
        rr_distances_to(s, rr_pos_at(1, 4), &to_target);
        CHECK(rr_to_target_get(&to_target, rr_pos_at(1, 0), false) == 3);
        CHECK(rr_to_target_get(&to_target, rr_pos_at(1, 0), true) == 2);
        CHECK(rr_to_target_get(&to_target, rr_pos_at(0, 0), false) == 4);
        CHECK(rr_path_to(s, rr_pos_at(1, 0), path, 64) == 0);
        CHECK(rr_path_to(s, rr_pos_at(0, 3), path, 64) == -1);
    }
    { /* paths keep off the final unless going there */
        static const int want[4][2] = {{1, 0}, {1, 1}, {1, 2}, {0, 2}};
        s = load(FINAL_MAP, RR_DUEL);
        CHECK(path_is(path, rr_path_to(s, rr_pos_at(0, 2), path, 64), want, 4));
        CHECK(rr_distance_to(s, rr_pos_at(0, 1)) == 1);
        rr_distances_to(s, rr_pos_at(0, 2), &to_target);
        CHECK(rr_to_target_get(&to_target, rr_pos_at(0, 0), false) == 4);
    }
    { /* moves follow the referee */
        static const int want[3][2] = {{0, 0}, {1, 1}, {2, 0}};
        static const int jumps[5][2] = {{0, 2}, {2, 2}, {1, 1}, {1, 4}, {1, 0}};
        s = load(J_MAP, RR_DUEL);
        CHECK(path_is(moves, rr_legal_moves(s, s->me.pos, false, moves), want, 3));
        CHECK(path_is(moves, rr_legal_moves(s, rr_pos_at(1, 2), true, moves), jumps, 5));
        CHECK(!rr_check_move(&s->grid, rr_pos_at(1, 2), rr_pos_at(1, 3), false, why, sizeof why));
        CHECK(strcmp(why, "(1, 3) is `W`, which cannot be entered") == 0);
        CHECK(!rr_check_move(&s->grid, rr_pos_at(1, 0), rr_pos_at(1, 2), false, why, sizeof why));
        CHECK(strcmp(why, "(1, 0) to (1, 2) is two cells away and the player has no Jump") == 0);
        CHECK(!rr_check_move(&s->grid, rr_pos_at(1, 0), rr_pos_at(1, 0), false, why, sizeof why));
        CHECK(strcmp(why, "(1, 0) is where the player already is (answer WAIT to stay)") == 0);
        CHECK(!rr_check_move(&s->grid, rr_pos_at(0, 0), rr_pos_at(1, 1), true, why, sizeof why));
        CHECK(strcmp(why, "(0, 0) to (1, 1) is not a step or a straight two-cell jump") == 0);
        CHECK(!rr_check_move(&s->grid, rr_pos_at(0, 0), rr_pos_at(-1, 0), true, why, sizeof why));
        CHECK(strcmp(why, "(-1, 0) is off the map") == 0);
        s = load(ROW_MAP, RR_DUEL);
        CHECK(!rr_check_move(&s->grid, rr_pos_at(1, 0), rr_pos_at(1, 2), true, why, sizeof why));
        CHECK(strcmp(why, "cannot jump over the fire at (1, 1)") == 0);
        CHECK(rr_check_move(&s->grid, rr_pos_at(0, 1), rr_pos_at(0, 0), false, NULL, 0));
        CHECK(rr_safe_moves(s, rr_pos_at(1, 0), false, moves) == 0);
    }
    { /* a duel settles a tick when the opponent's move arrives */
        s = load(ROW_MAP, RR_DUEL);
        rr_on_tick(s, 1, rr_wait());
        CHECK(rr_ticks_left(s) == 6);
        rr_commit(s, rr_move(rr_pos_at(0, 2)));
        rr_on_tick(s, 2, rr_move(rr_pos_at(0, 2)));
        CHECK(rr_pos_eq(s->me.pos, rr_pos_at(0, 2)) && s->me.score == 0 && s->opponent.score == 0);
        CHECK(rr_at(&s->grid, rr_pos_at(0, 2)).kind == '0' && rr_ticks_left(s) == 5);
    }
    { /* an opponent in fire forfeits; one on the final finishes */
        s = load(ROW_MAP_SWAPPED, RR_DUEL);
        rr_on_tick(s, 1, rr_wait());
        rr_commit(s, rr_wait());
        rr_on_tick(s, 2, rr_move(rr_pos_at(0, 0)));
        CHECK(s->opponent.status == RR_FORFEIT && s->opponent.score == 0);
        s = load(ROW_MAP, RR_DUEL);
        rr_on_tick(s, 1, rr_wait());
        rr_on_tick(s, 2, rr_move(rr_pos_at(0, 4)));
        CHECK(s->opponent.status == RR_FINISHED);
    }
    { /* in a test the scripted opponent takes first and scores nothing */
        s = load(ROW_MAP, RR_TEST);
        rr_on_tick(s, 1, rr_move(rr_pos_at(0, 2)));
        CHECK(rr_at(&s->grid, rr_pos_at(0, 2)).kind == '0' && s->opponent.score == 0);
        rr_commit(s, rr_move(rr_pos_at(0, 2)));
        CHECK(rr_pos_eq(s->me.pos, rr_pos_at(0, 2)) && s->me.score == 0);
    }
    { /* multipliers multiply and scores saturate */
        const char *cells[3] = {"D", "T", "9"};
        memset(&p, 0, sizeof p);
        p.multiplier = 1;
        for (k = 0; k < 3; k++) {
            rr_parse_cell(cells[k], &c);
            rr_collect(&p, c);
        }
        CHECK(p.multiplier == 6 && p.score == 54);
        rr_parse_cell("T", &c);
        for (k = 0; k < 100; k++) rr_collect(&p, c);
        rr_parse_cell("99", &c);
        rr_collect(&p, c);
        CHECK(p.multiplier == LLONG_MAX && p.score == LLONG_MAX);
    }
    { /* CRLF input reads like LF, one line per answer */
        sprintf(lf, "%s%s", J_MAP, ticks);
        for (i = 0, k = 0; lf[i]; i++) {
            if (lf[i] == '\n') crlf[k++] = '\r';
            crlf[k++] = lf[i];
        }
        crlf[k] = '\0';
        strcpy(first, run_on(lf, 0));
        CHECK(strcmp(first, "MOVE 1 1\nMOVE 1 2\nMOVE 1 4\n") == 0);
        CHECK(strcmp(run_on(crlf, 0), first) == 0);
    }
    { /* bad lines are named */
        char bad[512];
        CHECK(!rr_parse_tick("TICK x WAIT\r\n", &(int){0}, &(rr_action){0}, why, sizeof why));
        CHECK(strstr(why, "bad TICK line `TICK x WAIT`") != NULL);
        strcpy(bad, J_MAP);
        bad[strstr(bad, "0 J 0") - bad + 2] = 'Q';
        CHECK(!rr_parse_header(bad, RR_DUEL, &game, why, sizeof why));
        CHECK(strstr(why, "bad cell `Q`") != NULL);
    }
    { /* Atoms and Tactics loops answer each prompt */
        CHECK(strcmp(run_on("ATOMS 2 3 2 G\r\nTURN 2\r\nR1 .. ..\r\n.. .. ..\r\nEND\r\n", 1), "PLACE 1 0\n") == 0);
        CHECK(strcmp(run_on("TACTICS 2 3 2 B\nROUND 1/2\nPHASE PLACEMENT\nCHIPS 2\nA1 ~~ ..\n.. .. B12\nEND\n", 2),
                     "place 2 3 2\n") == 0);
    }
    if (failures)
        fprintf(stderr, "%d failed\n", failures);
    else
        printf("all C kit tests passed\n");
    return failures ? 1 : 0;
}
