//! The best plan a budget allows, and how far from optimal it can be: what the `reference`
//! bot plays and what `arena solve` certifies, with different budgets.
//!
//! 1. Quick plans: beam searches over the real rules ([`crate::plan_search`]), plus any plan
//!    the caller already has.
//! 2. Exact search with that incumbent, pruned by the model's own bound; finishing within its
//!    state budget proves the optimum.
//! 3. Otherwise the Lagrangian relaxation ([`crate::relaxation`]) is tightened by subgradient
//!    steps; each step gives a certified bound and, replayed, a plan. Beam searches guided by
//!    its cost-to-go then find better plans, the caller may improve the best (the solver
//!    searches routes from it), a first exact search may certify it, the caller may improve it
//!    again (the solver plans its rest again, [`replan_from`], and searches other routes),
//!    wider beams run while the best is still far from the bound, and exact searches pruned by
//!    it, for plans above the best or a given gap above it, prove the optimum or certify that
//!    gap.
//!
//! Effort is counted (states, steps, relaxation work), so the answer does not depend on the
//! machine; the caller's `stop` can only end the subgradient steps early, skip the searches
//! after them, and end an exact search after them as if it ran out of states.

use crate::plan_search::{search_until, CostToGo, Limits, Model, Outcome, Plan, Problem};
use crate::relaxation::{replay, Relaxation};
use bot_sdk::{Action, Cell};

/// The memory the planner grows to ([`Budget::memory`]) wherever its estimated work stays within
/// twice [`Budget::memory_work`], not once: [`Relaxation::work_with`] counts every memory a step
/// could solve, but a step solves only those its walks can reach, so that a memory of 4 costs
/// far less than twice one of 3 (test19: 223 against 196 ms a step, for 25,728 against 25,797
/// after 57 steps, which certifies it within 2.9 % instead of 3.2 %). Wider memories keep the
/// limit once: a memory of 5 instead of 4 on course_map(11) left its bound where it was and its
/// best plan 4 % lower (18,803 against 19,607), on test20 0.4 % lower.
const WIDE_MEMORY: usize = 4;

/// How much the planner may search.
#[derive(Debug, Clone)]
pub struct Budget {
    /// Widths of the first beam searches.
    pub beams: Vec<usize>,
    /// States the first exact search may create.
    pub quick_states: usize,
    /// Subgradient steps at most, without a memory and again with one.
    pub steps: usize,
    /// Total work of all the steps, those with a memory included (see [`Relaxation::work`]).
    pub relax_work: usize,
    /// Whether, with a memory, the prices move by a proximal bundle method
    /// ([`Relaxation::use_bundle`]) rather than by subgradient steps: far fewer steps for the
    /// same bound, each with a small quadratic programme more.
    pub bundle: bool,
    /// When the subgradient has settled before `stop`: go on with a memory of up to this many
    /// resources per cell ([`Relaxation::remember`]; 0: never), as large as one solve's work
    /// stays within `memory_work` (a memory of 4 within twice that: see `WIDE_MEMORY`).
    pub memory: usize,
    /// Work of one solve with a memory, at most (see [`Relaxation::work`]).
    pub memory_work: usize,
    /// Work of one solve that the laps of the relaxed walks may grow the memory to, from its
    /// first step on ([`Relaxation::forbid_laps`]; 0: the memory stays the nearest resources).
    pub lap_work: usize,
    /// Widths of the beam searches guided by the relaxation at the end (the first one also
    /// runs every 50 steps).
    pub guided_beams: Vec<usize>,
    /// States each exact search pruned by the relaxation may create.
    pub exact_states: usize,
    /// States the first certifying search may create (0: none): for plans the first of
    /// `certify_gaps` above the best, between the caller's two improvements ([`Improve`]).
    /// Where the bound is close, it is cheap with the memory's cost-to-go
    /// ([`Relaxation::recalled`]: course_map(11), 2.9 % above 19,608, in under 3 million states
    /// and 4.7 s of work), and what fails costs no more than these states (the later search for
    /// the same gap, with more states, then starts again from scratch). The re-planned rest of
    /// the solver's plan ([`replan_from`]) runs it too: a plan it finds above its target is the
    /// rest's optimum.
    pub first_certify_states: usize,
    /// That search runs only while the bound is within this gap (a fraction) of the best plan:
    /// from further off it fails and takes the time of what comes after it (test18, 7.2 %
    /// from 3,442: the re-plan that finds 3,596 then ran out of time; test20, 3.3 % from 5,283,
    /// its target 0.4 % below the bound: out of 3 million states after 7.5 s, where the later
    /// search, from the 5,289 the polish found meanwhile, certified 2.9 % in 2 s). Where it
    /// certified, the gap was 3.1 to 3.2 % (test19, course_map(11)). Below `hopeless_gap`, past
    /// which no exact search starts.
    pub first_certify_gap: f64,
    /// When the optimum is not proved and the best plan is not within the first of
    /// `certify_gaps` of the bound: guided beams 4, 16, ... times wider than the last of
    /// `guided_beams`, while their width times the ticks stays within this (0: none).
    pub widen_states: usize,
    /// Gaps (fractions of the best plan's score) that exact searches pruned by the relaxation
    /// try to certify in turn, gap 0 being the proof (the only one when empty).
    pub certify_gaps: Vec<f64>,
    /// Those exact searches start only while the bound is within this gap (a fraction) of the
    /// best plan (0: always): from far off they run out of states (over the 20 tests and 50
    /// random maps, no proof succeeded from a relaxation gap above 2.8 %, no certificate from
    /// one above 8.9 %; each failure cost up to 17 s).
    pub hopeless_gap: f64,
}

