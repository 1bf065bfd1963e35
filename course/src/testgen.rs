//! The course's 20 single-player tests, generated from a seed: `arena gen-tests --seed S
//! --out DIR` writes `test1.txt` … `test20.txt` and `limite_minime.txt`, byte for byte the
//! same for the same seed.
//!
//! **How minimums are set**: each test is played offline by the `reference` and `greedy`
//! sample strategies; the minimum is 3/4 of the reference's score (rounded down), and on the
//! tests marked easy it is also never above greedy's score (so `greedy` passes them; a bot that
//! ignores value and walks to the nearest resource may not). Every test is checked to be
//! passable: the reference must finish it.

use bot_sdk::path::{first_step, safe_moves, Distances};
use bot_sdk::rules::Action;
use bot_sdk::{Cell, MapError, MapSpec, Pos};
use sample_bots::greedy::Greedy;
use sample_bots::reference::Reference;

use thiserror::Error;

use crate::offline::play_test;

/// Why the tests could not be generated (a bug in the generator: every seed should work).
#[derive(Debug, Error)]
pub enum TestgenError {
    /// A generated map does not parse.
    #[error("{what}: {error}")]
    Map {
        /// Which map.
        what: String,
        /// Line and reason (in the message, not a cause, which would print them twice).
        error: MapError,
    },
    /// The reference strategy does not pass a generated test.
    #[error("test {number} ({title}): the reference strategy does not pass it ({outcome})\n{text}")]
    Unpassable {
        /// The test.
        number: usize,
        /// What it exercises.
        title: &'static str,
        /// How the reference did.
        outcome: String,
        /// The file.
        text: String,
    },
}

/// One generated test.
#[derive(Debug, Clone)]
pub struct GeneratedTest {
    /// 1-based test number.
    pub number: usize,
    /// What the test exercises.
    pub title: &'static str,
    /// The file's text.
    pub text: String,
    /// Its minimum score.
    pub minimum: i64,
    /// What the reference strategy scores.
    pub reference: i64,
    /// What greedy scores, if it finishes.
    pub greedy: Option<i64>,
    /// Whether the minimum is capped by greedy's score.
    pub easy: bool,
}

/// SplitMix64: a fixed, documented generator, so the tests regenerate identically whatever
/// version of any random-number crate is in use.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn resource(&mut self) -> String {
        (1 + self.below(30)).to_string()
    }
}

/// A test being built.
#[derive(Clone)]
struct Draft {
    cells: Vec<Vec<String>>,
    rounds: u32,
    starts: [Pos; 2],
    final_pos: Pos,
}

/// How the scripted opponent plays.
#[derive(Clone, Copy)]
enum Opponent {
    Waits,
    Greedy,
    Wanders,
}

impl Draft {
    fn new(rows: usize, cols: usize, rounds: u32) -> Draft {
        Draft {
            cells: vec![vec!["0".to_string(); cols]; rows],
            rounds,
            starts: [Pos::new(0, 0), Pos::new(0, 0)],
            final_pos: Pos::new(rows as i32 - 1, cols as i32 - 1),
        }
    }

    fn set(&mut self, x: usize, y: usize, token: &str) {
        self.cells[x][y] = token.to_string();
    }

    /// Random content: walls, fire, voids, resources and power-ups by percentage.
    fn scatter(&mut self, rng: &mut Rng, walls: usize, fire: usize, voids: usize, resources: usize) {
        for row in self.cells.iter_mut() {
            for cell in row.iter_mut() {
                let r = rng.below(100);
                *cell = if r < walls {
                    "W".into()
                } else if r < walls + fire {
                    "F".into()
                } else if r < walls + fire + voids {
                    "E".into()
                } else if r < walls + fire + voids + resources {
                    rng.resource()
                } else {
                    "0".into()
                };
            }
        }
    }

    /// Puts `token` on `count` random cells holding `0`.
    fn sprinkle(&mut self, rng: &mut Rng, token: &str, count: usize) {
        let (rows, cols) = (self.cells.len(), self.cells[0].len());
        for _ in 0..count {
            for _ in 0..100 {
                let (x, y) = (rng.below(rows), rng.below(cols));
                if self.cells[x][y] == "0" {
                    self.cells[x][y] = token.to_string();
                    break;
                }
            }
        }
    }

    /// Makes the starts and the final walkable.
    fn clear_key_cells(&mut self) {
        for p in [self.starts[0], self.starts[1], self.final_pos] {
            let cell = &mut self.cells[p.x as usize][p.y as usize];
            if Cell::parse(cell).is_none_or(|c| !c.is_walkable()) {
                *cell = "0".to_string();
            }
        }
    }

