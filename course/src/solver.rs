//! The best score a bot can reach on a single-player test, against the file's scripted
//! opponent: proved where the search finishes, otherwise bracketed between the best plan found
//! and a certified upper bound. The search itself is [`sample_bots::planner`] (the reference
//! bot plays with it too, on a smaller budget); this module gives it a test file, the best
//! of several reference games as a first plan (the bot's own, [`Reference::clean`]'s, and both
//! told the scripted opponent's moves in advance and searching longer), a budget
//! of about a minute of CPU time, and keeps a coarse bound ([`upper_bound`]) where it is the
//! tighter one or the relaxation does not apply (more than six `D`/`T`).

use std::cell::Cell as Tally;
use std::time::Duration;

use bot_sdk::path::Distances;
use bot_sdk::rules::Action;
use bot_sdk::{Cell, MapSpec, Pos};
use sample_bots::plan_search::{Model, Plan, Problem};
use sample_bots::planner::{
    best_plan, improve_windows, replan_from, replan_windows, Budget as PlanBudget, Improve, Phase,
};
use sample_bots::relaxation::replay;

use crate::cputime::thread_cpu;
use crate::offline::play_test;
use sample_bots::reference::{Caps, Reference};
use sample_bots::work::work_clock;

/// What the solver found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Solution {
    /// The best achievable score, proved (with a plan that scores it).
    Exact(i64),
    /// The best plan found scores `best`; no bot can score more than `bound`.
    Bounded {
        /// Score of the best plan found.
        best: i64,
        /// Certified upper bound.
        bound: i64,
    },
    /// No bot can reach the final in time.
    Impossible,
}

impl Solution {
    /// The certified gap, `bound / best - 1` (0 when exact).
    pub fn gap(&self) -> f64 {
        match *self {
            Solution::Bounded { best, bound } => bound as f64 / (best.max(1)) as f64 - 1.0,
            _ => 0.0,
        }
    }
}

/// What the solver did and found.
#[derive(Debug, Clone)]
pub struct Solved {
    /// The answer.
    pub solution: Solution,
    /// A plan scoring the optimum (or the best found), one answer per tick.
    pub plan: Option<Plan>,
    /// Whether CPU time, not work, ended a phase (see [`Budget::time_limit`]): then another
    /// machine may find otherwise.
    pub backstopped: bool,
}

/// How much the solver may search.
#[derive(Debug, Clone)]
pub struct Budget {
    /// The planner's budget.
    pub plan: PlanBudget,
    /// Time after which the relaxation stops improving its bound (after 2/3 of which no wider
    /// beam starts, and after 5/4 of which no exact search), counted in work
    /// ([`work_clock`]), so that a solve finds the same on any machine; on the machine the
    /// work's weights were measured on, about CPU time (see `backstop`).
    pub time_limit: Duration,
    /// The clock the time limit counts: [`work_clock`] (tests give the CPU time, to show what
    /// the work clock saves).
    pub clock: fn() -> Duration,
    /// CPU time, as a multiple of the time limit, after which every phase and game stops
    /// whatever the clock says (58/30: a minute at most for the default 30 s, on a slow machine
    /// or day too, as a solve may run a second past it: an exact search looks at its clock
    /// every 65,536 states, and its table may grow in between; course_map(47) took 60.0 s with
    /// 59/30; `None`: never); [`Solved::backstopped`] then says so.
    pub backstop: Option<f64>,
    /// Route-search effort of the first plans told the script in advance (see
    /// [`Reference::knowing`], [`Reference::thorough`]); 0: none are played.
    pub seed_effort: usize,
    /// Whether, after the polish's game from the best plan and the first certifying search, the
    /// best plan's last 4/5 is planned again as a problem of its own within a fifth of the time
    /// limit (see [`replan_from`]; a plan longer than the course's games is planned again
    /// window by window instead, see `replan_windows`).
    pub replan: bool,
    /// How many games, at most, whose route searches perturb otherwise ([`Reference::salted`])
    /// the polish plays after that re-plan (until its games have taken a third of the time
    /// limit, the re-plan's time not counted).
    pub salts: u64,
    /// Widths of the windows in which each polish then searches the best plan's moves again
    /// ([`improve_windows`]; none: no such search).
    pub windows: Vec<usize>,
    /// States each of those windows' exact searches may create.
    pub window_states: usize,
    /// Width, in moves, of the windows in which the polish's first stage plans a plan longer
    /// than the course's games ([`COURSE_TICKS`]) again, window by window, each as a problem of
    /// its own ([`replan_windows`]; 0: none), instead of searching the `windows` above: on
    /// test20 (200 ticks) windows of 40 found 5,207 -> 5,283 in 5.4 s of work, where the exact windows
    /// found 5,207 -> 5,229 in 2.7 s and the re-plan of the rest nothing in 6 s.
    pub replan_windows: usize,
    /// The time limit of each of those windows' own clocks (see [`Clock`]): most are proved
    /// optimal by their own relaxation well within it.
    pub window_time: Duration,
}

/// The ticks of the course's longest tests: plans longer than this (the project's larger tests)
/// are planned again window by window ([`Budget::replan_windows`]) rather than from a tick on.
const COURSE_TICKS: usize = 160;

impl Default for Budget {
    /// The budget `arena solve` and `tests-bench` use: under a minute of CPU time on maps of
    /// the course's size.
    fn default() -> Budget {
        Budget {
            plan: PlanBudget {
                beams: vec![64, 1024],
                quick_states: 300_000,
                steps: 3000,
                relax_work: usize::MAX,
                bundle: true,
                memory: 6,
                memory_work: 100_000_000,
                lap_work: 400_000_000,
                guided_beams: vec![256, 2048, 8192],
                exact_states: 10_000_000,
                first_certify_states: 3_000_000,
                first_certify_gap: 0.032,
                widen_states: 12_000_000,
                certify_gaps: vec![0.029, 0.0, 0.01],
                hopeless_gap: 0.12,
            },
            time_limit: Duration::from_secs(30),
            clock: work_clock,
            backstop: Some(58.0 / 30.0),
            seed_effort: 10,
            replan: true,
            salts: 4,
            windows: vec![12, 16, 20],
            window_states: 1_000_000,
            replan_windows: 40,
            window_time: Duration::from_secs(1),
        }
    }
}

impl Budget {
    /// A small budget for tests.
    pub fn small() -> Budget {
        Budget {
            plan: PlanBudget {
                beams: vec![64],
                quick_states: 200_000,
                steps: 20,
                relax_work: usize::MAX,
                bundle: false,
                memory: 0,
                memory_work: 0,
                lap_work: 0,
                guided_beams: vec![16],
                exact_states: 200_000,
                first_certify_states: 0,
                first_certify_gap: 0.0,
                widen_states: 0,
                certify_gaps: vec![],
                hopeless_gap: 0.0,
            },
            time_limit: Duration::from_secs(20),
            clock: work_clock,
            backstop: Some(58.0 / 30.0),
            seed_effort: 0,
            replan: false,
            salts: 0,
            windows: Vec::new(),
            window_states: 0,
            replan_windows: 0,
            window_time: Duration::ZERO,
        }
    }
}