/// What the planner is about to do, for the caller's `stop` (see [`best_plan`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Another subgradient step.
    Relax,
    /// One of the guided beams after the relaxation ([`Budget::guided_beams`]), of this width.
    Guide(usize),
    /// A wider guided beam (see [`Budget::widen_states`]).
    Widen,
    /// An exact search after the relaxation.
    Exact,
    /// A search (beam or exact) is still running (asked every
    /// [`crate::plan_search::STOP_EVERY`] states): stopping it ends it as out of states.
    Searching,
    /// Another subgradient step after the searches, the memory growing by laps (see
    /// [`Budget::lap_work`]).
    Laps,
}

/// When the caller's `improve` is offered the best plan (see [`best_plan`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Improve {
    /// Once the guided beams have run.
    First,
    /// After the first certifying search ([`Budget::first_certify_states`]), unless that
    /// search certified the plan.
    Then,
}

/// What the planner found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// The best plan found (`None`: no plan reaches the final in time).
    pub plan: Option<Plan>,
    /// A certified upper bound on any plan's score, when one was computed.
    pub bound: Option<i64>,
    /// Whether the plan is proved optimal (or no plan exists).
    pub proved: bool,
}

/// The best plan for `model` within `budget` (see the module docs). `known` is a plan the
/// caller already has; `stop` is asked before each subgradient step, wider beam and exact
/// search after the relaxation (a caller's clock, for instance); `improve` is offered the best
/// plan twice ([`Improve`]) while it is not within the first of [`Budget::certify_gaps`] of the
/// bound (before the wider beams and the exact searches, which a better plan may spare or
/// help), and may return another.
pub fn best_plan(
    model: &Model,
    budget: &Budget,
    known: Option<Plan>,
    stop: &dyn Fn(Phase) -> bool,
    improve: &dyn Fn(&Plan, Improve) -> Option<Plan>,
) -> Planned {
    // Every search, beams included, also ends once the caller says everything stops.
    let searching = &|| stop(Phase::Searching);
    let mut best = known;
    let offer = |best: &mut Option<Plan>, plan: Plan| {
        if best.as_ref().is_none_or(|b| plan.score > b.score) {
            *best = Some(plan);
        }
    };
    let proved = |best: Option<Plan>| Planned { bound: best.as_ref().map(|p| p.score), plan: best, proved: true };
    for &width in &budget.beams {
        let limits = Limits { beam: Some(width), max_states: usize::MAX, incumbent: None };
        match search_until(model, limits, None, searching) {
            Outcome::Found(plan) => offer(&mut best, plan),
            Outcome::Impossible => return proved(None),
            _ => {}
        }
    }
    // The first exact search, pruned by the model's own bound only.
    if budget.quick_states > 0 {
        let limits = Limits { beam: None, max_states: budget.quick_states, incumbent: best.as_ref().map(|b| b.score) };
        match search_until(model, limits, None, searching) {
            Outcome::Optimal(plan) => return proved(Some(plan)),
            Outcome::NoneBetter | Outcome::Impossible => return proved(best),
            _ => {}
        }
    }
    let relaxation = Relaxation::new(model).filter(|r| r.work() * 2 <= budget.relax_work);
    let Some(mut relaxation) = relaxation else {
        return Planned { plan: best, bound: None, proved: false };
    };
    if budget.bundle {
        relaxation.use_bundle();
    }
    // A beam search ranked by the relaxation's cost-to-go; with `above`, for better plans only.
    let guided = |best: &mut Option<Plan>, relaxation: &Relaxation, width: usize, above: Option<i64>| {
        if width == 0 {
            return;
        }
        let limits = Limits { beam: Some(width), max_states: usize::MAX, incumbent: above };
        if let Outcome::Found(plan) = search_until(model, limits, Some(relaxation as &dyn CostToGo), searching) {
            offer(best, plan);
        }
    };
    let memory = memory_width(budget, &|k| relaxation.work_with(k));
    let mut remembering = false;
    let mut checkpoint = None;
    let mut round = 0;
    // Work done so far, by the steps with a memory too (each costs `2^k` plain steps).
    let mut worked = 0usize;
    let fits = |worked: usize, work: usize| worked.saturating_add(work) <= budget.relax_work;
    while round < budget.steps && fits(worked, relaxation.work()) {
        worked += relaxation.work();
        let (plan, more) = relaxation.tighten(best.as_ref().map_or(0, |b| b.score));
        if let Some(plan) = plan {
            offer(&mut best, plan);
        }
        if round % 50 == 49 {
            guided(&mut best, &relaxation, budget.guided_beams.first().copied().unwrap_or(0), None);
        }
        round += 1;
        if stop(Phase::Relax) || relaxation.bound().is_some_and(|b| best.as_ref().is_some_and(|p| b <= p.score)) {
            break;
        }
        // Slow: the bound fell by less than 0.1 % over the last 40 steps (in each phase, after
        // the first 40, while the step scale settles). With a memory, a step costs much more:
        // it goes on only while not slow; without one, a slow bound moves on to the memory.
        let mut slow = false;
        if round % 40 == 0 {
            slow = fell_little(&mut checkpoint, &relaxation);
            if slow && remembering {
                break;
            }
        }
        // Settled, slow or out of steps with time left: remember more, and go on.
        let out = round == budget.steps || !fits(worked, relaxation.work());
        if !more || out || (slow && memory.is_some()) {
            match memory {
                Some(k) if !remembering && fits(worked, relaxation.work_with(k)) => {
                    relaxation.remember(k);
                    // Grown by laps from its first step: started once the nearest memory was
                    // slow, the laps had 26 steps on test17 (16,429, 4.5 % above its best plan),
                    // from the first, 66 (16,110: 2.9 %).
                    if budget.lap_work > 0 {
                        relaxation.forbid_laps(8, budget.lap_work);
                    }
                    remembering = true;
                    round = 0;
                    checkpoint = None;
                }
                _ => break,
            }
        }
    }
    let Some(bound) = relaxation.bound() else {
        return proved(None);
    };
    // Proved by the relaxation alone: nothing after it can find more (a window of a plan planned
    // again, see [`replan_windows`], is often proved so, and its guided beams took 0.7 s of 1.2).
    if best.as_ref().is_some_and(|b| bound <= b.score) {
        return proved(best);
    }
    relaxation.settle();
    for &width in &budget.guided_beams {
        if stop(Phase::Guide(width)) {
            break;
        }
        guided(&mut best, &relaxation, width, None);
    }
    // The caller's improvements, unless the best plan is within the first gap to certify
    // already; between them, the first certifying search.
    let first_gap = budget.certify_gaps.first().copied().unwrap_or(0.0);
    let improved = |best: &mut Option<Plan>, bound: i64, what: Improve| {
        if let Some(plan) = best.as_ref().filter(|b| bound > above(b.score, first_gap)).and_then(|b| improve(b, what)) {
            offer(best, plan);
        }
    };
    improved(&mut best, bound, Improve::First);
    // An exact search pruned by the relaxation (read with what each state took), for plans
    // above `target` (all, when `None`), within `states`.
    let exact = |states: usize, target: Option<i64>| {
        let limits = Limits { beam: None, max_states: states, incumbent: target };
        search_until(model, limits, Some(&relaxation.recalled() as &dyn CostToGo), searching)
    };
    let mut bound = bound;
    let target = best
        .as_ref()
        .filter(|b| bound <= above(b.score, budget.first_certify_gap))
        .map(|b| above(b.score, first_gap))
        .filter(|&t| t < bound);
    if let Some(target) = target.filter(|_| budget.first_certify_states > 0 && !stop(Phase::Exact)) {
        match exact(budget.first_certify_states, Some(target)) {
            Outcome::NoneBetter => bound = target,
            Outcome::Optimal(plan) => {
                bound = plan.score;
                offer(&mut best, plan);
            }
            _ => {}
        }
    }
    improved(&mut best, bound, Improve::Then);
    if best.as_ref().is_some_and(|b| bound <= b.score) {
        return proved(best);
    }
    // Wider guided beams while the best plan is not within the first gap to certify: where the
    // relaxation settled early (small maps), a beam sixteen times wider finds plans the others
    // miss (course_map(2): 746 with 8,192 states per tick, 792 with 131,072), and a better plan
    // lets the certifying searches prune more. They look only for plans better than the best.
    let ticks = model.problem().ticks as usize;
    let mut width = budget.guided_beams.last().copied().unwrap_or(0) * 4;
    while let Some(score) = best.as_ref().map(|b| b.score) {
        if width == 0 || width * ticks > budget.widen_states || bound <= above(score, first_gap) || stop(Phase::Widen) {
            break;
        }
        guided(&mut best, &relaxation, width, Some(score));
        width *= 4;
    }
    // Exact searches pruned by the relaxation, in the order of `certify_gaps` (the proof alone,
    // gap 0, when none are given). One that looks only for plans more than `gap` above the best
    // prunes far more than the proof: finishing without one certifies that bound, and finding
    // one finds the optimum (the search is exhaustive above its target). After a search runs
    // out of states, only larger gaps are tried.
    let mut failed: Option<f64> = None;
    if budget.hopeless_gap > 0.0 && best.as_ref().is_some_and(|b| bound > above(b.score, budget.hopeless_gap)) {
        return Planned { plan: best, bound: Some(bound), proved: false };
    }
    let gaps = if budget.certify_gaps.is_empty() { &[0.0][..] } else { &budget.certify_gaps[..] };
    for &gap in gaps {
        // (Without any plan yet, the search looks for all.)
        let target = best.as_ref().map(|b| above(b.score, gap));
        if budget.exact_states == 0 || target.is_some_and(|t| t >= bound) || failed.is_some_and(|f| gap <= f) {
            continue;
        }
        if stop(Phase::Exact) {
            break;
        }
        match (exact(budget.exact_states, target), target) {
            (Outcome::NoneBetter, Some(target)) => bound = target,
            (Outcome::Impossible, None) => return proved(None),
            (Outcome::Optimal(plan), _) => {
                bound = plan.score;
                offer(&mut best, plan);
                break;
            }
            _ => failed = Some(gap),
        }
    }
    if best.as_ref().is_some_and(|b| bound <= b.score) {
        return proved(best);
    }
    // Uncertified with time left (the searches stop early, or a caller gives more time): the
    // relaxation goes on, its memory growing by the laps of its walks, until its bound
    // certifies the first gap, falls by less than 0.1 % in 40 steps, or the time is up.
    if budget.lap_work > 0 && !stop(Phase::Laps) {
        relaxation.forbid_laps(8, budget.lap_work);
        let mut checkpoint = None;
        for round in 1.. {
            let score = best.as_ref().map_or(0, |b| b.score);
            if relaxation.bound().is_some_and(|b| b <= above(score, first_gap)) || stop(Phase::Laps) {
                break;
            }
            let (plan, more) = relaxation.tighten(score);
            if let Some(plan) = plan {
                offer(&mut best, plan);
            }
            if !more {
                break;
            }
            if round % 40 == 0 && fell_little(&mut checkpoint, &relaxation) {
                break;
            }
        }
        bound = bound.min(relaxation.bound().unwrap_or(bound));
        if best.as_ref().is_some_and(|b| bound <= b.score) {
            return proved(best);
        }
    }
    Planned { plan: best, bound: Some(bound), proved: false }
}

