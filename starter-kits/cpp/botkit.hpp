/**
 * @file botkit.hpp
 * @brief The C++17 starter kit for the Resource Rush arena: one header, nothing to link.
 *
 * The arena starts your bot as a process and talks to it over stdin/stdout. For Resource Rush
 * it first sends the map header from your point of view (your own start on line 2), then one
 * `TICK t <opponent's last action>` line per tick; you answer each with exactly one line,
 * `WAIT` or `MOVE x y`. This header does all of that for you:
 *
 * - botkit::Game tracks the map (collected cells become ground), both players' positions,
 *   scores, multipliers and Jump, and the ticks left, exactly as the referee does, in duels
 *   and in the single-player tests (`RR_MODE=test`);
 * - botkit::move_error() and botkit::resolve() are the rules the referee enforces;
 * - Game::legal_moves(), Game::path_to(), Game::distance_to() and Game::reach_from() find
 *   moves and shortest paths, planning through picking up a `J` on the way;
 * - botkit::run() owns the loop: it reads stdin, calls your bot, prints and flushes each answer.
 *
 * A complete bot:
 * @code
 * #include "botkit.hpp"
 *
 * struct ToTheFinal {
 *     botkit::Action act(const botkit::Game& g) {
 *         // A shortest path to the final (through a J if that is shorter).
 *         auto path = g.path_to(g.final_pos);
 *         return path.empty() ? botkit::Action::wait() : botkit::Action::move(path[0]);
 *     }
 * };
 *
 * int main() { ToTheFinal bot; return botkit::run(bot); }
 * @endcode
 *
 * Coordinates: `x` is the row, `y` the column, both from 0. Atoms (botkit::atoms) and
 * OOPtimal Tactics (botkit::tactics) have their protocol parsing and answer loop here too.
 *
 * Print debug output to std::cerr only: stdout is the protocol. With `RR_DEBUG=1` in the
 * environment, run() prints its view of every settled tick to stderr (Game::view_line()).
 */
