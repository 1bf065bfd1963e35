/**
 * @file botkit.h
 * @brief The C99 starter kit for the Resource Rush arena: this header and botkit.c.
 *
 * The arena starts your bot as a process and talks to it over stdin/stdout. For Resource Rush
 * it first sends the map header from your point of view (your own start on line 2), then one
 * `TICK t <opponent's last action>` line per tick; you answer each with exactly one line,
 * `WAIT` or `MOVE x y`. This kit does all of that for you:
 *
 * - ::rr_game tracks the map (collected cells become ground), both players' positions, scores,
 *   multipliers and Jump, and the ticks left, exactly as the referee does, in duels and in the
 *   single-player tests (`RR_MODE=test`);
 * - rr_check_move() and rr_resolve() are the rules the referee enforces;
 * - rr_legal_moves(), rr_path_to(), rr_distance_to() and rr_reach_from() find moves and
 *   shortest paths, planning through picking up a `J` on the way;
 * - rr_run() owns the loop: it reads stdin, calls your function, prints and flushes each answer.
 *
 * A complete bot:
 * @code
 * #include "botkit.h"
 *
 * static rr_action act(const rr_game *g, void *user) {
 *     rr_pos path[RR_MAX_CELLS];
 *     (void)user;
 *     // A shortest path to the final (through a J if that is shorter).
 *     if (rr_path_to(g, g->final_pos, path, RR_MAX_CELLS) > 0) return rr_move(path[0]);
 *     return rr_wait();
 * }
 *
 * int main(void) { return rr_run(act, NULL); }
 * @endcode
 *
 * Coordinates: `x` is the row, `y` the column, both from 0. Atoms (`atoms_*`) and OOPtimal
 * Tactics (`tactics_*`) have their protocol parsing and answer loop here too.
 *
 * Print debug output to stderr only: stdout is the protocol. With `RR_DEBUG=1` in the
 * environment, rr_run() prints its view of every settled tick to stderr (rr_view_line()).
 */
#ifndef BOTKIT_H
#define BOTKIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/** Largest number of rows or columns a map may have. */
#define RR_MAX_SIDE 50
/** Most cells a map may have. */
#define RR_MAX_CELLS (RR_MAX_SIDE * RR_MAX_SIDE)

/** A cell position: `x` is the row, `y` the column. */
typedef struct {
    int x; /**< Row. */
    int y; /**< Column. */
} rr_pos;

/** What a cell holds. `kind` is the map letter: `'0'` ground, `'R'` a resource (its points in
 *  `value`), `'E'` void, `'W'` wall, `'F'` fire, `'J'` jump, `'D'` double, `'T'` triple. */
typedef struct {
    char kind; /**< The map letter (`'R'` for a resource). */
    int value; /**< Points of a resource (1..99), else 0. */
} rr_cell;

/** A player's answer: `WAIT`, or `MOVE x y` to `to`. */
typedef struct {
    bool moves; /**< false: WAIT. */
    rr_pos to;  /**< The destination of a move. */
} rr_action;

/** Where a player stands in the match. */
typedef enum {
    RR_PLAYING,  /**< Still answering TICKs. */
    RR_FINISHED, /**< Reached the final; its score is final. */
    RR_FORFEIT   /**< Out of the game with score 0 (for the opponent: entered fire). */
} rr_status;

/** One player as far as the protocol tells. */
typedef struct {
    rr_pos pos;           /**< Where it stands. */
    long long score;      /**< Points so far (stops at LLONG_MAX). */
    long long multiplier; /**< Product of the D (x2) and T (x3) taken (stops at LLONG_MAX). */
    bool jump;            /**< Holds Jump. */
    rr_status status;     /**< Playing, finished or out. */
} rr_player;

/** How the referee orders the opponent's move against yours. */
typedef enum {
    RR_DUEL, /**< Both moves at once; `TICK t` reports the opponent's move of tick t-1. */
    RR_TEST  /**< Single-player test: `TICK t` is the scripted opponent's move of tick t, applied first. */
} rr_mode;

/** The map: rows x cols cells, row-major. */
typedef struct {
    int rows;                     /**< N. */
    int cols;                     /**< M. */
    rr_cell cells[RR_MAX_CELLS];  /**< Row by row: cell (x, y) is cells[x * cols + y]. */
} rr_grid;