/// The memory the relaxation goes on with (see [`Budget::memory`]), given the estimated work of
/// one solve with each (`work_with`): the largest within [`Budget::memory_work`], or
/// [`WIDE_MEMORY`] if it is larger and within twice that; `None`: none fits.
fn memory_width(budget: &Budget, work_with: &dyn Fn(usize) -> usize) -> Option<usize> {
    let fits = |k: usize, times: usize| work_with(k) <= budget.memory_work.saturating_mul(times);
    let widest = (1..=budget.memory).rev().find(|&k| fits(k, 1))?;
    let wide = widest < WIDE_MEMORY && WIDE_MEMORY <= budget.memory && fits(WIDE_MEMORY, 2);
    Some(if wide { WIDE_MEMORY } else { widest })
}

/// Whether the relaxation's bound fell by less than 0.1 % since `checkpoint` (none: not
/// known yet), which moves to the bound now: asked every 40 steps, the sign of a slow bound.
fn fell_little(checkpoint: &mut Option<i64>, relaxation: &Relaxation) -> bool {
    let now = relaxation.bound().unwrap_or(i64::MAX);
    let slow = checkpoint.is_some_and(|c: i64| (c - now) as f64 <= c as f64 * 0.001);
    *checkpoint = Some(now);
    slow
}