    /// Carves a plain corridor between two cells (an L: along the row, then the column), so
    /// that a random map stays passable.
    fn carve(&mut self, from: Pos, to: Pos) {
        let (mut x, mut y) = (from.x, from.y);
        loop {
            let cell = &mut self.cells[x as usize][y as usize];
            if Cell::parse(cell).is_none_or(|c| !c.is_walkable()) {
                *cell = "0".to_string();
            }
            if y != to.y {
                y += (to.y - y).signum();
            } else if x != to.x {
                x += (to.x - x).signum();
            } else {
                break;
            }
        }
    }

    fn header(&self) -> String {
        let (rows, cols) = (self.cells.len(), self.cells[0].len());
        let [a, b] = self.starts;
        let f = self.final_pos;
        let mut text =
            format!("ARENA {rows} {cols} {}\n{} {}\n{} {}\n{} {}\nMAP\n", self.rounds, a.x, a.y, b.x, b.y, f.x, f.y);
        for row in &self.cells {
            text.push_str(&row.join(" "));
            text.push('\n');
        }
        text.push_str("END_MAP\nSTREAM\n");
        text
    }

    /// The file: header, then one TICK line per round for the scripted opponent.
    fn finish(&self, opponent: Opponent, rng: &mut Rng) -> Result<String, TestgenError> {
        let header = self.header();
        let spec = MapSpec::parse(&header)
            .map_err(|error| TestgenError::Map { what: "a generated map".to_string(), error })?;
        let mut text = header;
        for (t, action) in script(&spec, opponent, rng).into_iter().enumerate() {
            text.push_str(&format!("TICK {} {action}\n", t + 1));
        }
        Ok(text)
    }
}

/// The scripted opponent's moves, simulated from player 2's start on the map's grid.
fn script(spec: &MapSpec, opponent: Opponent, rng: &mut Rng) -> Vec<Action> {
    let mut grid = spec.grid.clone();
    let mut at = spec.starts[1];
    let mut jump = false;
    let mut out = Vec::new();
    for _ in 0..spec.rounds {
        let step = match opponent {
            Opponent::Waits => None,
            Opponent::Wanders => {
                let moves = safe_moves(&grid, at, jump);
                (!moves.is_empty() && rng.chance(70)).then(|| moves[rng.below(moves.len())])
            }
            Opponent::Greedy => {
                let here = Distances::from(&grid, at, jump);
                let target = grid
                    .positions()
                    .filter(|p| grid.get(*p).is_some_and(Cell::is_collectable))
                    .filter_map(|p| here.get(p).filter(|d| *d > 0).map(|d| (d, p)))
                    .min();
                target.and_then(|(_, p)| first_step(&grid, at, p, jump))
            }
        };
        match step {
            Some(p) => {
                if grid.get(p) == Some(Cell::Jump) {
                    jump = true;
                }
                if grid.get(p).is_some_and(Cell::is_collectable) {
                    grid.set(p, Cell::Floor);
                }
                at = p;
                out.push(Action::Move(p));
            }
            None => out.push(Action::Wait),
        }
    }
    out
}

const DUEL_MAP: &str = include_str!("../../maps/duel.txt");