/** The game as your bot sees it, updated by rr_run() after every TICK line.
 *
 * In a test, the scripted opponent takes what lies where it goes but scores nothing (as the
 * referee counts it). An opponent that entered fire is RR_FORFEIT with score 0; one that
 * reached the final is RR_FINISHED. (An opponent that forfeits for a bad answer just shows as
 * waiting: the protocol does not tell.) */
typedef struct {
    int rounds;        /**< Ticks in the game. */
    rr_grid grid;      /**< The map now: collected cells are ground (`'0'`). */
    rr_pos starts[2];  /**< Your start, the opponent's. */
    rr_pos final_pos;  /**< The cell both players must reach. */
    rr_player me;      /**< You. */
    rr_player opponent; /**< The opponent. */
    int tick;          /**< The tick being answered (0 before the first TICK). */
    rr_mode mode;      /**< Duel or single-player test. */
    /* Private to the kit: your last answer, and the safe moves from every cell. */
    rr_action pending_;
    unsigned char nmoves_[2][RR_MAX_CELLS];
    short moves_[2][RR_MAX_CELLS][8];
} rr_game;

/** What happened in a tick (see rr_resolve()). */
typedef struct {
    enum { RR_COLLECTED, RR_CANCELLED, RR_FIRE } kind; /**< What. */
    int player;       /**< Who (-1 for RR_CANCELLED). */
    rr_pos pos;       /**< Where. */
    rr_cell item;     /**< What the cell held. */
    long long points; /**< Points earned (RR_COLLECTED). */
} rr_event;

/** Shortest paths from one source over (cell, holds Jump) states (rr_reach_from()). */
typedef struct {
    int rows, cols;              /**< The map's size. */
    int dist[2 * RR_MAX_CELLS];  /**< Ticks to (cell, jump): index jump * rows * cols + x * cols + y; -1 if unreachable. */
    int parent[2 * RR_MAX_CELLS]; /**< The state before it on a shortest path (-1 at the source). */
} rr_reach;

/** Ticks from every (cell, holds Jump) state to one target (rr_distances_to()). */
typedef struct {
    int rows, cols;             /**< The map's size. */
    int dist[2 * RR_MAX_CELLS]; /**< Same indexing as rr_reach::dist; -1 if impossible. */
} rr_to_target;

/** Your bot: this tick's answer given the state; `user` is what you gave rr_run(). */
typedef rr_action (*rr_act_fn)(const rr_game *g, void *user);

/** `WAIT`. */
rr_action rr_wait(void);
/** `MOVE to.x to.y`. */
rr_action rr_move(rr_pos to);
/** A position from row and column. */
rr_pos rr_pos_at(int x, int y);
/** Whether two positions are the same. */
bool rr_pos_eq(rr_pos a, rr_pos b);
/** Writes the answer line (no newline) into `out`. */
void rr_action_str(rr_action a, char *out, size_t size);

/** Parses a map token (`0`, `1`..`99`, `E`, `W`, `F`, `J`, `D`, `T`); false if it is not one. */
bool rr_parse_cell(const char *token, rr_cell *out);
/** A player may stand here: ground, resources and power-ups (not E, W, F). */
bool rr_walkable(rr_cell c);
/** Moving here collects something: a resource or a power-up. */
bool rr_collectable(rr_cell c);
/** Whether `p` lies on the map. */
bool rr_in_bounds(const rr_grid *g, rr_pos p);
/** The cell at `p`, which must be on the map. */
rr_cell rr_at(const rr_grid *g, rr_pos p);

/** Whether the move `from` -> `to` is valid on `g` (entering fire is valid, and fatal). When
 *  it is not and `why` is not NULL, writes the referee's reason there. */
bool rr_check_move(const rr_grid *g, rr_pos from, rr_pos to, bool has_jump, char *why, size_t why_size);
/** Takes what `c` holds (points, Jump or multiplier) and returns the points earned. */
long long rr_collect(rr_player *p, rr_cell c);
/** Applies one tick of already validated moves at once, as the referee does: `moves[i]` is
 *  player i's answer (WAIT when it waited or is done). Two players moving onto the same item
 *  cancel it. Writes up to `n` events to `events` (may be NULL) and returns their number. */
