// The C++ kit's own tests: `make test`. The same cases as the Python kit's test_botkit.py.
#include <sstream>

#include "botkit.hpp"

using namespace botkit;

static int failures = 0;
#define CHECK(cond)                                                                \
    do {                                                                           \
        if (!(cond)) {                                                             \
            std::cerr << __FILE__ << ":" << __LINE__ << ": failed: " #cond "\n";  \
            ++failures;                                                            \
        }                                                                          \
    } while (0)

// The final lies behind a wall: only a path through the J at (1, 1) gets there.
static const char* J_MAP = "ARENA 3 5 20\n1 0\n2 0\n1 4\nMAP\n0 0 0 W 0\n0 J 0 W 0\n0 0 0 W 0\nEND_MAP\nSTREAM\n";
// The plain shortest way to the 9 crosses the final at (0, 1).
static const char* FINAL_MAP = "ARENA 2 3 9\n0 0\n0 0\n0 1\nMAP\n0 0 9\n0 0 0\nEND_MAP\nSTREAM\n";
// Rows for collecting, cancelling and fire.
static const char* ROW_MAP = "ARENA 2 5 6\n0 1\n0 3\n0 4\nMAP\nF 0 9 0 0\n0 F 0 0 0\nEND_MAP\nSTREAM\n";

static std::vector<Pos> ps(std::initializer_list<Pos> l) { return l; }

struct ToFinal {
    Action act(const Game& g) {
        auto path = g.path_to(g.final_pos);
        return path.empty() ? Action::wait() : Action::move(path[0]);
    }
};

struct FirstLegal {
    std::pair<int, int> place(const atoms::View& v) { return v.legal()[0]; }
    std::string act(const tactics::View& v) {
        auto mine = v.mine();
        return tactics::place(v.chips, mine[0].first, mine[0].second);
    }
};