/// Builds test `n` (1..=20).
fn build(n: usize, rng: &mut Rng) -> Result<(&'static str, bool, String), TestgenError> {
    let p = Pos::new;
    let (title, easy, text) = match n {
        1 => {
            let mut d = Draft::new(3, 4, 8);
            d.starts = [p(0, 0), p(2, 0)];
            d.final_pos = p(2, 3);
            for (x, y, v) in [(0, 1, "4"), (0, 3, "7"), (1, 2, "5"), (2, 1, "3")] {
                d.set(x, y, v);
            }
            d.set(1, 1, "W");
            ("a tiny map", true, d.finish(Opponent::Waits, rng)?)
        }
        2 => {
            let mut d = Draft::new(50, 50, 300);
            d.scatter(rng, 8, 2, 2, 15);
            d.sprinkle(rng, "J", 3);
            d.sprinkle(rng, "D", 2);
            d.sprinkle(rng, "T", 1);
            d.starts = [p(0, 0), p(49, 0)];
            d.final_pos = p(49, 49);
            d.carve(p(0, 0), p(49, 49));
            d.clear_key_cells();
            ("the 50x50 maximum", false, d.finish(Opponent::Greedy, rng)?)
        }
        3 => {
            let mut d = Draft::new(9, 15, 40);
            for x in 0..9 {
                for y in [4, 8, 12] {
                    d.set(x, y, "W");
                }
            }
            d.scatter_chambers(rng);
            d.set(4, 1, "J");
            d.starts = [p(4, 0), p(0, 0)];
            d.final_pos = p(4, 14);
            d.clear_key_cells();
            ("walls that only Jump crosses", false, d.finish(Opponent::Waits, rng)?)
        }
        4 => {
            let mut d = Draft::new(9, 13, 85);
            for y in 0..13 {
                for x in [1, 3, 5, 7] {
                    d.set(x, y, "F");
                }
            }
            for (x, gap) in [(1, 12), (3, 0), (5, 12), (7, 0)] {
                d.set(x, gap, "0");
            }
            for x in [0, 2, 4, 6, 8] {
                for y in 0..13 {
                    if rng.chance(35) {
                        d.set(x, y, &rng.resource());
                    }
                }
            }
            d.starts = [p(0, 0), p(0, 1)];
            d.final_pos = p(8, 12);
            d.clear_key_cells();
            ("fire corridors, fire beside the only path", false, d.finish(Opponent::Waits, rng)?)
        }
        5 => {
            let mut d = Draft::new(12, 12, 40);
            d.scatter(rng, 0, 0, 30, 25);
            d.starts = [p(0, 0), p(11, 0)];
            d.final_pos = p(11, 11);
            d.carve(p(0, 0), p(11, 11));
            d.carve(p(11, 0), p(0, 11));
            d.clear_key_cells();
            ("voids", false, d.finish(Opponent::Wanders, rng)?)
        }
        6 => {
            let mut d = Draft::new(10, 12, 45);
            d.scatter(rng, 5, 0, 0, 30);
            d.set(0, 11, "D");
            d.set(9, 0, "T");
            d.starts = [p(5, 0), p(0, 0)];
            d.final_pos = p(5, 11);
            d.carve(p(5, 0), p(5, 11));
            d.clear_key_cells();
            ("D and T worth a detour", false, d.finish(Opponent::Waits, rng)?)
        }
        7 => {
            let mut d = Draft::new(6, 30, 34);
            d.scatter(rng, 0, 0, 0, 30);
            d.set(0, 0, "T");
            d.set(5, 1, "D");
            d.starts = [p(2, 8), p(5, 29)];
            d.final_pos = p(2, 29);
            d.clear_key_cells();
            ("a power-up detour that is a trap", false, d.finish(Opponent::Waits, rng)?)
        }
        8 => {
            let mut d = Draft::new(5, 20, 19);
            for x in [0, 1, 3, 4] {
                for y in 0..20 {
                    d.set(x, y, &rng.resource());
                }
            }
            d.starts = [p(2, 0), p(0, 0)];
            d.final_pos = p(2, 19);
            ("a round limit that only the shortest path meets", true, d.finish(Opponent::Waits, rng)?)
        }
        9 => {
            let mut d = Draft::new(8, 8, 30);
            d.scatter(rng, 10, 0, 0, 40);
            d.starts = [p(3, 3), p(7, 7)];
            d.final_pos = p(3, 4);
            d.clear_key_cells();
            ("the final next to the start", true, d.finish(Opponent::Waits, rng)?)
        }
        10 => {
            let mut d = Draft::new(9, 9, 45);
            for i in 2..7 {
                for (x, y) in [(2, i), (6, i), (i, 2), (i, 6)] {
                    d.set(x, y, "W");
                }
            }
            for x in 3..6 {
                for y in 3..6 {
                    d.set(x, y, &(40 + rng.below(50)).to_string());
                }
            }
            d.set(8, 0, "J");
            d.starts = [p(0, 0), p(0, 8)];
            d.final_pos = p(8, 8);
            ("resources out of reach without Jump", false, d.finish(Opponent::Waits, rng)?)
        }
        11 => {
            let mut d = Draft::new(7, 12, 30);
            for y in 2..11 {
                d.set(3, y, &(10 + rng.below(20)).to_string());
                d.set(1, y, &(5 + rng.below(10)).to_string());
            }
            d.starts = [p(3, 0), p(3, 1)];
            d.final_pos = p(6, 11);
            ("an opponent racing for the same resources", false, d.finish(Opponent::Greedy, rng)?)
        }
        12 => {
            let mut d = Draft::new(12, 12, 50);
            d.scatter(rng, 10, 3, 3, 30);
            d.sprinkle(rng, "J", 1);
            d.sprinkle(rng, "D", 1);
            d.starts = [p(0, 0), p(6, 6)];
            d.final_pos = p(11, 11);
            d.carve(p(0, 0), p(11, 11));
            d.clear_key_cells();
            ("an opponent that just waits", true, d.finish(Opponent::Waits, rng)?)
        }
        13 => {
            let spec = MapSpec::parse(DUEL_MAP)
                .map_err(|error| TestgenError::Map { what: "maps/duel.txt".to_string(), error })?;
            let mut text = DUEL_MAP.to_string();
            for (t, action) in script(&spec, Opponent::Greedy, rng).into_iter().enumerate() {
                text.push_str(&format!("TICK {} {action}\n", t + 1));
            }
            ("the course's duel map", false, text)
        }
        _ => {
            let sizes =
                [(6, 6, 20), (8, 8, 30), (15, 15, 70), (20, 30, 110), (30, 30, 160), (40, 25, 170), (25, 50, 200)];
            let (rows, cols, rounds) = sizes[(n - 14) % sizes.len()];
            let mut d = Draft::new(rows, cols, rounds);
            d.scatter(rng, 8, 3, 3, 25);
            d.sprinkle(rng, "J", 1 + n % 3);
            d.sprinkle(rng, "D", n % 2 + 1);
            d.sprinkle(rng, "T", n % 2);
            d.starts = [p(0, 0), p(rows as i32 - 1, 0)];
            d.final_pos = p(rows as i32 - 1, cols as i32 - 1);
            d.carve(p(0, 0), d.final_pos);
            d.carve(d.starts[1], p(0, cols as i32 - 1));
            d.clear_key_cells();
            let opponent = [Opponent::Greedy, Opponent::Wanders, Opponent::Waits][n % 3];
            ("a random map", false, d.finish(opponent, rng)?)
        }
    };
    Ok((title, easy, text))
}