#ifndef BOTKIT_HPP
#define BOTKIT_HPP

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace botkit {

/// Largest number of rows or columns a map may have.
constexpr int MAX_SIDE = 50;

/// A line from the arena that the kit could not understand (what() says which and why).
struct ProtocolError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// A cell position: `x` is the row, `y` the column. Ordered by row, then column.
struct Pos {
    int x = 0;  ///< Row.
    int y = 0;  ///< Column.
    bool operator==(const Pos& o) const { return x == o.x && y == o.y; }
    bool operator!=(const Pos& o) const { return !(*this == o); }
    bool operator<(const Pos& o) const { return x != o.x ? x < o.x : y < o.y; }
};

/// `(x, y)`, as the referee writes positions in its messages.
inline std::string to_string(Pos p) { return "(" + std::to_string(p.x) + ", " + std::to_string(p.y) + ")"; }

/// What a cell holds. `kind` is the map letter: `'0'` ground, `'R'` a resource (its points
/// in `value`), `'E'` void, `'W'` wall, `'F'` fire, `'J'` jump, `'D'` double, `'T'` triple.
struct Cell {
    char kind = '0';  ///< The map letter (`'R'` for a resource).
    int value = 0;    ///< Points of a resource (1..99), else 0.

    /// Parses a map token (`0`, `1`..`99`, `E`, `W`, `F`, `J`, `D`, `T`); false if it is not one.
    static bool parse(const std::string& token, Cell& out) {
        if (token.size() == 1 && std::string("EWFJDT").find(token[0]) != std::string::npos) {
            out = Cell{token[0], 0};
            return true;
        }
        if (token.empty() || token.size() > 3) return false;
        for (char c : token)
            if (c < '0' || c > '9') return false;
        int v = std::stoi(token);
        if (v > 99) return false;
        out = v == 0 ? Cell{'0', 0} : Cell{'R', v};
        return true;
    }
    /// A player may stand here: ground, resources and power-ups (not E, W, F).
    bool walkable() const { return kind != 'E' && kind != 'W' && kind != 'F'; }
    /// Moving here collects something: a resource or a power-up.
    bool collectable() const { return kind == 'R' || kind == 'J' || kind == 'D' || kind == 'T'; }
    /// The token as the protocol writes it.
    std::string str() const { return kind == 'R' ? std::to_string(value) : std::string(1, kind); }
    bool operator==(const Cell& o) const { return kind == o.kind && value == o.value; }
};

/// A player's answer: `WAIT`, or `MOVE x y` to `to`.
struct Action {
    bool moves = false;  ///< false: WAIT.
    Pos to;              ///< The destination of a move.
    /// `WAIT`.
    static Action wait() { return Action{}; }
    /// `MOVE to.x to.y`.
    static Action move(Pos to) { return Action{true, to}; }
    /// The answer line, without the newline.
    std::string str() const {
        return moves ? "MOVE " + std::to_string(to.x) + " " + std::to_string(to.y) : std::string("WAIT");
    }
};

/// Where a player stands in the match.
enum class Status {
    Playing,   ///< Still answering TICKs.
    Finished,  ///< Reached the final; its score is final.
    Forfeit    ///< Out of the game with score 0 (for the opponent: entered fire).
};

/// One player as far as the protocol tells.
struct Player {
    Pos pos;                      ///< Where it stands.
    long long score = 0;          ///< Points so far (stops at LLONG_MAX).
    long long multiplier = 1;     ///< Product of the D (x2) and T (x3) taken (stops at LLONG_MAX).
    bool jump = false;            ///< Holds Jump.
    Status status = Status::Playing;  ///< Playing, finished or out.

    /// Takes what `c` holds (points, Jump or multiplier) and returns the points earned.
    long long collect(const Cell& c) {
        auto sat_mul = [](long long a, long long b) { return a > LLONG_MAX / b ? LLONG_MAX : a * b; };
        switch (c.kind) {
            case 'R': {
                long long points = sat_mul(multiplier, c.value);
                score = score > LLONG_MAX - points ? LLONG_MAX : score + points;
                return points;
            }
            case 'J': jump = true; return 0;
            case 'D': multiplier = sat_mul(multiplier, 2); return 0;
            case 'T': multiplier = sat_mul(multiplier, 3); return 0;
            default: return 0;
        }
    }
};

/// The map: rows x cols cells, row-major.
struct Grid {
    int rows = 0;             ///< N.
    int cols = 0;             ///< M.
    std::vector<Cell> cells;  ///< Row by row.

    /// Whether `p` lies on the map.
    bool in_bounds(Pos p) const { return p.x >= 0 && p.y >= 0 && p.x < rows && p.y < cols; }
    /// The cell at `p` (which must be in bounds).
    const Cell& at(Pos p) const { return cells[p.x * cols + p.y]; }
    /// The cell at `p` (which must be in bounds), to change it.
    Cell& at(Pos p) { return cells[p.x * cols + p.y]; }
};

/// Why the move `from` -> `to` is invalid on `g`, or "" if it is valid. Entering fire is valid
/// (and fatal). This is the referee's check, with its words.
inline std::string move_error(const Grid& g, Pos from, Pos to, bool has_jump) {
    if (!g.in_bounds(to)) return to_string(to) + " is off the map";
    int dx = to.x - from.x, dy = to.y - from.y, ax = std::abs(dx), ay = std::abs(dy);
    bool jump = false;
    if (ax == 0 && ay == 0) return to_string(to) + " is where the player already is (answer WAIT to stay)";
    if (ax + ay == 1) {
    } else if ((ax == 2 && ay == 0) || (ax == 0 && ay == 2)) {
        if (!has_jump) return to_string(from) + " to " + to_string(to) + " is two cells away and the player has no Jump";
        jump = true;
    } else {
        return to_string(from) + " to " + to_string(to) + " is not a step or a straight two-cell jump";
    }
    const Cell& dest = g.at(to);
    if (dest.kind == 'W' || dest.kind == 'E') return to_string(to) + " is `" + dest.str() + "`, which cannot be entered";
    Pos middle{from.x + dx / 2, from.y + dy / 2};
    if (jump && g.in_bounds(middle) && g.at(middle).kind == 'F') return "cannot jump over the fire at " + to_string(middle);
    return "";
}

/// What happened in a tick (see resolve()).
struct Event {
    enum Kind { Collected, Cancelled, Fire } kind;  ///< What.
    int player;        ///< Who (-1 for Cancelled).
    Pos pos;           ///< Where.
    Cell item;         ///< What the cell held.
    long long points;  ///< Points earned (Collected).
};

/// Applies one tick of already validated moves at once, as the referee does. `moves[i]` is
/// player i's destination, or a WAIT (waited, or done). Two players moving onto the same item
/// cancel it (nobody gets it, the cell becomes ground).
inline std::vector<Event> resolve(Grid& g, std::vector<Player*> players, const std::vector<Action>& moves) {
    std::vector<Event> events;
    for (size_t i = 0; i < moves.size(); ++i) {
        if (!moves[i].moves) continue;
        Pos dest = moves[i].to;
        players[i]->pos = dest;
        if (!g.in_bounds(dest)) continue;
        Cell cell = g.at(dest);
        if (cell.kind == 'F') {
            events.push_back({Event::Fire, int(i), dest, cell, 0});
            continue;
        }
        if (!cell.collectable()) continue;
        size_t first = i;
        bool shared = false;
        for (size_t j = 0; j < moves.size(); ++j)
            if (j != i && moves[j].moves && moves[j].to == dest) {
                shared = true;
                first = std::min(first, j);
            }
        if (shared) {
            if (first == i) events.push_back({Event::Cancelled, -1, dest, cell, 0});
            continue;
        }
        events.push_back({Event::Collected, int(i), dest, cell, players[i]->collect(cell)});
    }
    for (const Event& e : events)
        if (e.kind != Event::Fire) g.at(e.pos) = Cell{};
    return events;
}

/// How the referee orders the opponent's move against yours.
enum class Mode {
    Duel,  ///< Both moves of a tick at once; `TICK t` reports the opponent's move of tick t-1.
    Test   ///< Single-player test: `TICK t` is the scripted opponent's move of tick t, applied first.
};

/// Splits a line into whitespace-separated words (a `\r` counts as whitespace).
inline std::vector<std::string> words(const std::string& line) {
    std::vector<std::string> out;
    std::string w;
    for (char c : line) {
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
            if (!w.empty()) out.push_back(w), w.clear();
        } else {
            w += c;
        }
    }
    if (!w.empty()) out.push_back(w);
    return out;
}