int rr_resolve(rr_grid *g, rr_player *players[], const rr_action moves[], int n, rr_event *events);

/** Reads the header text (everything up to and including `STREAM`). Returns false and writes
 *  why into `err` when it is not a valid header. */
bool rr_parse_header(const char *text, rr_mode mode, rr_game *out, char *err, size_t err_size);
/** Parses `TICK t WAIT` / `TICK t MOVE x y`. Returns false and writes why into `err` if not. */
bool rr_parse_tick(const char *line, int *tick, rr_action *action, char *err, size_t err_size);

/** Ticks still to play, the current one included. */
int rr_ticks_left(const rr_game *g);
/** Valid destinations from `from` holding Jump or not, fire included (valid, but fatal);
 *  steps first, then jumps, each clockwise from up. Writes at most 8 and returns how many. */
int rr_legal_moves(const rr_game *g, rr_pos from, bool jump, rr_pos out[8]);
/** Like rr_legal_moves(), without the moves into fire. */
int rr_safe_moves(const rr_game *g, rr_pos from, bool jump, rr_pos out[8]);

/** Shortest paths from `from` (holding Jump or not) to everywhere over safe moves, picking up
 *  any `J` on the way. Paths do not go on through the final (reaching it ends your game)
 *  unless they start there. `out` is large: make it static or allocate it. */
void rr_reach_from(const rr_game *g, rr_pos from, bool jump, rr_reach *out);
/** Ticks to reach `p` holding Jump (`jump` true) or not; -1 when impossible. */
int rr_reach_dist(const rr_reach *r, rr_pos p, bool jump);
/** Ticks to reach `p` either way; -1 when unreachable. */
int rr_reach_best(const rr_reach *r, rr_pos p);
/** Whether the quickest arrival at `p` holds Jump (false on a tie, or when unreachable). */
bool rr_reach_best_jump(const rr_reach *r, rr_pos p);
/** Writes the cells of a shortest path to `p` (arriving with Jump as given; the source
 *  excluded, `p` included) into `out` (room for `cap`) and returns its length: 0 at the
 *  source, -1 when unreachable or longer than `cap`. */
int rr_reach_path(const rr_reach *r, rr_pos p, bool jump, rr_pos *out, int cap);

/** Ticks from every cell, holding Jump or not, to `target` over safe moves, picking up any
 *  `J` on the way, on paths that do not cross the final before their end. */
void rr_distances_to(const rr_game *g, rr_pos target, rr_to_target *out);
/** Ticks from `p` holding Jump (`jump` true) or not to the target; -1 when impossible. */
int rr_to_target_get(const rr_to_target *t, rr_pos p, bool jump);

/** Writes a shortest safe path from you to `target` into `out` (yours excluded, the target
 *  included), through a `J` when picking it up makes the way shorter, never crossing the final
 *  before the end. Returns its length: 0 when you are there, -1 when unreachable. */
int rr_path_to(const rr_game *g, rr_pos target, rr_pos *out, int cap);
/** Ticks to `target` along rr_path_to(); -1 when unreachable. */
int rr_distance_to(const rr_game *g, rr_pos target);

/** Takes in `TICK tick <opponent action>`; rr_run() calls it before your bot acts. */
void rr_on_tick(rr_game *g, int tick, rr_action opponent);
/** Records your answer for the current tick; rr_run() calls it after your bot acts. */
void rr_commit(rr_game *g, rr_action mine);
/** One line describing the state after tick `frame` (what `RR_DEBUG` prints): `RR_VIEW frame`,
 *  then x y score multiplier jump for you and the opponent, then the number of items left on
 *  the map and the sum of the resources left. */
void rr_view_line(const rr_game *g, int frame, char *out, size_t size);

/** Plays Resource Rush on stdin/stdout until the arena closes stdin, calling `act` for every
 *  TICK and flushing each answer. The mode comes from `RR_MODE`, the debug view from
 *  `RR_DEBUG`. Returns the exit status for main(): 0, or 1 after printing to stderr why a
 *  line could not be read. */
int rr_run(rr_act_fn act, void *user);
/** rr_run() on any streams; `debug` (may be NULL) receives the view lines. */
int rr_run_io(rr_act_fn act, void *user, FILE *in, FILE *out, rr_mode mode, FILE *debug);