/// Solves `spec` within `budget`; `known` is a plan the caller already has (replayed here),
/// else the reference bot's game is played first. On a map with a `D` or `T`, the game of
/// [`Reference::clean`] is played too; with a `seed_effort`, both again knowing the script
/// ([`Reference::knowing`]) and searching longer, and the clean one also
/// [`Reference::unbridged`] (these games stop searching once they have thought for a third of
/// the time limit together). The search starts from the best plan; once its guided beams have
/// run, the bot's route search, told the script and searching as long, starts again from the
/// best plan then ([`Reference::seeded`]); then, unless the first certifying search certifies
/// the plan, its rest is planned again ([`replan_from`]) and up to `salts` more games perturb
/// their routes otherwise ([`Reference::salted`]): each may find a better plan. After each of
/// these two stages the best plan's windows are searched again ([`improve_windows`]).
pub fn solve(spec: &MapSpec, budget: &Budget, known: Option<&[Action]>) -> Solved {
    let clock = Clock::new(budget.time_limit, budget.clock).with_backstop(budget.backstop);
    let now = clock.now;
    let started = clock.started;
    let model = Model::new(Problem::of_test(spec));
    let mut games: Vec<Reference> = Vec::new();
    if known.is_none() {
        games.push(Reference::default());
    }
    // (Without a `D` or `T` the clean variant plays the bot's own game: not played twice.)
    let multipliers = Reference::clean_differs(&spec.grid);
    let script = &model.problem().cleared;
    if multipliers {
        games.push(Reference::clean());
    }
    if budget.seed_effort > 0 {
        // Both variants again, told the script and searching longer: plans a bot could not find
        // within its second, and better starts for the search and its certificates.
        games.push(Reference::default().knowing(script).thorough(budget.seed_effort));
        if multipliers {
            games.push(Reference::clean().knowing(script).thorough(budget.seed_effort));
            // (And as it walked before its first routes opened their way: course_map(14) and
            // (30) are proved from that game's plan, not from the bridged one's.)
            games.push(Reference::clean().unbridged().knowing(script).thorough(budget.seed_effort));
        }
    }
    // The games stop searching once they have taken a third of the time limit together, which
    // leaves the relaxation at least the rest: on the largest maps they took up to 12 s of its
    // 30 (course_map(11), where capping them at 10 s certified 2.9 % in three runs of three,
    // against 3.7 % in three).
    let first = games.into_iter().filter_map(|bot| {
        let left = (budget.time_limit / 3).saturating_sub(now().saturating_sub(started));
        capped(spec, &model, bot, left.max(Duration::from_millis(1)), &clock)
    });
    let known = known.and_then(|moves| replay(&model, moves)).into_iter().chain(first).max_by_key(|plan| plan.score);
    // Once the guided beams have run: the route search, told the script and searching longer,
    // from the best plan so far (the relaxation's plans and the beams' go where no first route
    // of the bot's does, and the route search's moves then find what they miss: course_map(40)
    // 9,805 -> 10,116, test20 4,801 -> 5,170). Then, unless the first certifying search
    // certified the plan, the best plan's last 4/5 planned again, as a problem of its own, within
    // a fifth of the time limit (see [`replan_from`]), and salted games, kept if better than the
    // best plan then (see [`polished`]; all the games within what is left of the minute, the
    // salted ones also only until the games have spent a third of the time limit). Certifying
    // between the two stages is what leaves the time for it: course_map(11)'s search took 4.7 s
    // of work after the route search's 19,608, time that the salted games (5.2 s, finding less)
    // and the re-plan (finding nothing) had used up before. The re-plan comes before the salted
    // games, which find less than the best plan on the largest maps, where the re-plan finds
    // more (test18: 3,442 -> 3,596), and which the CPU backstop otherwise cut short there on a
    // slow day.
    let polish = |plan: &Plan, what: Improve| {
        let began = now();
        // The games `salts`, kept if better than `plan`; their time is the earlier stage's (the
        // first game's) and theirs, not the re-plan's.
        let games = |salts, plan: &Plan| {
            let from = now();
            let spent = || clock.polishing.get() + now().saturating_sub(from);
            let left = |salt: u64| match salt {
                0 => clock.left(),
                _ => clock.left().min((budget.time_limit / 3).saturating_sub(spent())),
            };
            (budget.seed_effort > 0)
                .then(|| polished(spec, &model, budget.seed_effort, salts, plan, (&left, &clock)))
                .flatten()
        };
        let long = plan.moves.len() > COURSE_TICKS;
        let better = match what {
            Improve::First => games(0..=0, plan),
            Improve::Then => {
                let from = replan_cut(plan.moves.len());
                let replanned = (budget.replan && from > 0 && !clock.stop(Phase::Searching))
                    .then(|| {
                        let rest_stop = Clock::new(budget.time_limit / 5, now);
                        let stop = |phase| rest_stop.stop(phase) || clock.stop(Phase::Searching);
                        replan_from(&model, &budget.plan, plan, from, &stop)
                    })
                    .flatten();
                games(1..=budget.salts, replanned.as_ref().unwrap_or(plan)).or(replanned)
            }
        };
        // Then its windows searched again, from whichever plan is the best now; a long plan's
        // first, each planned again within a clock of its own.
        let from = better.as_ref().unwrap_or(plan);
        let stop = || clock.stop(Phase::Searching);
        let windows = if long && what == Improve::First && budget.replan_windows > 0 {
            let window_stop = || -> Box<dyn Fn(Phase) -> bool + '_> {
                let (own, clock) = (Clock::new(budget.window_time, now), &clock);
                Box::new(move |phase| own.stop(phase) || clock.stop(Phase::Searching))
            };
            replan_windows(&model, &budget.plan, from, budget.replan_windows, &window_stop, &stop)
        } else {
            improve_windows(&model, from, &budget.windows, budget.window_states, &stop)
        };
        let better = windows.or(better);
        clock.polishing.set(clock.polishing.get() + now().saturating_sub(began));
        better
    };
    let stop = |phase: Phase| clock.stop(phase);
    let planned = best_plan(&model, &budget.plan, known, &stop, &polish);
    // The coarse bound is sometimes the tighter one: on a long game that can take every
    // resource, the subgradient may settle just above "everything at the final multiplier".
    let bound = match (planned.bound, upper_bound(spec)) {
        (Some(fine), Some(coarse)) => Some(fine.min(coarse)),
        (fine, coarse) => fine.or(coarse),
    };
    let solution = match (&planned.plan, planned.proved, bound) {
        (None, _, _) => Solution::Impossible,
        (Some(plan), true, _) => Solution::Exact(plan.score),
        (Some(plan), false, Some(bound)) if bound <= plan.score => Solution::Exact(plan.score),
        (Some(plan), false, Some(bound)) => Solution::Bounded { best: plan.score, bound },
        (Some(plan), false, None) => Solution::Bounded { best: plan.score, bound: i64::MAX },
    };
    Solved { solution, plan: planned.plan, backstopped: clock.backstopped.get() }
}

/// When a solve (or a re-plan within it) stops each phase, from its start and its time limit:
/// the relaxation stops at the time limit; wider beams (each up to about half of it) are not
/// started past 2/3 of it, exact searches not past 5/4 of it (not counting the polish, which
/// took them from test18), and one still running at 5/3 of it (50 s of 30) gives up, as if
/// out of states. A guided beam after the relaxation is not started when the last one, scaled
/// by width, would end past 3/2 of it (test2: the widest, 8,192, takes 16 s there, and finds
/// less than the first plans). The polish (reference games, and a re-plan with a clock of its
/// own) also ends at 5/3 of it: on a slow day test2's solve otherwise took 59 s. All of this
/// is counted in work ([`work_clock`]); a solve's clock also has a backstop in CPU time.
struct Clock {
    now: fn() -> Duration,
    started: Duration,
    limit: Duration,
    /// The thread's CPU time past which every phase stops, if this clock has a backstop.
    backstop: Option<Duration>,
    /// Whether the backstop has stopped a phase.
    backstopped: Tally<bool>,
    /// Time spent polishing so far (zero for a re-plan, which does not polish).
    polishing: Tally<Duration>,
    last_guide: Tally<Option<(Duration, usize)>>,
}

impl Clock {
    fn new(limit: Duration, now: fn() -> Duration) -> Clock {
        Clock {
            now,
            started: now(),
            limit,
            backstop: None,
            backstopped: Tally::default(),
            polishing: Tally::default(),
            last_guide: Tally::default(),
        }
    }

    /// This clock, with a backstop after `factor` times its limit of CPU time from now.
    fn with_backstop(self, factor: Option<f64>) -> Clock {
        let after = factor.map(|f| Duration::try_from_secs_f64(self.limit.as_secs_f64() * f).unwrap_or(Duration::MAX));
        Clock { backstop: after.map(|after| thread_cpu().saturating_add(after)), ..self }
    }

    /// Caps for a game that may think for `left` by this clock, or until its backstop.
    fn caps(&self, left: Duration) -> Caps {
        Caps { answer: left, game: left, clock: self.now, backstop: self.backstop }
    }

    /// Whether the backstop has passed (and then remembers that it did).
    fn past_backstop(&self) -> bool {
        let past = self.backstop.is_some_and(|cpu| thread_cpu() > cpu);
        self.backstopped.set(self.backstopped.get() || past);
        past
    }

    /// When everything stops (5/3 of the limit), from the start: counted in work, which takes
    /// 5 to 20 % more CPU time than the weights say on the largest maps, and more on a slow day.
    fn hard_stop(&self) -> Duration {
        self.limit * 5 / 3
    }