/// Parses an integer token exactly (no trailing garbage); false if it is not one.
inline bool parse_int(const std::string& s, long long& out) {
    if (s.empty() || s.size() > 18) return false;
    size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
    if (i == s.size()) return false;
    for (size_t k = i; k < s.size(); ++k)
        if (s[k] < '0' || s[k] > '9') return false;
    out = std::stoll(s);
    return true;
}

/// Parses `TICK t WAIT` / `TICK t MOVE x y` into the tick and the action; throws ProtocolError.
inline std::pair<int, Action> parse_tick(const std::string& line) {
    auto w = words(line);
    std::string shown = line;
    while (!shown.empty() && (shown.back() == '\r' || shown.back() == '\n')) shown.pop_back();
    long long t = 0, x = 0, y = 0;
    if (w.size() < 3 || w[0] != "TICK") throw ProtocolError("bad TICK line `" + shown + "`: expected `TICK t <action>`");
    if (!parse_int(w[1], t) || t < 0 || t > INT_MAX)
        throw ProtocolError("bad TICK line `" + shown + "`: `" + w[1] + "` is not a tick number");
    if (w.size() == 3 && w[2] == "WAIT") return {int(t), Action::wait()};
    if (w.size() == 5 && w[2] == "MOVE" && parse_int(w[3], x) && parse_int(w[4], y) && x >= INT_MIN && x <= INT_MAX &&
        y >= INT_MIN && y <= INT_MAX)
        return {int(t), Action::move(Pos{int(x), int(y)})};
    throw ProtocolError("bad TICK line `" + shown + "`: expected `WAIT` or `MOVE x y`");
}

/// Shortest paths from one source over (cell, holds Jump) states: a path may pick up a `J` on
/// the way and jump from then on. Made by Game::reach_from().
class Reach {
public:
    /// Ticks to reach `p` holding Jump (`jump` true) or not; -1 when impossible.
    int dist(Pos p, bool jump) const {
        int s = index(p, jump);
        return s < 0 ? -1 : dist_[s];
    }
    /// Ticks to reach `p` either way; -1 when unreachable.
    int best(Pos p) const {
        int a = dist(p, false), b = dist(p, true);
        if (a < 0) return b;
        if (b < 0) return a;
        return std::min(a, b);
    }
    /// Whether the quickest arrival at `p` holds Jump (false on a tie, or when unreachable).
    bool best_jump(Pos p) const {
        int a = dist(p, false), b = dist(p, true);
        return b >= 0 && (a < 0 || b < a);
    }
    /// The cells of a shortest path to `p` arriving with Jump as given: the source excluded,
    /// `p` included. Empty at the source and when unreachable (check dist()).
    std::vector<Pos> path(Pos p, bool jump) const {
        std::vector<Pos> out;
        int s = index(p, jump);
        if (s < 0 || dist_[s] < 0) return out;
        int n = rows_ * cols_;
        while (parent_[s] >= 0) {
            int i = s % n;
            out.push_back(Pos{i / cols_, i % cols_});
            s = parent_[s];
        }
        std::reverse(out.begin(), out.end());
        return out;
    }

private:
    friend class Game;
    int rows_ = 0, cols_ = 0;
    std::vector<int> dist_, parent_;
    int index(Pos p, bool jump) const {
        if (p.x < 0 || p.y < 0 || p.x >= rows_ || p.y >= cols_) return -1;
        return (jump ? rows_ * cols_ : 0) + p.x * cols_ + p.y;
    }
};

/// Ticks from every (cell, holds Jump) state to one target. Made by Game::distances_to().
class ToTarget {
public:
    /// Ticks from `p` holding Jump (`jump` true) or not to the target; -1 when impossible.
    int get(Pos p, bool jump) const {
        if (p.x < 0 || p.y < 0 || p.x >= rows_ || p.y >= cols_) return -1;
        return dist_[(jump ? rows_ * cols_ : 0) + p.x * cols_ + p.y];
    }

private:
    friend class Game;
    int rows_ = 0, cols_ = 0;
    std::vector<int> dist_;
};

/// The game as your bot sees it, updated by run() after every TICK line.
///
/// In a test, the scripted opponent takes what lies where it goes but scores nothing (as the
/// referee counts it). An opponent that entered fire is Status::Forfeit with score 0; one that
/// reached the final is Status::Finished. (An opponent that forfeits for a bad answer just
/// shows as waiting: the protocol does not tell.)
class Game {
public:
    int rounds = 0;        ///< Ticks in the game.
    Grid grid;             ///< The map now: collected cells are ground (`'0'`).
    Pos starts[2];         ///< Your start, the opponent's.
    Pos final_pos;         ///< The cell both players must reach.
    Player me;             ///< You.
    Player opponent;       ///< The opponent.
    int tick = 0;          ///< The tick being answered (0 before the first TICK).
    Mode mode = Mode::Duel;  ///< Duel or single-player test.