impl Draft {
    /// Resources in the chambers between wall columns, and nothing on the walls.
    fn scatter_chambers(&mut self, rng: &mut Rng) {
        for x in 0..self.cells.len() {
            for y in 0..self.cells[0].len() {
                if self.cells[x][y] == "0" && rng.chance(30) {
                    self.cells[x][y] = rng.resource();
                }
            }
        }
    }
}

/// Generates the 20 tests for `seed`.
pub fn generate(seed: u64) -> Result<Vec<GeneratedTest>, TestgenError> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for number in 1..=20 {
        let (title, easy, text) = build(number, &mut rng)?;
        let spec =
            MapSpec::parse(&text).map_err(|error| TestgenError::Map { what: format!("test {number}"), error })?;
        let reference = play_test(&spec, Reference::default());
        let r = &reference.outcome.players[0];
        if !r.finished || r.forfeit.is_some() {
            return Err(TestgenError::Unpassable { number, title, outcome: format!("{r:?}"), text });
        }
        let greedy = play_test(&spec, Greedy);
        let g = &greedy.outcome.players[0];
        let greedy_score = (g.finished && g.forfeit.is_none()).then_some(g.score);
        let mut minimum = r.score * 3 / 4;
        if easy {
            minimum = minimum.min(greedy_score.unwrap_or(minimum));
        }
        out.push(GeneratedTest { number, title, text, minimum, reference: r.score, greedy: greedy_score, easy });
    }
    Ok(out)
}

/// A random test of the course's size, for benchmarks: 6x6 to 22x22, up to 160 ticks, with
/// walls, voids, fire, resources, one or two `J` and `D`, maybe a `T`, and a scripted opponent
/// that waits, races greedily or wanders. The same `seed` gives the same file.
pub fn course_map(seed: u64) -> Result<String, TestgenError> {
    let mut rng = Rng(seed ^ 0xC0FF_EE00_D15E_A5E5);
    let (rows, cols) = (6 + rng.below(17), 6 + rng.below(17));
    let rounds = ((rows + cols) as u32 + rng.below(161) as u32).min(160);
    let mut d = Draft::new(rows, cols, rounds);
    let density = 20 + rng.below(16);
    d.scatter(&mut rng, 8, 3, 3, density);
    for (token, least) in [("J", 1), ("D", 1), ("T", 0)] {
        let count = least + rng.below(2);
        d.sprinkle(&mut rng, token, count);
    }
    let p = Pos::new;
    d.starts = [p(0, 0), p(rows as i32 - 1, 0)];
    d.final_pos = p(rows as i32 - 1, cols as i32 - 1);
    d.carve(p(0, 0), d.final_pos);
    d.carve(d.starts[1], p(0, cols as i32 - 1));
    d.clear_key_cells();
    let opponent = [Opponent::Waits, Opponent::Greedy, Opponent::Wanders][rng.below(3)];
    d.finish(opponent, &mut rng)
}

/// `limite_minime.txt`: one `testN minimum` line per test.
pub fn minimums_file(tests: &[GeneratedTest]) -> String {
    tests.iter().map(|t| format!("test{} {}\n", t.number, t.minimum)).collect()
}