    /// Time left before the hard stop (none past the backstop).
    fn left(&self) -> Duration {
        if self.past_backstop() {
            return Duration::ZERO;
        }
        self.hard_stop().saturating_sub((self.now)().saturating_sub(self.started))
    }

    fn stop(&self, phase: Phase) -> bool {
        if self.past_backstop() {
            return true;
        }
        let spent = (self.now)().saturating_sub(self.started);
        let limit = self.limit;
        match phase {
            Phase::Relax => spent > limit,
            Phase::Guide(width) => {
                let late = guide_ends_late(spent, self.last_guide.get(), width, limit * 3 / 2);
                self.last_guide.set(Some((spent, width)));
                late
            }
            Phase::Widen => spent > limit * 2 / 3,
            Phase::Exact => spent.saturating_sub(self.polishing.get()) > limit * 5 / 4,
            Phase::Searching | Phase::Laps => spent > self.hard_stop(),
        }
    }
}

/// The polish's games `salts`, told the script and searching `effort` times longer: the
/// reference's route search from the items `plan` takes ([`Reference::seeded`], salt 0), games
/// whose route searches perturb with other random choices ([`Reference::salted`]: the route
/// search's local optima depend on them; course_map(32): 2,031 to 2,114 over eight salts, 2,092
/// from the plan). Game `k` (0 the seeded one) stops searching once it has thought for
/// `left(k)` by `clock`, and none starts once that is zero. The best game, if better than
/// `plan`.
fn polished(
    spec: &MapSpec,
    model: &Model,
    effort: usize,
    salts: std::ops::RangeInclusive<u64>,
    plan: &Plan,
    (left, clock): (&dyn Fn(u64) -> Duration, &Clock),
) -> Option<Plan> {
    let script = &model.problem().cleared;
    let mut best: Option<Plan> = None;
    for salt in salts {
        let left = left(salt);
        if left.is_zero() {
            break;
        }
        let bot = match salt {
            0 => Reference::default().alone().knowing(script).thorough(effort).seeded(&plan.moves),
            _ => Reference::default().knowing(script).thorough(effort).salted(salt),
        };
        if let Some(game) =
            capped(spec, model, bot, left, clock).filter(|g| g.score > best.as_ref().unwrap_or(plan).score)
        {
            best = Some(game);
        }
    }
    best
}

/// After how many of a plan's `moves` the polish plans the rest again ([`replan_from`]): its
/// first fifth; none (0) on a plan longer than the course's games, which the first stage has
/// planned again window by window ([`Budget::replan_windows`]; from its first tenth, the rest of
/// test2 and test20 found nothing better in 6 s, and the time went to the exact search that
/// certifies test20 after the windows).
fn replan_cut(moves: usize) -> usize {
    if moves > COURSE_TICKS {
        0
    } else {
        moves / 5
    }
}

/// `bot`'s game, replayed; its searches stop once the game has thought for `left` by `clock`,
/// or at its backstop (which the clock then records).
fn capped(spec: &MapSpec, model: &Model, bot: Reference, left: Duration, clock: &Clock) -> Option<Plan> {
    let game = play_test(spec, bot.capped_by(clock.caps(left)));
    clock.past_backstop();
    replay(model, &game.actions)
}

/// Whether a guided beam of `width`, started after `spent` (by the solve's clock), would end past
/// `limit`, judged by the last one (started at its `Duration`, of its width): beams cost about
/// in proportion to their width.
fn guide_ends_late(spent: Duration, last: Option<(Duration, usize)>, width: usize, limit: Duration) -> bool {
    let projected =
        last.map_or(Duration::ZERO, |(at, last)| spent.saturating_sub(at).mul_f64(width as f64 / last.max(1) as f64));
    spent + projected > limit
}