    /// Reads the header text (everything up to and including `STREAM`); throws ProtocolError.
    static Game from_header(const std::string& text, Mode mode) {
        Game g;
        g.mode = mode;
        std::vector<std::pair<int, std::vector<std::string>>> lines;
        std::istringstream in(text);
        std::string raw;
        for (int number = 1; std::getline(in, raw); ++number) {
            auto w = words(raw.substr(0, raw.find('#')));
            if (!w.empty()) lines.emplace_back(number, w);
        }
        size_t k = 0;
        auto next = [&](const std::string& what) -> const std::pair<int, std::vector<std::string>>& {
            if (k >= lines.size()) throw ProtocolError("bad header: unexpected end, expected " + what);
            return lines[k++];
        };
        auto fail = [](int number, const std::string& why) {
            throw ProtocolError("bad header: line " + std::to_string(number) + ": " + why);
        };
        const auto& head = next("`ARENA N M ROUNDS`");
        long long n = 0, m = 0, r = 0;
        if (head.second.size() != 4 || head.second[0] != "ARENA" || !parse_int(head.second[1], n) ||
            !parse_int(head.second[2], m) || !parse_int(head.second[3], r))
            fail(head.first, "expected `ARENA N M ROUNDS`");
        if (n < 1 || n > MAX_SIDE || m < 1 || m > MAX_SIDE || r < 1 || r > INT_MAX)
            fail(head.first, "map size or rounds out of range");
        g.grid.rows = int(n);
        g.grid.cols = int(m);
        g.rounds = int(r);
        Pos places[3];
        int place_lines[3];
        const char* names[3] = {"your start", "the opponent's start", "the final"};
        for (int i = 0; i < 3; ++i) {
            const auto& l = next(std::string(names[i]) + " `X Y`");
            long long x = 0, y = 0;
            if (l.second.size() != 2 || !parse_int(l.second[0], x) || !parse_int(l.second[1], y))
                fail(l.first, std::string("expected ") + names[i] + " as `X Y`");
            places[i] = Pos{int(x), int(y)};
            place_lines[i] = l.first;
        }
        const auto& map = next("`MAP`");
        if (map.second != std::vector<std::string>{"MAP"}) fail(map.first, "expected `MAP`");
        for (int row = 0; row < g.grid.rows; ++row) {
            const auto& l = next("map row " + std::to_string(row));
            if (int(l.second.size()) != g.grid.cols)
                fail(l.first, "map row " + std::to_string(row) + " has " + std::to_string(l.second.size()) +
                                  " cells, expected " + std::to_string(g.grid.cols));
            for (const auto& token : l.second) {
                Cell c;
                if (!Cell::parse(token, c)) fail(l.first, "bad cell `" + token + "`");
                g.grid.cells.push_back(c);
            }
        }
        for (const char* word : {"END_MAP", "STREAM"}) {
            const auto& l = next(std::string("`") + word + "`");
            if (l.second != std::vector<std::string>{word}) fail(l.first, std::string("expected `") + word + "`");
        }
        for (int i = 0; i < 3; ++i)
            if (!g.grid.in_bounds(places[i]) || !g.grid.at(places[i]).walkable())
                fail(place_lines[i], std::string(names[i]) + " " + to_string(places[i]) + " is not a walkable cell");
        g.starts[0] = places[0];
        g.starts[1] = places[1];
        g.final_pos = places[2];
        g.me.pos = places[0];
        g.opponent.pos = places[1];
        // Walls, voids and fire never change, so the safe moves from every cell are fixed.
        int cells = g.grid.rows * g.grid.cols;
        for (int jump = 0; jump < 2; ++jump) {
            g.moves_[jump].resize(cells);
            for (int i = 0; i < cells; ++i)
                for (Pos q : g.safe_moves(Pos{i / g.grid.cols, i % g.grid.cols}, jump != 0))
                    g.moves_[jump][i].push_back(q.x * g.grid.cols + q.y);
        }
        return g;
    }

    /// Ticks still to play, the current one included.
    int ticks_left() const { return std::max(rounds + 1 - std::max(tick, 1), 0); }