int main() {
    {  // paths plan through a J
        Game s = Game::from_header(J_MAP, Mode::Duel);
        CHECK(s.path_to({1, 4}) == ps({{1, 1}, {1, 2}, {1, 4}}));
        CHECK(s.distance_to({1, 4}) == 3);
        CHECK(s.reach_from(s.me.pos, false).dist({1, 4}, false) == -1);
        CHECK(s.distances_to({1, 4}).get({1, 0}, false) == 3);
        CHECK(s.distances_to({1, 4}).get({1, 0}, true) == 2);
        CHECK(s.distances_to({1, 4}).get({0, 0}, false) == 4);
        CHECK(s.path_to({1, 0}).empty() && s.distance_to({1, 0}) == 0);
        CHECK(s.distance_to({0, 3}) == -1);
    }
    {  // paths keep off the final unless going there
        Game s = Game::from_header(FINAL_MAP, Mode::Duel);
        CHECK(s.path_to({0, 2}) == ps({{1, 0}, {1, 1}, {1, 2}, {0, 2}}));
        CHECK(s.distance_to({0, 1}) == 1);
        CHECK(s.distances_to({0, 2}).get({0, 0}, false) == 4);
    }
    {  // moves follow the referee
        Game s = Game::from_header(J_MAP, Mode::Duel);
        CHECK(s.legal_moves() == ps({{0, 0}, {1, 1}, {2, 0}}));
        CHECK(s.legal_moves({1, 2}, true) == ps({{0, 2}, {2, 2}, {1, 1}, {1, 4}, {1, 0}}));
        CHECK(move_error(s.grid, {1, 2}, {1, 3}, false) == "(1, 3) is `W`, which cannot be entered");
        CHECK(move_error(s.grid, {1, 0}, {1, 2}, false) == "(1, 0) to (1, 2) is two cells away and the player has no Jump");
        CHECK(move_error(s.grid, {1, 0}, {1, 0}, false) == "(1, 0) is where the player already is (answer WAIT to stay)");
        CHECK(move_error(s.grid, {0, 0}, {1, 1}, true) == "(0, 0) to (1, 1) is not a step or a straight two-cell jump");
        CHECK(move_error(s.grid, {0, 0}, {-1, 0}, true) == "(-1, 0) is off the map");
        Game r = Game::from_header(ROW_MAP, Mode::Duel);
        CHECK(move_error(r.grid, {1, 0}, {1, 2}, true) == "cannot jump over the fire at (1, 1)");
        CHECK(move_error(r.grid, {0, 1}, {0, 0}, false).empty());
        CHECK(r.safe_moves({1, 0}, false).empty());
    }
    {  // a duel settles a tick when the opponent's move arrives
        Game s = Game::from_header(ROW_MAP, Mode::Duel);
        s.on_tick(1, Action::wait());
        CHECK(s.ticks_left() == 6);
        s.commit(Action::move({0, 2}));
        s.on_tick(2, Action::move({0, 2}));
        CHECK(s.me.pos == Pos({0, 2}) && s.me.score == 0 && s.opponent.score == 0 && s.grid.at({0, 2}).kind == '0');
        CHECK(s.ticks_left() == 5);
    }
    {  // an opponent in fire forfeits; one on the final finishes
        std::string text = ROW_MAP;
        text.replace(text.find("0 1\n0 3"), 7, "0 3\n0 1");
        Game s = Game::from_header(text, Mode::Duel);
        s.on_tick(1, Action::wait());
        s.commit(Action::wait());
        s.on_tick(2, Action::move({0, 0}));
        CHECK(s.opponent.status == Status::Forfeit && s.opponent.score == 0);
        Game t = Game::from_header(ROW_MAP, Mode::Duel);
        t.on_tick(1, Action::wait());
        t.on_tick(2, Action::move({0, 4}));
        CHECK(t.opponent.status == Status::Finished);
    }
    {  // in a test the scripted opponent takes first and scores nothing
        Game s = Game::from_header(ROW_MAP, Mode::Test);
        s.on_tick(1, Action::move({0, 2}));
        CHECK(s.grid.at({0, 2}).kind == '0' && s.opponent.score == 0);
        s.commit(Action::move({0, 2}));
        CHECK(s.me.pos == Pos({0, 2}) && s.me.score == 0);
    }
    {  // multipliers multiply and scores saturate
        Player p;
        for (const char* c : {"D", "T", "9"}) {
            Cell cell;
            Cell::parse(c, cell);
            p.collect(cell);
        }
        CHECK(p.multiplier == 6 && p.score == 54);
        for (int i = 0; i < 100; ++i) p.collect(Cell{'T', 0});
        p.collect(Cell{'R', 99});
        CHECK(p.multiplier == LLONG_MAX && p.score == LLONG_MAX);
    }
    {  // CRLF input reads like LF, one line per answer
        std::string ticks = "TICK 1 WAIT\n\nTICK 2 MOVE 2 1\nTICK 3 WAIT\n", lf = J_MAP + ticks, crlf;
        for (char c : lf) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
        std::string outs[2];
        for (int k = 0; k < 2; ++k) {
            std::istringstream in(k == 0 ? lf : crlf);
            std::ostringstream out;
            ToFinal bot;
            run_io(bot, in, out, Mode::Duel);
            outs[k] = out.str();
        }
        CHECK(outs[0] == "MOVE 1 1\nMOVE 1 2\nMOVE 1 4\n");
        CHECK(outs[1] == outs[0]);
    }
    {  // bad lines are named
        std::istringstream in(std::string(J_MAP) + "TICK x WAIT\n");
        std::ostringstream out;
        ToFinal bot;
        std::string what;
        try {
            run_io(bot, in, out, Mode::Duel);
        } catch (const ProtocolError& e) {
            what = e.what();
        }
        CHECK(what.find("bad TICK line `TICK x WAIT`") != std::string::npos);
        std::string bad = J_MAP;
        bad.replace(bad.find("0 J 0"), 5, "0 Q 0");
        what.clear();
        try {
            Game::from_header(bad, Mode::Duel);
        } catch (const ProtocolError& e) {
            what = e.what();
        }
        CHECK(what.find("bad cell `Q`") != std::string::npos);
    }
    {  // Atoms and Tactics loops answer each prompt
        FirstLegal bot;
        std::istringstream a("ATOMS 2 3 2 G\r\nTURN 2\r\nR1 .. ..\r\n.. .. ..\r\nEND\r\n");
        std::ostringstream out;
        atoms::run_io(bot, a, out);
        CHECK(out.str() == "PLACE 1 0\n");
        std::istringstream t("TACTICS 2 3 2 B\nROUND 1/2\nPHASE PLACEMENT\nCHIPS 2\nA1 ~~ ..\n.. .. B12\nEND\n");
        std::ostringstream out2;
        tactics::run_io(bot, t, out2);
        CHECK(out2.str() == "place 2 3 2\n");
    }
    if (failures) std::cerr << failures << " failed\n";
    else std::cout << "all C++ kit tests passed\n";
    return failures ? 1 : 0;
}