/// A valid upper bound: every resource the bot could visit on some way to the final in time,
/// each worth its value times the product of every reachable `D` and `T` (`None`: the final
/// cannot be reached in time).
pub fn upper_bound(spec: &MapSpec) -> Option<i64> {
    let grid = &spec.grid;
    let can_jump = grid.positions().any(|p| grid.get(p) == Some(Cell::Jump));
    let from_start = Distances::from(grid, spec.starts[0], can_jump);
    let to_final = Distances::from(grid, spec.final_pos, can_jump);
    let reachable = |p: Pos| matches!((from_start.get(p), to_final.get(p)), (Some(a), Some(b)) if a + b <= spec.rounds);
    let mut multiplier = 1i64;
    let mut sum = 0i64;
    for p in grid.positions().filter(|p| reachable(*p)) {
        match grid.get(p) {
            Some(Cell::Resource(v)) => sum = sum.saturating_add(i64::from(v)),
            Some(Cell::Double) => multiplier = multiplier.saturating_mul(2),
            Some(Cell::Triple) => multiplier = multiplier.saturating_mul(3),
            _ => {}
        }
    }
    if from_start.get(spec.final_pos).is_none_or(|d| d > spec.rounds) {
        return None;
    }
    Some(sum.saturating_mul(multiplier))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena::engine::{Reply, State, Turn};
    use arena::games::resource_rush::ResourceRush;
    use bot_sdk::path::legal_moves;
    use sample_bots::relaxation::Relaxation;

    /// The best finishing score over every possible sequence of answers, played through the
    /// real game: the reference the solver is checked against.
    fn brute_force(state: &ResourceRush) -> Option<i64> {
        if state.turn() != Turn::Sequential(0) {
            let out = &state.outcome().players[0];
            return out.finished.then_some(out.score);
        }
        let me = state.player(0);
        let mut answers = vec!["WAIT".to_string()];
        answers.extend(legal_moves(state.grid(), me.pos, me.jump).iter().map(|p| format!("MOVE {} {}", p.x, p.y)));
        answers
            .into_iter()
            .filter_map(|a| {
                let mut next = state.clone();
                next.apply(&[(0, Reply::Line(a))]);
                brute_force(&next)
            })
            .max()
    }

    /// A small deterministic generator for random tiny maps.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self, n: u64) -> u64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
    }

    fn random_map(rng: &mut Rng) -> String {
        random_map_within(rng, 3, 3, 5)
    }

    /// A random map of 1 to `rows` rows, 2 to `cols` + 1 columns, 2 to `rounds` + 1 rounds.
    fn random_map_within(rng: &mut Rng, rows: u64, cols: u64, rounds: u64) -> String {
        let (rows, cols) = (1 + rng.next(rows) as i32, 2 + rng.next(cols) as i32);
        let rounds = 2 + rng.next(rounds);
        let tokens = ["0", "0", "3", "5", "9", "W", "E", "F", "J", "D", "T"];
        let mut cells: Vec<Vec<&str>> =
            (0..rows).map(|_| (0..cols).map(|_| tokens[rng.next(tokens.len() as u64) as usize]).collect()).collect();
        let pick = |rng: &mut Rng| (rng.next(rows as u64) as i32, rng.next(cols as u64) as i32);
        let (start, opp, fin) = (pick(rng), pick(rng), pick(rng));
        for (x, y) in [start, opp, fin] {
            if !["0", "3", "5", "9", "J", "D", "T"].contains(&cells[x as usize][y as usize]) {
                cells[x as usize][y as usize] = "0";
            }
        }
        let mut text = format!(
            "ARENA {rows} {cols} {rounds}\n{} {}\n{} {}\n{} {}\nMAP\n",
            start.0, start.1, opp.0, opp.1, fin.0, fin.1
        );
        for row in &cells {
            text.push_str(&row.join(" "));
            text.push('\n');
        }
        text.push_str("END_MAP\nSTREAM\n");
        // The scripted opponent wanders onto random cells next to it (unchecked, like files).
        let mut at = opp;
        for t in 1..=rounds {
            if rng.next(2) == 0 {
                text.push_str(&format!("TICK {t} WAIT\n"));
            } else {
                at = (
                    (at.0 + rng.next(3) as i32 - 1).clamp(0, rows - 1),
                    (at.1 + rng.next(3) as i32 - 1).clamp(0, cols - 1),
                );
                text.push_str(&format!("TICK {t} MOVE {} {}\n", at.0, at.1));
            }
        }
        text
    }

    /// `n` tiny random maps from `seed`: each map's text, parsed, and its brute-force optimum.
    fn tiny_maps(seed: u64, n: usize) -> impl Iterator<Item = (String, MapSpec, Option<i64>)> {
        let mut rng = Rng(seed);
        (0..n).map(move |_| {
            let text = random_map(&mut rng);
            let spec = MapSpec::parse(&text).unwrap();
            let truth = brute_force(&ResourceRush::against_script(spec.clone(), false));
            (text, spec, truth)
        })
    }

    /// A bot that plays a fixed list of answers (then waits).
    struct Plays(std::collections::VecDeque<Action>);
    impl bot_sdk::Bot for Plays {
        fn act(&mut self, _: &bot_sdk::GameState) -> Action {
            self.0.pop_front().unwrap_or(Action::Wait)
        }
    }

    /// Plays `plan` as a bot in a real single-player test and checks it scores what it claims.
    fn check_plan(spec: &MapSpec, plan: &Plan, text: &str) {
        let run = crate::offline::play_test(spec, Plays(plan.moves.iter().copied().collect()));
        let me = &run.outcome.players[0];
        assert!(me.finished && me.forfeit.is_none(), "the plan finishes: {me:?}\n{text}");
        assert_eq!(me.score, plan.score, "the plan scores what it claims\n{text}");
    }

    #[test]
    fn the_solver_matches_brute_force_on_tiny_random_maps() {
        let mut exact = 0;
        for (text, spec, truth) in tiny_maps(7, 400) {
            let solved = solve(&spec, &Budget::small(), None);
            match solved.solution {
                Solution::Exact(score) => {
                    assert_eq!(Some(score), truth, "{text}");
                    check_plan(&spec, solved.plan.as_ref().unwrap(), &text);
                    exact += 1;
                }
                Solution::Impossible => assert_eq!(truth, None, "{text}"),
                Solution::Bounded { .. } => panic!("tiny maps are solved exactly"),
            }
        }
        assert!(exact > 100, "enough maps can be finished to mean something ({exact})");
    }

    /// [`polished`] at a bot's effort, with an hour for each game: no cap in reach.
    fn polished_freely(spec: &MapSpec, model: &Model, salts: u64, best: &Plan) -> Option<Plan> {
        let hour = Duration::from_secs(3600);
        polished(spec, model, 1, 0..=salts, best, (&|_| hour, &Clock::new(hour, work_clock)))
    }

    /// The solver's phases stop by the work done, not the time taken: on a machine half as
    /// slow again (emulated: the work charged spins half as long again), a solve whose time
    /// limit ends its relaxation finds exactly the same plan and bound (without a backstop,
    /// which would depend on this machine's speed). Control: counted in CPU time (as before), the
    /// same solve on a machine four times as slow finds another bound.
    #[test]
    fn a_solve_finds_the_same_on_a_slower_machine() {
        let spec = MapSpec::parse(&crate::testgen::course_map(11).unwrap()).unwrap();
        // (No beams or exact searches after the relaxation: the solve ends near its limit.)
        let plan = PlanBudget {
            guided_beams: vec![],
            widen_states: 0,
            exact_states: 0,
            first_certify_states: 0,
            ..Budget::default().plan
        };
        let budget = Budget {
            plan,
            time_limit: Duration::from_millis(1000),
            backstop: None,
            seed_effort: 0,
            salts: 0,
            replan: false,
            ..Budget::default()
        };
        let run = |budget: &Budget, slower: f64| {
            sample_bots::work::slow_down(slower);
            let solved = solve(&spec, budget, None);
            sample_bots::work::slow_down(1.0);
            (solved.solution, solved.plan.map(|p| p.moves))
        };
        let fast = run(&budget, 1.0);
        assert!(matches!(fast.0, Solution::Bounded { .. }), "the time limit ends the relaxation: {:?}", fast.0);
        assert_eq!(run(&budget, 1.5), fast, "the same solve, half as slow again");
        let cpu = Budget { clock: thread_cpu, ..budget };
        // (A machine four times as slow: half as slow again relaxed to the same plateau, once,
        // on a loaded machine whose CPU time per step was up too.)
        let (fast, slow) = (run(&cpu, 1.0), run(&cpu, 4.0));
        assert_ne!(fast.0, slow.0, "control: by CPU time, the slower machine relaxes less");
    }

    /// The CPU-time backstop ends a solve and says so: set at once, every phase and game stops
    /// at its first look, and the solve still returns a plan that scores what it claims, with
    /// a looser bound. Control: without a backstop the same solve relaxes to its limit,
    /// unmarked.
    #[test]
    fn a_solve_past_its_backstop_stops_and_says_so() {
        let text = crate::testgen::course_map(11).unwrap();
        let spec = MapSpec::parse(&text).unwrap();
        let budget = Budget {
            time_limit: Duration::from_millis(500),
            backstop: Some(0.0),
            seed_effort: 0,
            salts: 0,
            replan: false,
            ..Budget::default()
        };
        let stopped = solve(&spec, &budget, None);
        let control = solve(&spec, &Budget { backstop: None, ..budget }, None);
        assert!(stopped.backstopped && !control.backstopped);
        check_plan(&spec, stopped.plan.as_ref().unwrap(), &text);
        let bound = |s: &Solved| match s.solution {
            Solution::Bounded { bound, .. } => bound,
            ref other => panic!("a bound, not {other:?}"),
        };
        assert!(bound(&stopped) > bound(&control), "{:?} against {:?}", stopped.solution, control.solution);
    }

    /// An exact search gives up, as out of states, once its `stop` says so (asked every
    /// `STOP_EVERY` states): the solver's clock ends a long one that way. On maps whose search
    /// creates that many states, a stop that always says so ends it where the control (a plain
    /// search) finishes; on the others nothing changes.
    #[test]
    fn an_exact_search_ends_when_its_stop_says_so() {
        use sample_bots::plan_search::{search, search_until, Limits, Outcome};
        let mut rng = Rng(37);
        let (mut stopped, mut finished) = (0, 0);
        for _ in 0..100 {
            let text = random_map_within(&mut rng, 6, 6, 30);
            let model = Model::new(Problem::of_test(&MapSpec::parse(&text).unwrap()));
            let limits = Limits { beam: None, max_states: 600_000, incumbent: None };
            let asked = std::cell::Cell::new(0);
            let outcome = search_until(&model, limits, None, &|| {
                asked.set(asked.get() + 1);
                true
            });
            let control = search(&model, limits, None);
            if asked.get() > 0 {
                assert_eq!(outcome, Outcome::OverBudget, "{text}");
                stopped += usize::from(matches!(control, Outcome::Optimal(_)));
            } else {
                assert_eq!(outcome, control, "{text}");
                finished += 1;
            }
        }
        assert!(stopped >= 5 && finished >= 5, "{stopped} stopped that finish unstopped, {finished} never asked");
    }

    /// The certifying searches ([`PlanBudget::certify_gaps`]), with too few states for some of
    /// them: a proof is the optimum (as a search with ample states proves it), and a certified
    /// bound is never below it.
    #[test]
    fn certified_gaps_agree_with_a_full_search() {
        let budget = Budget {
            plan: PlanBudget {
                beams: vec![2],
                quick_states: 0,
                steps: 5,
                guided_beams: vec![1],
                exact_states: 100,
                certify_gaps: vec![0.3, 0.0, 0.1],
                ..Budget::small().plan
            },
            ..Budget::small()
        };
        let mut rng = Rng(29);
        let (mut proved, mut bounded) = (0, 0);
        for _ in 0..60 {
            let text = random_map_within(&mut rng, 7, 7, 30);
            let spec = MapSpec::parse(&text).unwrap();
            let Solution::Exact(optimum) = solve(&spec, &Budget::small(), None).solution else { continue };
            let solved = solve(&spec, &budget, None);
            match solved.solution {
                Solution::Exact(score) => {
                    assert_eq!(score, optimum, "{text}");
                    proved += 1;
                }
                Solution::Bounded { best, bound } => {
                    assert!(best <= optimum && optimum <= bound, "{best} <= {optimum} <= {bound}\n{text}");
                    bounded += 1;
                }
                Solution::Impossible => panic!("a plan exists\n{text}"),
            }
            check_plan(&spec, solved.plan.as_ref().unwrap(), &text);
        }
        assert!(proved >= 10 && bounded >= 5, "{proved} proved and {bounded} bounded: both paths are exercised");
    }

    /// Where the searches certify nothing, the relaxation goes on with its memory growing by laps
    /// ([`PlanBudget::lap_work`]): the bound it ends with is never below the optimum, and on some
    /// maps it is lower than the same solve's without laps (the control): on 5 of these 12, where
    /// the laps during the relaxation alone (without the phase after the searches) lower 2.
    #[test]
    fn laps_after_the_searches_lower_bounds_and_never_below_the_optimum() {
        let budget = |lap_work| Budget {
            plan: PlanBudget {
                beams: vec![2],
                quick_states: 0,
                steps: 5,
                memory: 2,
                memory_work: usize::MAX,
                lap_work,
                guided_beams: vec![1],
                exact_states: 100,
                certify_gaps: vec![0.3, 0.0, 0.1],
                ..Budget::small().plan
            },
            ..Budget::small()
        };
        let bound = |s: &Solved| match s.solution {
            Solution::Bounded { bound, .. } => bound,
            Solution::Exact(score) => score,
            Solution::Impossible => i64::MIN,
        };
        let mut rng = Rng(31);
        let (mut lower, mut bounded) = (0, 0);
        for _ in 0..60 {
            let text = random_map_within(&mut rng, 7, 7, 30);
            let spec = MapSpec::parse(&text).unwrap();
            let Solution::Exact(optimum) = solve(&spec, &Budget::small(), None).solution else { continue };
            let (laps, control) = (solve(&spec, &budget(usize::MAX), None), solve(&spec, &budget(0), None));
            assert!(bound(&laps) >= optimum, "{:?} against the optimum {optimum}\n{text}", laps.solution);
            check_plan(&spec, laps.plan.as_ref().unwrap(), &text);
            bounded += usize::from(matches!(control.solution, Solution::Bounded { .. }));
            lower += usize::from(bound(&laps) < bound(&control));
        }
        assert!(lower >= 4, "laps lowered {lower} of the {bounded} bounds the control leaves uncertified");
    }

    /// The first certifying search ([`PlanBudget::first_certify_states`]) runs between the
    /// caller's two improvements ([`Improve`]): where it certifies the first gap (no other exact
    /// search runs here), the second is not offered the plan, and the certificate (from the
    /// memory's cost-to-go, [`Relaxation::recalled`]) is never below the optimum. Control:
    /// without it, each of those maps is offered to the second right after the first.
    #[test]
    fn the_first_certifying_search_runs_between_the_two_improvements() {
        let budget = |first_certify_states| PlanBudget {
            beams: vec![2],
            quick_states: 0,
            steps: 5,
            memory: 2,
            memory_work: usize::MAX,
            lap_work: 0,
            guided_beams: vec![1],
            exact_states: 0,
            certify_gaps: vec![0.1],
            first_certify_states,
            first_certify_gap: 1.0,
            ..Budget::small().plan
        };
        // What the planner did after its guided beams: the improvements it offered, and the
        // exact searches it was about to start (`None`).
        let run = |model: &Model, states| {
            let steps = std::cell::RefCell::new(Vec::new());
            let stop = |phase| {
                if phase == Phase::Exact {
                    steps.borrow_mut().push(None);
                }
                false
            };
            let improve = |_: &Plan, what| {
                steps.borrow_mut().push(Some(what));
                None
            };
            let planned = best_plan(model, &budget(states), None, &stop, &improve);
            (planned, steps.into_inner())
        };
        let mut rng = Rng(37);
        let (mut certified, mut not) = (0, 0);
        let (first, then) = (Some(Improve::First), Some(Improve::Then));
        for _ in 0..160 {
            let text = random_map_within(&mut rng, 7, 7, 30);
            let spec = MapSpec::parse(&text).unwrap();
            let Solution::Exact(optimum) = solve(&spec, &Budget::small(), None).solution else { continue };
            let model = Model::new(Problem::of_test(&spec));
            let (planned, steps) = run(&model, 1_000_000);
            let (Some(plan), Some(bound)) = (&planned.plan, planned.bound) else { continue };
            assert!(plan.score <= optimum && optimum <= bound, "{} <= {optimum} <= {bound}\n{text}", plan.score);
            if !steps.contains(&None) {
                continue;
            }
            if !planned.proved && bound == (plan.score as f64 * 1.1).floor() as i64 {
                assert_eq!(steps, [first, None], "certified, not offered again\n{text}");
                assert_eq!(run(&model, 0).1, [first, then], "{text}");
                certified += 1;
                // Out of states, it certifies nothing: the plan is offered again after it.
                let (planned, steps) = run(&model, 20);
                if !planned.proved && planned.bound > Some(bound) {
                    assert_eq!(steps, [first, None, then], "not certified, offered again\n{text}");
                    not += 1;
                }
            }
        }
        assert!(certified >= 10 && not >= 3, "{certified} certified, {not} not: both paths are exercised");
    }

    /// No exact search starts while the bound is more than [`PlanBudget::hopeless_gap`] above
    /// the best plan: such maps end bounded where the control (every search allowed) proves
    /// them, and the others are solved exactly as without it.
    #[test]
    fn no_exact_search_starts_from_a_hopeless_gap() {
        let budget = |hopeless_gap| Budget {
            plan: PlanBudget {
                beams: vec![2],
                quick_states: 0,
                steps: 2,
                guided_beams: vec![1],
                exact_states: 1_000_000,
                hopeless_gap,
                ..Budget::small().plan
            },
            ..Budget::small()
        };
        let mut rng = Rng(31);
        let (mut skipped, mut same) = (0, 0);
        for _ in 0..40 {
            let text = random_map_within(&mut rng, 7, 7, 30);
            let spec = MapSpec::parse(&text).unwrap();
            match (solve(&spec, &budget(0.1), None).solution, solve(&spec, &budget(0.0), None).solution) {
                (Solution::Bounded { best, bound }, Solution::Exact(optimum)) => {
                    assert!(best <= optimum && optimum <= bound, "{best} <= {optimum} <= {bound}\n{text}");
                    skipped += 1;
                }
                (with, control) => {
                    assert_eq!(with, control, "{text}");
                    same += 1;
                }
            }
        }
        assert!(skipped >= 5 && same >= 5, "{skipped} skipped, {same} the same: both paths are exercised");
    }

    /// A budget with no exact search and a single relaxed solve at zero prices, then one with
    /// a memory: the answer is the better bound and the better walk, replayed.
    fn relaxation_only() -> Budget {
        let plan = PlanBudget {
            beams: vec![],
            quick_states: 0,
            steps: 1,
            memory: 6,
            memory_work: usize::MAX,
            lap_work: 0,
            guided_beams: vec![],
            exact_states: 0,
            ..Budget::small().plan
        };
        Budget { plan, ..Budget::small() }
    }

    #[test]
    fn relaxation_bounds_are_never_below_the_optimum_and_plans_replay() {
        let mut bounded = 0;
        for (text, spec, truth) in tiny_maps(11, 300) {
            // The relaxation's own bound (the solver may report the coarse one instead).
            let own =
                best_plan(&Model::new(Problem::of_test(&spec)), &relaxation_only().plan, None, &|_| false, &|_, _| {
                    None
                })
                .bound;
            if let (Some(bound), Some(best_possible)) = (own, truth) {
                assert!(bound >= best_possible, "{best_possible} <= {bound}\n{text}");
                bounded += usize::from(bound > best_possible);
            }
            let solved = solve(&spec, &relaxation_only(), None);
            match (solved.solution, truth) {
                (Solution::Bounded { best, bound }, Some(best_possible)) => {
                    assert!(
                        bound >= best_possible && best <= best_possible,
                        "{best} <= {best_possible} <= {bound}\n{text}"
                    );
                    check_plan(&spec, solved.plan.as_ref().unwrap(), &text);
                }
                (Solution::Exact(score), Some(best_possible)) => {
                    assert_eq!(score, best_possible, "a bound reaching a plan's score proves it\n{text}");
                    check_plan(&spec, solved.plan.as_ref().unwrap(), &text);
                }
                (Solution::Impossible, None) => {}
                (other, truth) => panic!("{other:?} but brute force says {truth:?}\n{text}"),
            }
        }
        assert!(bounded >= 5, "enough maps have a relaxed bound above the optimum ({bounded})");
    }

    /// A memory of the nearest resources ([`Relaxation::remember`]) keeps the bound valid,
    /// and on some maps makes it tighter than the plain relaxation's after as many steps.
    #[test]
    fn a_memory_keeps_the_relaxation_valid_and_tightens_it() {
        // Both bounds after 30 steps, without and with a memory of 6.
        let bounds = |spec: &MapSpec| {
            let model = Model::new(Problem::of_test(spec));
            let (mut plain, mut remembering) = (Relaxation::new(&model)?, Relaxation::new(&model)?);
            remembering.remember(6);
            for _ in 0..30 {
                plain.tighten(0);
                remembering.tighten(0);
            }
            Some((plain.bound(), remembering.bound()))
        };
        let mut checked = 0;
        for (text, spec, truth) in tiny_maps(17, 300) {
            let (Some(truth), Some((plain, remembering))) = (truth, bounds(&spec)) else { continue };
            let (Some(a), Some(b)) = (plain, remembering) else { panic!("a plan exists\n{text}") };
            assert!(a >= truth && b >= truth, "bounds {a} and {b} >= optimum {truth}\n{text}");
            checked += 1;
        }
        assert!(checked > 100, "enough maps can be finished to mean something ({checked})");
        // Larger maps (too large for brute force): there the memory tightens some bounds.
        let mut rng = Rng(19);
        let tighter = (0..40)
            .filter_map(|_| bounds(&MapSpec::parse(&random_map_within(&mut rng, 5, 5, 20)).unwrap()))
            .filter(|(plain, remembering)| remembering < plain)
            .count();
        assert!(tighter >= 3, "{tighter} of 40 larger maps have a tighter bound with a memory");
    }

    /// The optimum an exact search pruned by `relaxation`'s cost-to-go (read with what each
    /// state took) finds, if it finishes.
    fn optimum_pruned_by(model: &Model, relaxation: &Relaxation) -> Option<i64> {
        use sample_bots::plan_search::{search_until, CostToGo, Limits, Outcome};
        let limits = Limits { beam: None, max_states: usize::MAX, incumbent: None };
        match search_until(model, limits, Some(&relaxation.recalled() as &dyn CostToGo), &|| false) {
            Outcome::Optimal(plan) => Some(plan.score),
            _ => None,
        }
    }

    /// A memory grown by the relaxed walks' laps ([`Relaxation::forbid_laps`]) keeps the bound
    /// valid, and so does its cost-to-go: an exact search pruned by it still finds the optimum
    /// (brute force on tiny maps). On larger maps it tightens bounds that the nearest resources
    /// alone (the control, the same memory without laps) leave where they are.
    #[test]
    fn a_memory_grown_by_laps_keeps_bounds_and_cost_to_go_valid_and_tightens_them() {
        // After 40 steps with a memory of the nearest 2, without and with laps; then the
        // optimum found by an exact search pruned by the latter's settled cost-to-go.
        let bounds = |spec: &MapSpec, search: bool| {
            let model = Model::new(Problem::of_test(spec));
            let (mut near, mut laps) = (Relaxation::new(&model)?, Relaxation::new(&model)?);
            near.remember(2);
            laps.remember(2);
            laps.forbid_laps(8, usize::MAX);
            for _ in 0..40 {
                near.tighten(0);
                laps.tighten(0);
            }
            laps.settle();
            let found = search.then(|| optimum_pruned_by(&model, &laps)).flatten();
            Some((near.bound(), laps.bound(), laps.memories_per_cell(), found))
        };
        let mut checked = 0;
        for (text, spec, truth) in tiny_maps(23, 300) {
            let (Some(truth), Some((_, laps, _, found))) = (truth, bounds(&spec, true)) else { continue };
            let Some(laps) = laps else { panic!("a plan exists\n{text}") };
            assert!(laps >= truth, "bound {laps} >= optimum {truth}\n{text}");
            assert_eq!(found, Some(truth), "the search pruned by the laps' cost-to-go finds the optimum\n{text}");
            checked += 1;
        }
        assert!(checked > 100, "enough maps can be finished to mean something ({checked})");
        let mut rng = Rng(29);
        let (mut tighter, mut grown) = (0, 0);
        for _ in 0..40 {
            let spec = MapSpec::parse(&random_map_within(&mut rng, 6, 6, 30)).unwrap();
            let Some((Some(near), Some(laps), per_cell, _)) = bounds(&spec, false) else { continue };
            tighter += usize::from(laps < near);
            grown += usize::from(per_cell > 4.0);
        }
        assert!(grown >= 3, "laps grew the memory of {grown} of 40 maps beyond the nearest 2");
        assert!(tighter >= 3, "{tighter} of 40 larger maps have a tighter bound with laps");
    }

    /// With a memory grown by laps, prices moved by the bundle ([`Relaxation::use_bundle`])
    /// keep the bound valid, and so does its settled cost-to-go (brute force on tiny maps: an
    /// exact search pruned by it still finds the optimum); on larger maps its steps lower the
    /// bound below the plain steps' (the control: as many steps without the memory's). Whether
    /// it is tighter than subgradient steps is measured on the 20 tests (`tests-bench`): on
    /// the small maps here it is not (after 25 steps, looser on 9 of the 15 with a bound).
    #[test]
    fn the_bundle_keeps_bounds_valid_and_lowers_them() {
        // After 20 plain steps and 25 more, with a memory of the nearest 2 grown by laps and
        // the bundle, and without (the control), each towards the best walk replayed so far as
        // the planner steps towards its best plan; then the optimum found by an exact search
        // pruned by the bundle's settled cost-to-go.
        let bounds = |spec: &MapSpec, search: bool| {
            let model = Model::new(Problem::of_test(spec));
            let (mut plain, mut bundle) = (Relaxation::new(&model)?, Relaxation::new(&model)?);
            bundle.use_bundle();
            for (relaxation, remembers) in [(&mut plain, false), (&mut bundle, true)] {
                let mut lower = 0;
                for step in 0..45 {
                    if step == 20 && remembers {
                        relaxation.remember(2);
                        relaxation.forbid_laps(8, usize::MAX);
                    }
                    lower = relaxation.tighten(lower).0.map_or(lower, |plan| lower.max(plan.score));
                }
            }
            bundle.settle();
            let found = search.then(|| optimum_pruned_by(&model, &bundle)).flatten();
            Some((plain.bound(), bundle.bound(), found))
        };
        let mut checked = 0;
        for (text, spec, truth) in tiny_maps(31, 200) {
            let (Some(truth), Some((_, bundle, found))) = (truth, bounds(&spec, true)) else { continue };
            let Some(bundle) = bundle else { panic!("a plan exists\n{text}") };
            assert!(bundle >= truth, "bound {bundle} >= optimum {truth}\n{text}");
            assert_eq!(found, Some(truth), "the search pruned by the bundle's cost-to-go finds the optimum\n{text}");
            checked += 1;
        }
        assert!(checked > 60, "enough maps can be finished to mean something ({checked})");
        let mut rng = Rng(37);
        let mut lower = 0;
        for _ in 0..30 {
            let spec = MapSpec::parse(&random_map_within(&mut rng, 12, 12, 60)).unwrap();
            let Some((Some(plain), Some(bundle), _)) = bounds(&spec, false) else { continue };
            lower += usize::from(bundle < plain);
        }
        assert!(lower >= 5, "the bundle's memory steps lower the bound on {lower} of 30 maps");
    }

    /// A planner budget of a few subgradient steps, one guided beam of one state per tick and
    /// no exact search, with wider beams up to `widen_states`.
    fn narrow(widen_states: usize) -> PlanBudget {
        PlanBudget {
            beams: vec![],
            quick_states: 0,
            steps: 30,
            guided_beams: vec![1],
            exact_states: 0,
            widen_states,
            certify_gaps: vec![0.0],
            ..Budget::small().plan
        }
    }

    /// On 100 small random maps from `seed`: on how many `plan(spec, true)` is better than
    /// `plan(spec, false)`, checking that it is never worse and replays as claimed.
    fn better_plans(seed: u64, plan: impl Fn(&MapSpec, bool) -> Option<Plan>) -> usize {
        better_plans_within(seed, (5, 5, 20), plan)
    }

    /// [`better_plans`] on maps of up to `rows` x `cols` and `ticks`.
    fn better_plans_within(
        seed: u64,
        (rows, cols, ticks): (u64, u64, u64),
        plan: impl Fn(&MapSpec, bool) -> Option<Plan>,
    ) -> usize {
        let mut rng = Rng(seed);
        let mut better = 0;
        for _ in 0..100 {
            let text = random_map_within(&mut rng, rows, cols, ticks);
            let spec = MapSpec::parse(&text).unwrap();
            let (Some(without), Some(with)) = (plan(&spec, false), plan(&spec, true)) else { continue };
            assert!(with.score >= without.score, "{} < {}\n{text}", with.score, without.score);
            check_plan(&spec, &with, &text);
            better += usize::from(with.score > without.score);
        }
        better
    }

    /// Wider guided beams ([`PlanBudget::widen_states`]) only ever add better plans, which
    /// replay as claimed, and find better plans than a beam of one on some maps. Control: the
    /// same budget without them.
    #[test]
    fn wider_beams_find_better_plans_than_the_guided_ones() {
        let better = better_plans(23, |spec, wide| {
            let budget = narrow(if wide { 64 * 21 } else { 0 });
            best_plan(&Model::new(Problem::of_test(spec)), &budget, None, &|_| false, &|_, _| None).plan
        });
        assert!(better >= 5, "wider beams found better plans on {better} of 100 maps");
    }

    /// The route search from the planner's best plan (the solver's polish) offers only plans
    /// that replay as claimed, and finds better plans than a guided beam of one on some maps.
    /// Control: the same budget without it.
    #[test]
    fn the_route_search_from_the_best_plan_finds_better_plans() {
        let better = better_plans(29, |spec, polish| {
            let model = Model::new(Problem::of_test(spec));
            let improve = |best: &Plan, what| {
                (polish && what == Improve::First).then(|| polished_freely(spec, &model, 0, best)).flatten()
            };
            best_plan(&model, &narrow(0), None, &|_| false, &improve).plan
        });
        assert!(better >= 5, "the route search found better plans on {better} of 100 maps");
    }

    /// Salted games ([`Reference::salted`]) after the route search from the best plan offer
    /// only plans that replay as claimed, and find better plans than it alone on some maps of
    /// the course's size. Control: no salted games.
    #[test]
    fn salted_games_find_better_plans_than_the_route_search_from_the_best_plan() {
        let mut better = 0;
        // (course_map(1) 3,060 -> 3,256, (9) 1,972 -> 1,993; the others of 1 to 9 unchanged.)
        for seed in 1..=9 {
            let text = crate::testgen::course_map(seed).unwrap();
            let spec = MapSpec::parse(&text).unwrap();
            let model = Model::new(Problem::of_test(&spec));
            let plan = |salts| {
                let improve = |best: &Plan, what| {
                    (what == Improve::First).then(|| polished_freely(&spec, &model, salts, best)).flatten()
                };
                best_plan(&model, &narrow(0), None, &|_| false, &improve).plan
            };
            let (Some(without), Some(with)) = (plan(0), plan(4)) else { continue };
            assert!(with.score >= without.score, "{} < {}\n{text}", with.score, without.score);
            check_plan(&spec, &with, &text);
            better += usize::from(with.score > without.score);
        }
        assert!(better >= 2, "salted games found better plans on {better} of 9 maps");
    }

    /// The solve's re-planned rest of its best plan ([`Budget::replan`], [`replan_from`])
    /// offers only plans that replay as claimed, and finds better plans than the solve without
    /// it on some maps (2 of 100 maps of up to 9x9 and 40 ticks at this budget: the bot's games
    /// seed both, and are often optimal there). Control: the same budget without it.
    #[test]
    fn the_replanned_rest_of_the_best_plan_finds_better_plans() {
        let better = better_plans_within(31, (9, 9, 40), |spec, replan| {
            let budget = Budget { plan: narrow(0), replan, ..Budget::small() };
            solve(spec, &budget, None).plan
        });
        assert!(better >= 2, "the re-planned rest found better plans on {better} of 100 maps");
    }

    /// A long game that can take everything: after one relaxed solve the relaxation's bound is
    /// far above "every resource at the final multiplier", which a plan reaches, so the coarse
    /// bound proves it. Control: the planner's own bound.
    #[test]
    fn the_coarse_bound_is_kept_where_it_is_tighter() {
        let text = "ARENA 1 6 20\n0 0\n0 0\n0 5\nMAP\n0 D 3 0 5 0\nEND_MAP\nSTREAM\n";
        let spec = MapSpec::parse(text).unwrap();
        let budget = Budget {
            plan: PlanBudget {
                steps: 1,
                quick_states: 0,
                exact_states: 0,
                guided_beams: vec![],
                ..Budget::small().plan
            },
            ..Budget::small()
        };
        let planned = best_plan(&Model::new(Problem::of_test(&spec)), &budget.plan, None, &|_| false, &|_, _| None);
        assert!(planned.bound.is_some_and(|b| b > 16), "the relaxation alone: {:?}", planned.bound);
        assert_eq!(upper_bound(&spec), Some(16));
        let solved = solve(&spec, &budget, None);
        assert_eq!(solved.solution, Solution::Exact(16));
        check_plan(&spec, solved.plan.as_ref().unwrap(), text);
    }

    /// The re-plan cuts a plan after its first fifth, up to the course's 160 ticks (test18's
    /// 3,596 comes from tick 32), and not at all beyond them (planned again window by window).
    #[test]
    fn the_replan_cuts_only_plans_of_the_courses_length() {
        assert_eq!(replan_cut(160), 32);
        assert_eq!(replan_cut(161), 0, "planned again window by window instead");
        assert_eq!(replan_cut(170), 0);
        assert_eq!(replan_cut(4), 0, "too short to cut: not re-planned");
    }

    #[test]
    fn the_bound_fallback_is_never_below_the_optimum() {
        for (_, spec, truth) in tiny_maps(13, 200) {
            if let (Some(best), Some(bound)) = (truth, upper_bound(&spec)) {
                assert!(bound >= best, "bound {bound} < optimum {best}");
            }
        }
    }

    #[test]
    fn a_small_budget_ends_with_a_certified_bound_on_a_large_test() {
        let spec = arena::games::resource_rush::load_map_file(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps/tests/test12.txt"),
        )
        .unwrap();
        let budget = Budget {
            plan: PlanBudget {
                beams: vec![8],
                quick_states: 1000,
                steps: 3,
                guided_beams: vec![],
                exact_states: 1000,
                ..Budget::small().plan
            },
            ..Budget::small()
        };
        let solved = solve(&spec, &budget, None);
        let Solution::Bounded { best, bound } = solved.solution else { panic!("{:?}", solved.solution) };
        assert!(best < bound);
        check_plan(&spec, solved.plan.as_ref().unwrap(), "test12");
    }

    #[test]
    fn the_default_budget_proves_a_mid_sized_test() {
        let spec = arena::games::resource_rush::load_map_file(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps/tests/test7.txt"),
        )
        .unwrap();
        let solved = solve(&spec, &Budget::small(), None);
        assert_eq!(solved.solution, Solution::Exact(383));
        check_plan(&spec, solved.plan.as_ref().unwrap(), "test7");
    }

    /// test2's guided beams after 30.7 s of relaxation: 256 took 0.4 s, 2048 then 3.8 s, so
    /// 8192 would end near 50 s: past 45 s it is not started; 2048 was (expected by 34.5 s).
    #[test]
    fn a_guided_beam_expected_to_end_too_late_is_not_started() {
        let s = Duration::from_secs_f64;
        let limit = s(45.0);
        assert!(!guide_ends_late(s(30.7), None, 256, limit), "the first has nothing to go by");
        assert!(!guide_ends_late(s(31.1), Some((s(30.7), 256)), 2048, limit));
        assert!(guide_ends_late(s(34.9), Some((s(31.1), 2048)), 8192, limit));
        // Control: with time to spare, the same beam starts.
        assert!(!guide_ends_late(s(20.9), Some((s(17.1), 2048)), 8192, limit));
        assert!(guide_ends_late(s(45.1), None, 256, limit), "nothing starts past the limit");
    }

    /// test12 (its opponent waits): the solver proves the optimum, and the bot, which plans its
    /// first route both ways of walking there (see `Reference::clean`), reaches it; walking its
    /// own way alone (the control: the bot before it planned both), it does not.
    #[test]
    fn the_reference_reaches_the_proved_optimum_of_test12() {
        let spec = arena::games::resource_rush::load_map_file(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps/tests/test12.txt"),
        )
        .unwrap();
        let Solution::Exact(optimum) = solve(&spec, &Budget::default(), None).solution else { panic!("proved") };
        let score = |bot| crate::offline::play_test(&spec, bot).outcome.players[0].score;
        assert_eq!(score(Reference::default()), optimum);
        assert!(score(Reference::default().alone()) < optimum);
    }

    /// course_map(36): a greedy racer from the far corner, predicted from its second move,
    /// would take what the plan proved on the first tick counts on later (that plan, played
    /// against it, is the control: it scores less). The bot plans again once it predicts the
    /// racer, and reaches the proved optimum (it scored 310 when it waited for the racer to
    /// take the first of them).
    #[test]
    fn the_reference_plans_again_once_its_opponent_becomes_predictable() {
        let spec = MapSpec::parse(&crate::testgen::course_map(36).unwrap()).unwrap();
        let Solution::Exact(optimum) = solve(&spec, &Budget::small(), None).solution else { panic!("proved") };
        let score = |run: crate::offline::OfflineRun| run.outcome.players[0].score;
        assert_eq!(score(crate::offline::play_test(&spec, Reference::default())), optimum);
        let mut unforeseen = spec.clone();
        unforeseen.script.iter_mut().for_each(|t| t.action = Action::Wait);
        let first = solve(&unforeseen, &Budget::small(), None);
        assert!(matches!(first.solution, Solution::Exact(s) if s > optimum), "waiting, it would leave more");
        let played = crate::offline::play_test(&spec, Plays(first.plan.unwrap().moves.into()));
        assert!(score(played) < optimum, "control: the first tick's plan, against the racer");
    }

    /// A map where every short way to the multipliers crosses resources: the bot's own way of
    /// walking takes them at x1; the clean variant fetches a `J` first, jumps to `D` and `T` over
    /// them and takes every resource at x6, which the solver, starting from that game, proves
    /// optimal. The bot plays it too: on the first tick both routes are worth 1,662 (the own
    /// route's value counts nothing of what its legs walk through), and of two routes worth the
    /// same it plays the one that walks to more (the opponent only waits here).
    #[test]
    fn the_clean_reference_finds_the_plan_that_crosses_no_resource_before_the_multipliers() {
        let spec = MapSpec::parse(&crate::testgen::course_map(13).unwrap()).unwrap();
        assert!(spec.script.iter().all(|t| t.action == Action::Wait), "the opponent only waits");
        let score = |bot| crate::offline::play_test(&spec, bot).outcome.players[0].score;
        let (bot, own, clean) =
            (score(Reference::default()), score(Reference::default().alone()), score(Reference::clean()));
        let Solution::Exact(optimum) = solve(&spec, &Budget::small(), None).solution else { panic!("proved") };
        assert_eq!(clean, optimum);
        assert!(own < optimum, "the bot's own way of walking misses it ({own})");
        assert_eq!(bot, clean, "of the two first routes worth the same, the bot plays the one that walks to more");
    }

    /// course_map(14): the clean variant whose first routes open their way to a power-up
    /// (`Search::bridge`) plays 7821; as it walked before (`Reference::unbridged`) it plays
    /// 7842, which the solver, seeded with that game too, proves optimal (without it: 7821 ..=
    /// 7842).
    #[test]
    fn the_unbridged_clean_game_seeds_the_proof_of_course_map_14() {
        let spec = MapSpec::parse(&crate::testgen::course_map(14).unwrap()).unwrap();
        let score = |bot| crate::offline::play_test(&spec, bot).outcome.players[0].score;
        let (bridged, unbridged) = (score(Reference::clean()), score(Reference::clean().unbridged()));
        assert!(bridged < unbridged, "bridged {bridged}, unbridged {unbridged}");
        assert_eq!(solve(&spec, &Budget::default(), None).solution, Solution::Exact(unbridged));
    }

    /// Told the script, the reference knows which item the opponent takes first, to the tick:
    /// the 9 two steps left of the bot goes to the opponent's move of tick 2 (moves of a tick are
    /// applied before the bot's), but not to its move of tick 3: told, the bot fetches the 5 in
    /// the first case and the 9 in the second. Not told (the control), it runs for the 9 both
    /// times and loses the race once.
    #[test]
    fn told_the_script_the_reference_knows_which_race_it_wins() {
        for (tick, told, guessing) in [(2, 5, 0), (3, 9, 9)] {
            let waits: String = (1..tick).map(|t| format!("TICK {t} WAIT\n")).collect();
            let text = format!(
                "ARENA 2 5 5\n0 2\n1 0\n1 2\nMAP\n9 0 0 0 5\n0 0 0 0 0\nEND_MAP\nSTREAM\n{waits}TICK {tick} MOVE 0 0\n"
            );
            let spec = MapSpec::parse(&text).unwrap();
            let script = Problem::of_test(&spec).cleared;
            let score = |bot| crate::offline::play_test(&spec, bot).outcome.players[0].score;
            assert_eq!(score(Reference::default().knowing(&script)), told, "told, the 9 taken at tick {tick}");
            assert_eq!(score(Reference::default()), guessing, "guessing, the 9 taken at tick {tick}");
        }
    }

    /// On a course-sized map with a racing opponent, the game told the script scores more than
    /// the bot's own at the same effort (the solver starts from the best of such games).
    #[test]
    fn told_the_script_the_reference_plans_around_a_racing_opponent() {
        let spec = MapSpec::parse(&crate::testgen::course_map(2).unwrap()).unwrap();
        let script = Problem::of_test(&spec).cleared;
        let score = |bot| crate::offline::play_test(&spec, bot).outcome.players[0].score;
        let (told, guessing) = (score(Reference::default().knowing(&script)), score(Reference::default()));
        assert!(told > guessing, "told {told}, guessing {guessing}");
    }

    thread_local! {
        static NOW: std::cell::Cell<Duration> = const { std::cell::Cell::new(Duration::ZERO) };
    }

    /// A clock that moves 50 ms each time it is read: a very slow machine.
    fn racing() -> Duration {
        NOW.with(|now| {
            now.set(now.get() + Duration::from_millis(50));
            now.get()
        })
    }

    /// A clock that stands still: a machine fast enough that no cap is ever reached.
    fn still() -> Duration {
        Duration::ZERO
    }

    /// The reference bot's CPU caps ([`sample_bots::reference::Caps`]) cut nothing short where
    /// time is plentiful (every game of the 20 tests the same as without them), and on a machine
    /// so slow that every answer reaches its cap at once, every answer stops searching, and the
    /// bot still finishes every test, though it plays other games (the control: the caps bite);
    /// the bot counts the answers at their cap (none in time, some wherever a game changed).
    #[test]
    fn the_reference_caps_cut_nothing_short_in_time_and_still_finish_when_every_answer_is_late() {
        use sample_bots::reference::Caps;
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps/tests");
        let mut changed = Vec::new();
        for k in 1..=20 {
            let spec = arena::games::resource_rush::load_map_file(&dir.join(format!("test{k}.txt"))).unwrap();
            // The game, and how many answers reached their cap.
            let play = |mut bot: Reference| (crate::offline::play_test_with(&spec, &mut bot), bot.answers_at_cap());
            let (free, _) = play(Reference::default());
            let (in_time, none) = play(Reference::default().capped_by(Caps { clock: still, ..Caps::COURSE }));
            assert_eq!(in_time.actions, free.actions, "test{k}: the same game when no cap is reached");
            assert_eq!(none, 0, "test{k}: no answer reached its cap");
            let (late, at_cap) = play(Reference::default().capped_by(Caps { clock: racing, ..Caps::COURSE }));
            let player = &late.outcome.players[0];
            assert!(player.finished && player.forfeit.is_none(), "test{k}: the late bot still finishes");
            if late.actions != free.actions {
                assert!(at_cap > 0, "test{k}: a game the caps changed counts the answers they cut");
                changed.push(k);
            }
        }
        assert!(changed.len() >= 5, "the caps stop the searches of the larger tests: {changed:?}");
    }

    #[test]
    fn the_reference_bot_reaches_the_proved_optimum_where_the_opponent_waits() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../maps/tests");
        let budget = Budget {
            plan: PlanBudget { steps: 300, guided_beams: vec![256], exact_states: 2_000_000, ..Budget::small().plan },
            ..Budget::small()
        };
        let mut checked = Vec::new();
        for k in 1..=20 {
            let spec = arena::games::resource_rush::load_map_file(&dir.join(format!("test{k}.txt"))).unwrap();
            let waits = spec.script.iter().all(|s| s.action == Action::Wait);
            if !waits || spec.grid.rows() * spec.grid.cols() > 200 {
                continue;
            }
            let Solution::Exact(optimum) = solve(&spec, &budget, None).solution else { continue };
            let run = crate::offline::play_test(&spec, sample_bots::reference::Reference::default());
            assert_eq!(run.outcome.players[0].score, optimum, "test{k}");
            checked.push(k);
        }
        assert!(checked.len() >= 6, "enough tests are proved and played: {checked:?}");
    }
}