    /// Valid destinations from `from` holding Jump or not, fire included (valid, but fatal).
    /// Steps first, then jumps, each clockwise from up.
    std::vector<Pos> legal_moves(Pos from, bool jump) const {
        static const int dx[] = {-1, 0, 1, 0}, dy[] = {0, 1, 0, -1};
        std::vector<Pos> out;
        for (int k = 1; k <= (jump ? 2 : 1); ++k)
            for (int d = 0; d < 4; ++d) {
                Pos to{from.x + dx[d] * k, from.y + dy[d] * k};
                if (move_error(grid, from, to, jump).empty()) out.push_back(to);
            }
        return out;
    }
    /// Your valid moves now, fire included.
    std::vector<Pos> legal_moves() const { return legal_moves(me.pos, me.jump); }
    /// Like legal_moves(), without the moves into fire.
    std::vector<Pos> safe_moves(Pos from, bool jump) const {
        std::vector<Pos> out;
        for (Pos p : legal_moves(from, jump))
            if (grid.at(p).kind != 'F') out.push_back(p);
        return out;
    }
    /// Your safe moves now.
    std::vector<Pos> safe_moves() const { return safe_moves(me.pos, me.jump); }

    /// Shortest paths from `from` (holding Jump or not) to everywhere over safe moves, picking
    /// up any `J` on the way. Paths do not go on through the final (reaching it ends your game)
    /// unless they start there.
    Reach reach_from(Pos from, bool jump) const {
        Reach r;
        r.rows_ = grid.rows;
        r.cols_ = grid.cols;
        int n = grid.rows * grid.cols, cols = grid.cols;
        r.dist_.assign(2 * n, -1);
        r.parent_.assign(2 * n, -1);
        if (!grid.in_bounds(from)) return r;
        int stop = final_pos.x * cols + final_pos.y;
        int src = (jump ? n : 0) + from.x * cols + from.y;
        r.dist_[src] = 0;
        std::deque<int> queue{src};
        while (!queue.empty()) {
            int s = queue.front();
            queue.pop_front();
            int j = s >= n, i = s % n;
            if (i == stop && s != src) continue;
            for (int q : moves_[j][i]) {
                int t = (j || grid.cells[q].kind == 'J' ? n : 0) + q;
                if (r.dist_[t] < 0) {
                    r.dist_[t] = r.dist_[s] + 1;
                    r.parent_[t] = s;
                    queue.push_back(t);
                }
            }
        }
        return r;
    }

    /// Ticks from every cell, holding Jump or not, to `target` over safe moves, picking up any
    /// `J` on the way, on paths that do not cross the final before their end.
    ToTarget distances_to(Pos target) const {
        ToTarget r;
        r.rows_ = grid.rows;
        r.cols_ = grid.cols;
        int n = grid.rows * grid.cols, cols = grid.cols;
        r.dist_.assign(2 * n, -1);
        if (!grid.in_bounds(target) || !grid.at(target).walkable()) return r;
        int t = target.x * cols + target.y, stop = final_pos.x * cols + final_pos.y;
        r.dist_[t] = r.dist_[n + t] = 0;
        std::deque<int> queue{t, n + t};
        while (!queue.empty()) {
            int s = queue.front();
            queue.pop_front();
            int j = s >= n, q = s % n;
            bool takes_jump = grid.cells[q].kind == 'J';
            // Predecessors: states whose move lands in this one. Moves are symmetric.
            int layers[2], count = 0;
            if (j) {
                layers[count++] = 1;
                if (takes_jump) layers[count++] = 0;
            } else if (!takes_jump) {
                layers[count++] = 0;
            }
            for (int l = 0; l < count; ++l)
                for (int p : moves_[layers[l]][q]) {
                    if (p == stop) continue;
                    int u = (layers[l] ? n : 0) + p;
                    if (r.dist_[u] < 0) {
                        r.dist_[u] = r.dist_[s] + 1;
                        queue.push_back(u);
                    }
                }
        }
        return r;
    }

    /// The cells of a shortest safe path from you to `target` (yours excluded, the target
    /// included), through a `J` when picking it up makes the way shorter, never crossing the
    /// final before the end. Empty when you are there or it is unreachable (see distance_to()).
    std::vector<Pos> path_to(Pos target) const {
        Reach r = reach_from(me.pos, me.jump);
        return r.path(target, r.best_jump(target));
    }
    /// Ticks to `target` along path_to(); -1 when unreachable.
    int distance_to(Pos target) const { return reach_from(me.pos, me.jump).best(target); }

    /// Takes in `TICK tick <opponent action>`; run() calls it before your bot acts.
    void on_tick(int t, Action opponent_action) {
        if (mode == Mode::Test) {
            // The scripted opponent moves first, unchecked, and takes what lies there.
            if (opponent_action.moves) {
                opponent.pos = opponent_action.to;
                if (grid.in_bounds(opponent.pos) && grid.at(opponent.pos).collectable()) grid.at(opponent.pos) = Cell{};
            }
        } else {
            Action theirs = opponent.status == Status::Playing ? opponent_action : Action::wait();
            for (const Event& e : resolve(grid, {&me, &opponent}, {pending_, theirs}))
                if (e.kind == Event::Fire && e.player == 1) {
                    opponent.status = Status::Forfeit;
                    opponent.score = 0;
                }
            pending_ = Action::wait();
            if (opponent.status == Status::Playing && opponent.pos == final_pos && t > 1) opponent.status = Status::Finished;
        }
        tick = t;
    }