/// `plan` with its moves from tick `from + 1` on planned again (the problem left after its
/// first `from` moves, solved by [`best_plan`] from what `plan` does there): the relaxation of
/// that smaller problem, which knows what the first moves took and where they lead, is much
/// tighter than the whole problem's, and its guided beams find better ways to finish (test18:
/// 3,442 -> 3,596 from tick 30). `None` unless the result, replayed, scores more than `plan`.
pub fn replan_from(
    model: &Model,
    budget: &Budget,
    plan: &Plan,
    from: usize,
    stop: &dyn Fn(Phase) -> bool,
) -> Option<Plan> {
    replan_window(model, budget, plan, from..plan.moves.len(), stop)
}

/// `plan` with its moves in `window` planned again by [`best_plan`], as a problem of its own
/// (see [`window_problem`]): `None` unless the whole plan, replayed, then scores more.
pub fn replan_window(
    model: &Model,
    budget: &Budget,
    plan: &Plan,
    window: std::ops::Range<usize>,
    stop: &dyn Fn(Phase) -> bool,
) -> Option<Plan> {
    let (inside, _) = window_problem(model, plan, window.clone())?;
    let inside = Model::new(inside);
    let known = replay(&inside, &plan.moves[window.clone()]);
    // (Only its plan counts: its bound need not grow by laps.)
    let budget = Budget { lap_work: 0, ..budget.clone() };
    let found = best_plan(&inside, &budget, known, stop, &|_, _| None).plan?;
    with_window(model, plan, window, &found)
}