/* ---- Atoms: `ATOMS <players> <width> <height> <your letter>`, then at each of your turns
 *      `TURN n`, the board and `END`; you answer `PLACE x y` (x the column, y the row). ---- */

/** One Atoms cell: `owner` is '.' when empty, else the owner's letter, with its atoms. */
typedef struct {
    char owner; /**< The owner's letter, or '.' when empty. */
    int atoms;  /**< Atoms on it. */
} atoms_cell;

/** What an Atoms bot sees at its turn. */
typedef struct {
    int players;        /**< Players in the game. */
    int width;          /**< Board width (x ranges over it). */
    int height;         /**< Board height (y ranges over it). */
    char me;            /**< Your colour letter. */
    int turn;           /**< The move number being played (1 for the first move). */
    atoms_cell *cells;  /**< Row by row: cell (x, y) is cells[y * width + x]. */
} atoms_view;

/** Your Atoms bot: writes the cell to place on into `*x`, `*y`. */
typedef void (*atoms_place_fn)(const atoms_view *v, void *user, int *x, int *y);

/** The explosion limit of (x, y): 2 in a corner, 3 on an edge, 4 inside. */
int atoms_limit(int width, int height, int x, int y);
/** The cell at (x, y). */
atoms_cell atoms_at(const atoms_view *v, int x, int y);
/** The neighbours of (x, y), clockwise from the one above; returns how many (at most 4). */
int atoms_neighbours(const atoms_view *v, int x, int y, int out[4][2]);
/** Whether you may place on (x, y): empty or yours. */
bool atoms_legal(const atoms_view *v, int x, int y);
/** Plays Atoms on stdin/stdout; returns the exit status for main(). */
int atoms_run(atoms_place_fn place, void *user);
/** atoms_run() on any streams. */
int atoms_run_io(atoms_place_fn place, void *user, FILE *in, FILE *out);

/* ---- OOPtimal Tactics: `TACTICS <rounds> <width> <height> <A|B>`, then at each of your turns
 *      `ROUND r/rounds`, `PHASE PLACEMENT|MOVEMENT`, `CHIPS n`, the map and `END`; you answer
 *      one command. Coordinates are 1-based (column, row). ---- */

/** One Tactics field: `owner` is '.' when empty, '~' for water, else the holder's letter. */
typedef struct {
    char owner; /**< '.', '~' or 'A' / 'B'. */
    int chips;  /**< Chips on a held field. */
} tactics_field;

/** What a Tactics bot sees at its turn. */
typedef struct {
    int rounds;            /**< Rounds in the match. */
    int round;             /**< The round being played (from 1). */
    bool movement;         /**< Movement Phase (else Placement Phase). */
    int chips;             /**< Your unplaced chips. */
    char me;               /**< Your letter. */
    int width;             /**< Columns. */
    int height;            /**< Rows. */
    tactics_field *fields; /**< Row by row: (col, row) is fields[(row - 1) * width + col - 1]. */
} tactics_view;

/** Your Tactics bot: writes one command line (no newline) into `command`. */
typedef void (*tactics_act_fn)(const tactics_view *v, void *user, char *command, size_t size);

/** Whether 1-based (col, row) is on the map. */
bool tactics_on_map(const tactics_view *v, int col, int row);
/** The field at 1-based (col, row), which must be on the map. */
tactics_field tactics_at(const tactics_view *v, int col, int row);
/** The fields next to (col, row), diagonals included, that are not water; returns how many. */
int tactics_neighbours(const tactics_view *v, int col, int row, int out[8][2]);
/** How many fields the player with `letter` holds. */
int tactics_claimed(const tactics_view *v, char letter);
/** Writes `place AMOUNT COL ROW`. */
void tactics_place(char *command, size_t size, int amount, int col, int row);
/** Writes `move AMOUNT FROM_COL FROM_ROW TO_COL TO_ROW`. */
void tactics_move(char *command, size_t size, int amount, int from_col, int from_row, int to_col, int to_row);
/** Writes `pass`. */
void tactics_pass(char *command, size_t size);
/** Plays Tactics on stdin/stdout; returns the exit status for main(). */
int tactics_run(tactics_act_fn act, void *user);
/** tactics_run() on any streams. */
int tactics_run_io(tactics_act_fn act, void *user, FILE *in, FILE *out);

#endif