    /// Records your answer for the current tick; run() calls it after your bot acts.
    void commit(Action a) {
        if (mode == Mode::Test) {
            if (a.moves) resolve(grid, {&me, &opponent}, {a, Action::wait()});
        } else {
            pending_ = a;
        }
    }

    /// One line describing the state after tick `frame` (what `RR_DEBUG` prints): `RR_VIEW
    /// frame`, then x y score multiplier jump for you and the opponent, then the number of
    /// items left on the map and the sum of the resources left.
    std::string view_line(int frame) const {
        std::string out = "RR_VIEW " + std::to_string(frame);
        for (const Player* p : {&me, &opponent})
            out += " " + std::to_string(p->pos.x) + " " + std::to_string(p->pos.y) + " " + std::to_string(p->score) +
                   " " + std::to_string(p->multiplier) + " " + (p->jump ? "1" : "0");
        long long items = 0, value = 0;
        for (const Cell& c : grid.cells) {
            items += c.collectable();
            value += c.kind == 'R' ? c.value : 0;
        }
        return out + " " + std::to_string(items) + " " + std::to_string(value);
    }

private:
    std::vector<std::vector<int>> moves_[2];
    Action pending_;
};

/// Removes a trailing `\r` (and `\n`), so that CRLF input reads like LF input.
inline void chomp(std::string& line) {
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n')) line.pop_back();
}

namespace detail {
/// Reads the intro line `KEYWORD a b c letter` (Atoms, Tactics) into `v` and `letter`; false at
/// the end of input; throws ProtocolError naming `shape` when the line is not one.
inline bool read_intro(std::istream& in, const char* keyword, const char* shape, long long v[3], char& letter) {
    std::string line;
    if (!std::getline(in, line)) return false;
    chomp(line);
    auto head = words(line);
    if (head.size() != 5 || head[0] != keyword || !parse_int(head[1], v[0]) || !parse_int(head[2], v[1]) ||
        !parse_int(head[3], v[2]) || v[1] < 1 || v[2] < 1)
        throw ProtocolError("bad line `" + line + "`: expected `" + shape + "`");
    letter = head[4][0];
    return true;
}

/// Refuses an opponent's move off the map, as the Rust SDK does. The arena never sends one (it
/// tells an invalid move as `WAIT`, and a test file's scripted moves are on its map), so such a
/// line was typed or piped by hand: stopping says so, where the kit would have put the opponent
/// off its map. Throws ProtocolError.
inline void check_on_map(const Grid& grid, const std::string& line, Action opponent) {
    if (!opponent.moves || grid.in_bounds(opponent.to)) return;
    throw ProtocolError("bad TICK line `" + line + "`: the opponent's move to " + to_string(opponent.to) +
                        " is off the " + std::to_string(grid.rows) + " x " + std::to_string(grid.cols) +
                        " map (the arena never sends one)");
}

/// Runs `loop`, turning a ProtocolError into a message on stderr; returns the exit status.
template <class F>
int guarded(F loop) {
    try {
        loop();
    } catch (const ProtocolError& e) {
        std::cerr << "botkit: " << e.what() << std::endl;
        return 1;
    }
    return 0;
}

/// Calls `bot.start(g)` when the bot has a start method.
template <class B>
auto start(B& bot, const Game& g, int) -> decltype(bot.start(g), void()) {
    bot.start(g);
}
template <class B>
void start(B&, const Game&, long) {}
}  // namespace detail

/// Plays Resource Rush on `in`/`out` until the arena closes the input. `bot.act(const Game&)`
/// returns an Action; an optional `bot.start(const Game&)` is called once after the header.
/// `debug`, when not null, receives Game::view_line() for every settled tick. Throws
/// ProtocolError on a line it cannot read.
template <class Bot>
void run_io(Bot& bot, std::istream& in, std::ostream& out, Mode mode, std::ostream* debug = nullptr) {
    std::string header, line;
    for (;;) {
        if (!std::getline(in, line)) return;
        header += line + "\n";
        auto w = words(line.substr(0, line.find('#')));
        if (w.size() == 1 && w[0] == "STREAM") break;
    }
    Game g = Game::from_header(header, mode);
    detail::start(bot, g, 0);
    while (std::getline(in, line)) {
        chomp(line);
        if (words(line).empty()) continue;
        auto [t, theirs] = parse_tick(line);
        detail::check_on_map(g.grid, line, theirs);
        g.on_tick(t, theirs);
        if (debug && mode == Mode::Duel) *debug << g.view_line(t - 1) << std::endl;
        Action a = bot.act(static_cast<const Game&>(g));
        g.commit(a);
        if (debug && mode == Mode::Test) *debug << g.view_line(t) << std::endl;
        out << a.str() << '\n' << std::flush;  // flush: the arena waits for this line
    }
}