/// `plan` planned again window by window, each of `width` moves (one every `width / 2`), by
/// [`replan_window`], each stopped by a `stop` of its own (`window_stop` makes one as the window
/// starts), and all once `stop` says so; each window starts from the best plan so far. For
/// plans longer than a window of [`improve_windows`] can search exactly, whose relaxation is
/// too loose for the re-plan of their rest to find more (test20, 200 ticks: the re-plan from
/// tick 20 finds nothing in 6 s; windows of 40 ticks find 5,207 -> 5,283 in 5.4 s of work, most of them
/// proved optimal by their own relaxation). `None` unless the plan improved.
pub fn replan_windows<'s>(
    model: &Model,
    budget: &Budget,
    plan: &Plan,
    width: usize,
    window_stop: &dyn Fn() -> Box<dyn Fn(Phase) -> bool + 's>,
    stop: &dyn Fn() -> bool,
) -> Option<Plan> {
    let mut best = plan.clone();
    let mut s = 0;
    while width > 0 && s < best.moves.len() && !stop() {
        let end = (s + width).min(best.moves.len());
        if let Some(better) = replan_window(model, budget, &best, s..end, &*window_stop()) {
            best = better;
        }
        if end == best.moves.len() {
            break;
        }
        s += (width / 2).max(1);
    }
    (best.score > plan.score).then_some(best)
}

/// `plan` improved window by window (a large-neighbourhood search): for each width, windows of
/// its moves `[s, s + width)` (every `width / 2` ticks) are replaced by the best way from the
/// same cell to the same cell in as many ticks, found by an exact search of at most
/// `max_states` states that does not take what the rest of the plan takes; a window that
/// scores more is kept if the whole plan, replayed, scores more. Again over all widths until
/// nothing improves or `stop`. The beams, route searches and re-plan of the rest leave such
/// local losses (test18: 3,596 -> 3,626 in its first 12 ticks, which a re-plan from tick 32
/// never revisits). `None` unless the plan improved.
pub fn improve_windows(
    model: &Model,
    plan: &Plan,
    widths: &[usize],
    max_states: usize,
    stop: &dyn Fn() -> bool,
) -> Option<Plan> {
    let mut best = plan.clone();
    loop {
        let before = best.score;
        for &width in widths.iter().filter(|&&w| w > 0) {
            let mut s = 0;
            while s + 1 < best.moves.len() && !stop() {
                let end = (s + width).min(best.moves.len());
                if let Some(better) = better_window(model, &best, s..end, max_states, stop) {
                    best = better;
                }
                s += (width / 2).max(1);
            }
        }
        if best.score == before || stop() {
            break;
        }
    }
    (best.score > plan.score).then_some(best)
}

/// `plan` with its moves in `window` replaced by the best way between the same two cells in as
/// many ticks, if the whole plan then scores more (see [`improve_windows`]).
fn better_window(
    model: &Model,
    plan: &Plan,
    window: std::ops::Range<usize>,
    max_states: usize,
    stop: &dyn Fn() -> bool,
) -> Option<Plan> {
    // (What the window's own moves score is the incumbent of its search.)
    let (inside, points) = window_problem(model, plan, window.clone())?;
    let limits = Limits { beam: None, max_states, incumbent: Some(points) };
    let Outcome::Optimal(found) = search_until(&Model::new(inside), limits, None, stop) else {
        return None;
    };
    with_window(model, plan, window, &found)
}

/// The problem of `plan`'s moves in `window`, and what they score: from where the plan is at
/// the window's start, with what it left there; unless the window ends the plan, it ends where
/// the plan's does, at the same tick (waits fill an earlier arrival), without reaching the final
/// on its way (which would end the game) or taking what the rest of the plan takes.
fn window_problem(model: &Model, plan: &Plan, window: std::ops::Range<usize>) -> Option<(Problem, i64)> {
    let problem = model.problem();
    let moves = &plan.moves;
    let mut inside = problem.after(moves.get(..window.start)?)?;
    let mut walk = inside.clone();
    let mut points = 0;
    for (t, &action) in (1..).zip(moves.get(window.clone())?) {
        points += walk.play(t, action)?.0;
    }
    if window.end < moves.len() {
        inside.final_pos = walk.start;
        inside.ticks = window.len() as u32;
        if problem.final_pos != walk.start {
            inside.grid.set(problem.final_pos, Cell::Wall);
        }
        // (The walk goes on through the rest to see what it takes.)
        for (t, &action) in (inside.ticks + 1..).zip(&moves[window.end..]) {
            if let Action::Move(to) = action {
                if matches!(walk.grid.get(to), Some(Cell::Resource(_))) {
                    inside.grid.set(to, Cell::Floor);
                }
            }
            walk.play(t, action)?;
        }
    }
    Some((inside, points))
}