/// Plays Resource Rush on stdin/stdout (see run_io()); the mode comes from `RR_MODE`, the debug
/// view from `RR_DEBUG`. Returns the exit status for main(): 0, or 1 after printing to stderr
/// why a line could not be read.
template <class Bot>
int run(Bot& bot) {
    const char* env = std::getenv("RR_MODE");
    Mode mode = env && std::string(env) == "test" ? Mode::Test : Mode::Duel;
    const char* dbg = std::getenv("RR_DEBUG");
    return detail::guarded([&] { run_io(bot, std::cin, std::cout, mode, dbg && *dbg ? &std::cerr : nullptr); });
}

/// Reads a board prompt's `height` lines of `width` cells and then `END`; `cell` turns a token
/// into a T or returns false. Throws ProtocolError.
template <class T, class F>
std::vector<T> read_board(std::istream& in, int width, int height, F cell) {
    std::vector<T> out;
    std::string line;
    for (int r = 0; r < height; ++r) {
        std::getline(in, line);
        chomp(line);
        for (const auto& token : words(line)) {
            T value;
            if (!cell(token, value)) throw ProtocolError("bad line `" + line + "`: bad cell `" + token + "`");
            out.push_back(value);
        }
    }
    line.clear();
    std::getline(in, line);
    chomp(line);
    if (words(line) != std::vector<std::string>{"END"} || int(out.size()) != width * height)
        throw ProtocolError("bad line `" + line + "`: expected the board then `END`");
    return out;
}

/// Atoms: `ATOMS <players> <width> <height> <your letter>`, then at each of your turns `TURN n`,
/// the board and `END`; you answer `PLACE x y` (x the column, y the row, from 0).
namespace atoms {

/// One cell: empty (`owner` is '.') or the owner's letter and its atoms.
struct Cell {
    char owner = '.';  ///< The owner's letter, or '.' when empty.
    int atoms = 0;     ///< Atoms on it.
};

/// The explosion limit of (x, y) on a width x height board: 2 in a corner, 3 on an edge, 4 inside.
inline int limit(int width, int height, int x, int y) {
    return 4 - (x == 0 || x == width - 1) - (y == 0 || y == height - 1);
}

/// What your bot sees at its turn.
struct View {
    int players = 0;          ///< Players in the game.
    int width = 0;            ///< Board width (x ranges over it).
    int height = 0;           ///< Board height (y ranges over it).
    char me = 'R';            ///< Your colour letter.
    int turn = 0;             ///< The move number being played (1 for the first move).
    std::vector<Cell> cells;  ///< Row by row.

    /// The cell at (x, y).
    const Cell& cell(int x, int y) const { return cells[y * width + x]; }
    /// The explosion limit at (x, y).
    int limit(int x, int y) const { return atoms::limit(width, height, x, y); }
    /// The neighbours of (x, y), clockwise from the one above (the order atoms are handed out).
    std::vector<std::pair<int, int>> neighbours(int x, int y) const {
        std::vector<std::pair<int, int>> out;
        if (y > 0) out.emplace_back(x, y - 1);
        if (x + 1 < width) out.emplace_back(x + 1, y);
        if (y + 1 < height) out.emplace_back(x, y + 1);
        if (x > 0) out.emplace_back(x - 1, y);
        return out;
    }
    /// The cells you may place on (empty or yours), row by row.
    std::vector<std::pair<int, int>> legal() const {
        std::vector<std::pair<int, int>> out;
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x)
                if (cell(x, y).owner == '.' || cell(x, y).owner == me) out.emplace_back(x, y);
        return out;
    }
};

/// Plays Atoms on `in`/`out`: `bot.place(const View&)` returns (x, y). Throws ProtocolError.
template <class Bot>
void run_io(Bot& bot, std::istream& in, std::ostream& out) {
    long long head[3];
    View v;
    if (!detail::read_intro(in, "ATOMS", "ATOMS players width height letter", head, v.me)) return;
    v.players = int(head[0]);
    v.width = int(head[1]);
    v.height = int(head[2]);
    std::string line;
    while (std::getline(in, line)) {
        chomp(line);
        auto turn = words(line);
        long long n = 0;
        if (turn.size() != 2 || turn[0] != "TURN" || !parse_int(turn[1], n))
            throw ProtocolError("bad line `" + line + "`: expected `TURN n`");
        v.turn = int(n);
        v.cells = read_board<Cell>(in, v.width, v.height, [](const std::string& t, Cell& c) {
            long long atoms = 0;
            if (t[0] == '.') return c = Cell{}, true;
            if (t.size() < 2 || !parse_int(t.substr(1), atoms)) return false;
            c = Cell{t[0], int(atoms)};
            return true;
        });
        std::pair<int, int> p = bot.place(static_cast<const View&>(v));
        out << "PLACE " << p.first << " " << p.second << '\n' << std::flush;
    }
}

/// Plays Atoms on stdin/stdout; returns the exit status for main().
template <class Bot>
int run(Bot& bot) {
    return detail::guarded([&] { run_io(bot, std::cin, std::cout); });
}

}  // namespace atoms

/// OOPtimal Tactics: `TACTICS <rounds> <width> <height> <A|B>`, then at each of your turns
/// `ROUND r/rounds`, `PHASE PLACEMENT|MOVEMENT`, `CHIPS n`, the map and `END`; you answer one
/// command. Coordinates are 1-based (column, row).
namespace tactics {

/// One field: `owner` is '.' when empty, '~' for water, else the holder's letter with `chips`.
struct Field {
    char owner = '.';  ///< '.', '~' or 'A' / 'B'.
    int chips = 0;     ///< Chips on a held field.
};

/// `place AMOUNT COL ROW` (Placement Phase).
inline std::string place(int amount, int col, int row) {
    return "place " + std::to_string(amount) + " " + std::to_string(col) + " " + std::to_string(row);
}
/// `move AMOUNT FROM_COL FROM_ROW TO_COL TO_ROW` (Movement Phase; the fields are neighbours).
inline std::string move(int amount, std::pair<int, int> from, std::pair<int, int> to) {
    return "move " + std::to_string(amount) + " " + std::to_string(from.first) + " " + std::to_string(from.second) +
           " " + std::to_string(to.first) + " " + std::to_string(to.second);
}
/// `pass`: done for this phase.
inline std::string pass() { return "pass"; }

/// What your bot sees at its turn.
struct View {
    int rounds = 0;             ///< Rounds in the match.
    int round = 0;              ///< The round being played (from 1).
    bool movement = false;      ///< Movement Phase (else Placement Phase).
    int chips = 0;              ///< Your unplaced chips.
    char me = 'A';              ///< Your letter.
    int width = 0;              ///< Columns.
    int height = 0;             ///< Rows.
    std::vector<Field> fields;  ///< Row by row.

    /// Whether 1-based (col, row) is on the map.
    bool on_map(int col, int row) const { return col >= 1 && row >= 1 && col <= width && row <= height; }
    /// The field at 1-based (col, row), which must be on the map.
    const Field& get(int col, int row) const { return fields[(row - 1) * width + col - 1]; }
    /// Your fields as (col, row).
    std::vector<std::pair<int, int>> mine() const {
        std::vector<std::pair<int, int>> out;
        for (int i = 0; i < int(fields.size()); ++i)
            if (fields[i].owner == me) out.emplace_back(i % width + 1, i / width + 1);
        return out;
    }
    /// The fields next to (col, row), diagonals included, that are not water.
    std::vector<std::pair<int, int>> neighbours(int col, int row) const {
        std::vector<std::pair<int, int>> out;
        for (int dr = -1; dr <= 1; ++dr)
            for (int dc = -1; dc <= 1; ++dc)
                if ((dc || dr) && on_map(col + dc, row + dr) && get(col + dc, row + dr).owner != '~')
                    out.emplace_back(col + dc, row + dr);
        return out;
    }
    /// How many fields the player with `letter` holds.
    int claimed(char letter) const {
        return int(std::count_if(fields.begin(), fields.end(), [&](const Field& f) { return f.owner == letter; }));
    }
};

/// Plays Tactics on `in`/`out`: `bot.act(const View&)` returns the command line. Throws
/// ProtocolError.
template <class Bot>
void run_io(Bot& bot, std::istream& in, std::ostream& out) {
    long long head[3];
    View v;
    if (!detail::read_intro(in, "TACTICS", "TACTICS rounds width height letter", head, v.me)) return;
    v.rounds = int(head[0]);
    v.width = int(head[1]);
    v.height = int(head[2]);
    std::string line;
    while (std::getline(in, line)) {
        chomp(line);
        auto round = words(line);
        long long n = 0;
        if (round.size() != 2 || round[0] != "ROUND" || !parse_int(round[1].substr(0, round[1].find('/')), n))
            throw ProtocolError("bad line `" + line + "`: expected `ROUND r/rounds`");
        v.round = int(n);
        std::getline(in, line);
        chomp(line);
        auto phase = words(line);
        if (phase.size() != 2 || phase[0] != "PHASE" || (phase[1] != "PLACEMENT" && phase[1] != "MOVEMENT"))
            throw ProtocolError("bad line `" + line + "`: expected `PHASE PLACEMENT` or `PHASE MOVEMENT`");
        v.movement = phase[1] == "MOVEMENT";
        std::getline(in, line);
        chomp(line);
        auto chips = words(line);
        if (chips.size() != 2 || chips[0] != "CHIPS" || !parse_int(chips[1], n))
            throw ProtocolError("bad line `" + line + "`: expected `CHIPS n`");
        v.chips = int(n);
        v.fields = read_board<Field>(in, v.width, v.height, [](const std::string& t, Field& f) {
            long long c = 0;
            if (t[0] == '.' || t[0] == '~') return f = Field{t[0], 0}, true;
            if (t.size() < 2 || !parse_int(t.substr(1), c)) return false;
            f = Field{t[0], int(c)};
            return true;
        });
        out << bot.act(static_cast<const View&>(v)) << '\n' << std::flush;
    }
}

/// Plays Tactics on stdin/stdout; returns the exit status for main().
template <class Bot>
int run(Bot& bot) {
    return detail::guarded([&] { run_io(bot, std::cin, std::cout); });
}

}  // namespace tactics
}  // namespace botkit

#endif