/// `plan` with `found` in place of its moves in `window` (waits filling an earlier arrival
/// where the window does not end the plan), if the whole plan, replayed, then scores more.
fn with_window(model: &Model, plan: &Plan, window: std::ops::Range<usize>, found: &Plan) -> Option<Plan> {
    let moves = &plan.moves;
    // (A window that ends the plan ends at the final: nothing to fill.)
    let waits = if window.end < moves.len() { window.len().checked_sub(found.moves.len())? } else { 0 };
    let moves: Vec<Action> = moves[..window.start]
        .iter()
        .chain(&found.moves)
        .chain(std::iter::repeat_n(&Action::Wait, waits))
        .chain(&moves[window.end..])
        .copied()
        .collect();
    replay(model, &moves).filter(|p| p.score > plan.score)
}

/// The score `gap` (a fraction) above `score`, rounded down: what a certificate of that gap
/// bounds.
fn above(score: i64, gap: f64) -> i64 {
    (score as f64 * (1.0 + gap)).floor() as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan_search::Problem;
    use bot_sdk::{MapSpec, Pos};

    /// A budget that only relaxes: `relax_work` plain steps' work, a memory of `memory`.
    fn relaxing(relax_work: usize, memory: usize) -> Budget {
        Budget {
            beams: Vec::new(),
            quick_states: 0,
            steps: 3000,
            relax_work,
            bundle: false,
            memory,
            memory_work: usize::MAX,
            lap_work: 0,
            guided_beams: Vec::new(),
            exact_states: 0,
            first_certify_states: 0,
            first_certify_gap: 0.0,
            widen_states: 0,
            certify_gaps: Vec::new(),
            hopeless_gap: 0.0,
        }
    }

    /// The memory: the widest within `memory_work` by its estimate (a plain step's work times
    /// 2^k), or 4 if that is within twice as much; never wider than the budget's, nor 4 where a
    /// plain step alone takes more than the limit allows 4 twice. The plain steps' work of the
    /// solver's maps (`tests-bench --relaxation-steps 1`) with its limit, 10^8.
    #[test]
    fn the_memory_is_the_widest_that_fits_or_4_within_twice_the_work() {
        let budget = Budget { memory: 6, memory_work: 100_000_000, ..relaxing(usize::MAX, 6) };
        let width = |plain: usize, budget: &Budget| memory_width(budget, &|k| plain << k);
        assert_eq!(width(10_880_000, &budget), Some(4), "test19: 3 by the limit once");
        assert_eq!(width(3_814_272, &budget), Some(4), "course_map(11): 4 by the limit once, not 5");
        assert_eq!(width(4_000_000, &budget), Some(4), "test20");
        assert_eq!(width(2_304_000, &budget), Some(5), "test18");
        assert_eq!(width(48_000_000, &budget), Some(1), "test2: 4 would take 7.7 times the limit");
        assert_eq!(width(60_000_000, &budget), None, "none fits");
        assert_eq!(width(10_880_000, &Budget { memory: 3, ..budget.clone() }), Some(3), "never past the budget's");
        assert_eq!(width(1_000, &budget), Some(6), "the budget's widest");
    }

    /// How many subgradient steps `best_plan` takes within `budget` (each asks `stop` once).
    fn steps_taken(model: &Model, budget: &Budget) -> usize {
        let steps = std::cell::Cell::new(0);
        let stop = |phase: Phase| {
            steps.set(steps.get() + usize::from(phase == Phase::Relax));
            false
        };
        best_plan(model, budget, None, &stop, &|_, _| None);
        steps.get()
    }

    #[test]
    fn the_problem_after_some_moves_is_what_they_leave() {
        // The opponent (from (1, 0)) clears the 3 at (1, 1) at tick 2 and moves on at tick 3.
        let text = "ARENA 2 5 10\n0 0\n1 0\n0 4\nMAP\n0 5 D 7 0\n0 3 0 9 0\nEND_MAP\nSTREAM\n\
                    TICK 1 WAIT\nTICK 2 MOVE 1 1\nTICK 3 MOVE 1 2\n";
        let problem = Problem::of_test(&MapSpec::parse(text).expect("a valid map"));
        let go = |x, y| Action::Move(Pos::new(x, y));
        let rest = problem.after(&[go(0, 1), go(0, 2)]).expect("two valid moves");
        assert_eq!((rest.start, rest.multiplier, rest.jump, rest.ticks), (Pos::new(0, 2), 2, false, 8));
        assert_eq!(rest.cleared, vec![(Pos::new(1, 2), 1)]);
        for (p, cell) in
            [((0, 1), Cell::Floor), ((0, 2), Cell::Floor), ((1, 1), Cell::Floor), ((1, 3), Cell::Resource(9))]
        {
            assert_eq!(rest.grid.get(Pos::new(p.0, p.1)), Some(cell), "{p:?}");
        }
        // What the rest scores from there is what the whole plan scores after its first moves.
        let whole = [go(0, 1), go(0, 2), go(0, 3), go(0, 4)];
        let score = |problem: Problem, moves: &[Action]| replay(&Model::new(problem), moves).map(|p| p.score);
        assert_eq!(score(problem.clone(), &whole), Some(5 + 7 * 2));
        assert_eq!(score(rest, &whole[2..]), Some(7 * 2));
        // No problem is left after the final, a move the rules refuse, or every tick.
        assert!(problem.after(&whole).is_none());
        assert!(problem.after(&[go(1, 1)]).is_none(), "a diagonal move");
        assert!(problem.after(&[Action::Wait; 10]).is_none());
    }

    #[test]
    fn replanning_the_rest_of_a_plan_keeps_its_first_moves_and_finishes_better() {
        let text = "ARENA 2 5 10\n0 0\n1 0\n0 4\nMAP\n0 5 D 7 0\n0 3 0 9 0\nEND_MAP\nSTREAM\n";
        let model = Model::new(Problem::of_test(&MapSpec::parse(text).expect("a valid map")));
        let go = |x, y| Action::Move(Pos::new(x, y));
        // Straight to the final: the 5, the D, the 7 at x2.
        let straight = replay(&model, &[go(0, 1), go(0, 2), go(0, 3), go(0, 4)]).expect("a plan");
        assert_eq!(straight.score, 19);
        let budget = Budget { beams: vec![16], quick_states: 100_000, ..relaxing(0, 0) };
        let replanned = replan_from(&model, &budget, &straight, 2, &|_| false).expect("a better plan");
        // From the D at x2: down, the 3, back, the 9, up, the 7, the final (8 ticks of 10).
        assert_eq!(replanned.moves[..2], straight.moves[..2]);
        assert_eq!(replanned.score, 5 + (3 + 9 + 7) * 2);
        assert_eq!(replay(&model, &replanned.moves), Some(replanned.clone()));
        // Nothing better from the start of the plan's best finish: `None`.
        assert_eq!(replan_from(&model, &budget, &replanned, 2, &|_| false), None);
    }

    /// A map where a row of 5s runs beside two 1s, a plan that takes the 1s, and the optimum's
    /// moves (the four 5s).
    fn passed_by() -> (Model, Plan, Vec<Action>) {
        let text = "ARENA 3 4 6\n0 0\n2 0\n0 3\nMAP\n0 1 1 0\n5 5 5 5\n0 0 0 0\nEND_MAP\nSTREAM\n";
        let model = Model::new(Problem::of_test(&MapSpec::parse(text).expect("a valid map")));
        let go = |x, y| Action::Move(Pos::new(x, y));
        let poor = replay(&model, &[go(0, 1), go(1, 1), go(1, 2), go(0, 2), go(0, 3)]).expect("a plan");
        (model, poor, vec![go(1, 0), go(1, 1), go(1, 2), go(1, 3), go(0, 3)])
    }

    /// A plan that takes the 1s where the 5s run beside them is improved window by window: the
    /// first window (4 ticks, ending where the plan's does) takes three 5s, the next (the rest,
    /// to the final) a fourth: the optimum, which replays to its score. Control: without
    /// windows nothing improves.
    #[test]
    fn searching_a_plans_windows_again_takes_what_it_passed_by() {
        let (model, poor, optimum) = passed_by();
        assert_eq!(poor.score, 12);
        let improved = improve_windows(&model, &poor, &[4], 10_000, &|| false).expect("a better plan");
        assert_eq!(improved.moves, optimum);
        assert_eq!(replay(&model, &improved.moves), Some(improved.clone()));
        assert_eq!(improved.score, 20);
        assert_eq!(improve_windows(&model, &improved, &[4], 10_000, &|| false), None, "nothing better");
        assert_eq!(improve_windows(&model, &poor, &[], 10_000, &|| false), None, "control: no windows");
    }

    /// The same plan planned again window by window, each window a problem of its own solved by
    /// `best_plan` within a stop of its own: the same optimum, each window asking for its stop
    /// once. Control: windows of no width change nothing and ask for none.
    #[test]
    fn planning_a_plans_windows_again_takes_what_it_passed_by() {
        let (model, poor, optimum) = passed_by();
        let budget = Budget { beams: vec![16], quick_states: 100_000, ..relaxing(0, 0) };
        let asked = std::cell::Cell::new(0);
        let window_stop = || -> Box<dyn Fn(Phase) -> bool> {
            asked.set(asked.get() + 1);
            Box::new(|_| false)
        };
        let improved = replan_windows(&model, &budget, &poor, 4, &window_stop, &|| false).expect("a better plan");
        assert_eq!(improved.moves, optimum);
        assert_eq!(replay(&model, &improved.moves), Some(improved.clone()));
        assert_eq!(improved.score, 20);
        // Windows [0, 4) and [2, 5), the second ending the plan.
        assert_eq!(asked.get(), 2);
        assert_eq!(replan_windows(&model, &budget, &improved, 4, &window_stop, &|| false), None, "nothing better");
        asked.set(0);
        assert_eq!(replan_windows(&model, &budget, &poor, 0, &window_stop, &|| false), None, "control: no windows");
        assert_eq!(asked.get(), 0);
    }

    /// Once the relaxation's bound is the best plan's score, the plan is proved and nothing runs
    /// after the relaxation: on random small maps, with a budget that proves nothing otherwise
    /// (no exact search), the guided beam is asked for exactly where the plan is not proved, and
    /// both happen (the control: where the relaxation does not prove the plan, it is asked for).
    #[test]
    fn a_plan_the_relaxation_proves_ends_the_search() {
        let mut seed = 11;
        let (mut proved, mut open) = (0, 0);
        for _ in 0..60 {
            let model = Model::new(crate::relaxation::tests::random_problem(&mut seed));
            let budget = Budget { beams: vec![4], guided_beams: vec![16], steps: 30, ..relaxing(usize::MAX, 0) };
            let asked = std::cell::Cell::new(0);
            let stop = |phase: Phase| {
                asked.set(asked.get() + usize::from(matches!(phase, Phase::Guide(_))));
                false
            };
            let planned = best_plan(&model, &budget, None, &stop, &|_, _| None);
            // (No plan, or no relaxation: more than six power-ups.)
            if planned.plan.is_none() || planned.bound.is_none() {
                continue;
            }
            assert_eq!(planned.proved, asked.get() == 0, "proved {}, {} guided beams", planned.proved, asked.get());
            (proved, open) = if planned.proved { (proved + 1, open) } else { (proved, open + 1) };
        }
        assert!(proved > 0 && open > 0, "{proved} proved, {open} not");
    }

    /// On random small maps (power-ups, Jump, an opponent clearing cells): a greedy beam's plan,
    /// searched again in windows, replays to the score it claims, beats the plan it came from and
    /// never the optimum (an exact search's); many improve, some to the optimum.
    #[test]
    fn a_plans_windows_improve_it_and_never_past_the_optimum() {
        let mut seed = 7;
        let (mut improved, mut optimal, mut tried) = (0, 0, 0);
        for _ in 0..300 {
            let model = Model::new(crate::relaxation::tests::random_problem(&mut seed));
            let beam = Limits { beam: Some(1), max_states: usize::MAX, incumbent: None };
            let Outcome::Found(poor) = search_until(&model, beam, None, &|| false) else { continue };
            let exact = Limits { beam: None, max_states: usize::MAX, incumbent: None };
            let Outcome::Optimal(best) = search_until(&model, exact, None, &|| false) else {
                panic!("a plan exists, so the exact search finds the optimum");
            };
            tried += 1;
            if let Some(plan) = improve_windows(&model, &poor, &[3, 5], 100_000, &|| false) {
                assert_eq!(replay(&model, &plan.moves), Some(plan.clone()));
                assert!(
                    poor.score < plan.score && plan.score <= best.score,
                    "{} -> {} of {}",
                    poor.score,
                    plan.score,
                    best.score
                );
                improved += 1;
                optimal += usize::from(plan.score == best.score);
            }
        }
        assert!(tried >= 100, "{tried} maps with a plan");
        assert!(improved * 2 >= tried && optimal > 0, "{improved} of {tried} improved, {optimal} to the optimum");
    }

    #[test]
    fn the_relaxations_work_budget_counts_the_steps_with_a_memory() {
        let text = "ARENA 5 6 16\n0 0\n4 0\n4 5\nMAP\n\
                    0 9 3 0 7 5\n\
                    4 W 8 D 0 6\n\
                    7 2 0 9 W 3\n\
                    0 5 W 4 8 0\n\
                    0 3 6 0 2 0\n\
                    END_MAP\nSTREAM\n";
        let model = Model::new(Problem::of_test(&MapSpec::parse(text).expect("a valid map")));
        let plain = Relaxation::new(&model).expect("a relaxation").work();
        // Without a memory the subgradient runs out of work before it settles (at 234 steps).
        let alone = steps_taken(&model, &relaxing(160 * plain, 0));
        assert_eq!(alone, 160);
        // With a memory of 2 (4 plain steps' work each) the plain steps slow down at 120 and the
        // memory takes the rest: fewer steps, and never more work than the budget (the memory
        // phase once counted its steps afresh, as if each cost a plain one).
        let remembering = steps_taken(&model, &relaxing(160 * plain, 2));
        assert!(remembering < alone, "{remembering} steps with a memory, {alone} without");
        assert!(remembering <= 160, "{remembering} steps within 160 plain steps' work");
    }
}
