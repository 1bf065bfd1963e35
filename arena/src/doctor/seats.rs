//! The doctor for any game with a starter ([`BotKit`]) whose states script an opponent
//! ([`State::scripted_answer`]): the bot plays each seat of a match (and a middle seat of three
//! where the game allows three) against the game's own scripted players, through the referee,
//! and each forfeit is explained in the game's words, with the game's fix where it has one.
//! The bot under test is the only process, so every problem is its own.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::{
    first_answer_probe, last_words, program_problem, python_compile_fix, semaphore_fix, signal_fix, CheckError,
    Checked, Feed, Finding, FirstPrompt,
};
use crate::engine::{
    BotKit, Game, MatchOptions, MatchSteps, Others, Outcome, PlayerId, Reply, Seated, SetupError, State, Turn,
};
use crate::explain::{forfeit_facts, stderr_ends, FLUSH};
use crate::referee::Limits;
use crate::sandbox::Sandbox;

/// How many times the idle probe sends the bot its first prompt, all at once: its answers
/// (5 bytes or more each) overflow any output buffer (8 KiB for Python and C's stdio).
const REPEATS: usize = 4000;

/// The bot's first prompt of `inner` (a [`Seated`] match), `times` times over, sent at once with
/// its intro and the input then left open or closed: where a bot can only answer the same,
/// thousands of times, as Resource Rush's idle map has it wait (see [`super::why_silent`]).
struct Repeated {
    inner: Box<dyn State>,
    times: usize,
    asked: usize,
}

impl State for Repeated {
    fn num_players(&self) -> usize {
        1
    }

    fn turn(&self) -> Turn {
        if self.asked < self.times {
            Turn::Sequential(0)
        } else {
            Turn::Terminal
        }
    }

    fn intro(&self, _player: PlayerId) -> String {
        let mut text = self.inner.intro(0);
        text.push_str(&self.inner.prompt(0).repeat(self.times));
        text
    }

    fn prompt(&self, _player: PlayerId) -> String {
        String::new()
    }

    fn answers_may_run_ahead(&self) -> bool {
        true
    }

    fn input_is_intro(&self) -> bool {
        true
    }

    fn apply(&mut self, replies: &[(PlayerId, Reply)]) {
        let answered = matches!(replies.first(), Some((_, Reply::Line(_))));
        self.asked = if answered { self.asked + 1 } else { self.times };
    }

    fn is_active(&self, _player: PlayerId) -> bool {
        self.asked < self.times
    }

    fn outcome(&self) -> Outcome {
        let me = crate::engine::PlayerOutcome { score: 0, finished: false, forfeit: None, detail: None };
        Outcome { players: vec![me], winner: None }
    }

    fn setup(&self) -> Value {
        self.inner.setup()
    }

    fn frame(&self) -> Value {
        serde_json::json!({ "asked": self.asked })
    }

    fn render(&self) -> String {
        self.inner.render()
    }
}

/// One seat of a match of a game, as the doctor plays it ([`super::Stage`]): the bot's seat
/// against the game's scripted players, or (`idle`) its first prompt there, over and over.
pub(super) struct Seat<'a> {
    game: &'a dyn Game,
    kit: &'a BotKit,
    players: usize,
    seat: PlayerId,
    idle: bool,
    /// The whole match's step numbers of the bot's steps in the match last played here.
    steps: MatchSteps,
}

impl super::Stage for Seat<'_> {
    fn seat(&self) -> PlayerId {
        self.seat
    }

    fn crlf(&self) -> bool {
        false
    }

    fn env(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    fn state(&self, _whole_input: bool) -> Result<Box<dyn State>, SetupError> {
        let inner = new_match(self.game, self.kit, self.players)?;
        let seated = Box::new(Seated::counting(inner, self.seat, Others::Scripted, self.steps.clone()));
        Ok(if self.idle { Box::new(Repeated { inner: seated, times: REPEATS, asked: 0 }) } else { seated })
    }
}

/// A match the bot plays: its name, the number of players and the bot's seat.
#[derive(Debug, Clone)]
struct Situation {
    name: String,
    players: usize,
    seat: PlayerId,
}

/// Every seat of the smallest match, then the middle seat of three players where the game
/// allows three (a bot that assumes two players, or that it is first or last, fails there).
fn situations(game: &dyn Game) -> Vec<Situation> {
    let info = game.info();
    let n = (*info.players.start()).max(1);
    let mut out: Vec<Situation> =
        (0..n).map(|seat| Situation { name: format!("seat {}", seat + 1), players: n, seat }).collect();
    if n < 3 && info.players.contains(&3) {
        out.push(Situation { name: "3 players".to_string(), players: 3, seat: 1 });
    }
    out
}

/// A new match of `game` with `players`, on the kit's map when the game is played on one.
fn new_match(game: &dyn Game, kit: &BotKit, players: usize) -> Result<Box<dyn State>, SetupError> {
    let options = MatchOptions {
        map: kit.map.map(|m| PathBuf::from(m.path)),
        text: kit.map.map(|m| Arc::from(m.text)),
        players: Some(players),
        params: Default::default(),
    };
    game.new_match(&options)
}

/// Whether `game` can be checked here: it has a starter, and its states script an opponent.
pub(super) fn kit_of(game: &dyn Game) -> Result<&BotKit, CheckError> {
    let info = game.info();
    if !info.bots {
        return Err(CheckError::NoBots { title: info.title, name: info.name });
    }
    let kit = info.kit.as_ref().ok_or(CheckError::NoScript { title: info.title, name: info.name })?;
    let state = new_match(game, kit, (*info.players.start()).max(1)).map_err(crate::referee::RefereeError::from)?;
    let scripted = match state.turn() {
        Turn::Sequential(p) => state.scripted_answer(p).is_some(),
        Turn::Simultaneous(ps) => ps.iter().all(|&p| state.scripted_answer(p).is_some()),
        _ => true,
    };
    if !scripted {
        return Err(CheckError::NoScript { title: info.title, name: info.name });
    }
    Ok(kit)
}

/// The first seat of `game`'s smallest match, where [`check`] starts: None when the game
/// cannot be checked here.
pub(super) fn first(game: &dyn Game) -> Option<Seat<'_>> {
    let kit = kit_of(game).ok()?;
    let s = situations(game).into_iter().next()?;
    Some(Seat { game, kit, players: s.players, seat: s.seat, idle: false, steps: MatchSteps::default() })
}

/// Plays the bot `command` in every situation of `game` under `limits` and explains what went wrong.
pub(super) async fn check(
    game: &dyn Game,
    command: &str,
    limits: &Limits,
    sandbox: &Sandbox,
    cancel: &CancellationToken,
) -> Result<Vec<Checked>, CheckError> {
    let kit = kit_of(game)?;
    let info = game.info();
    let program = program_problem(command, None, &sandbox.sight());
    let mut out: Vec<Checked> = Vec::new();
    // The crashes said so far, each where it first happened ([`super::Crash::same`]).
    let mut crashes: Vec<super::Crash> = Vec::new();
    for situation in situations(game) {
        let (players, seat) = (situation.players, situation.seat);
        let seat = Seat { game, kit, players, seat, idle: false, steps: MatchSteps::default() };
        let played = super::play(game, command, &seat, Feed::Interactive, limits, sandbox, cancel).await?;
        let facts = forfeit_facts(&played.replay);
        let replay = &played.replay;
        let me = &replay.result.players[0];
        // Steps as the whole match counts them (every seat's moves), as a duel's replay and
        // `arena replay --tick N` do: the bot's own replay has its own steps only.
        let match_steps = seat.steps.clone();
        let at_match = |own: usize| match_steps.of(own).unwrap_or(own);
        let steps = if me.forfeit.is_some() { at_match(replay.steps.len()) } else { match_steps.total() };
        let others = situation.players - 1;
        let against = if others == 1 { "a scripted player".to_string() } else { format!("{others} scripted players") };
        let summary = match &me.forfeit {
            Some(reason) => format!("forfeit ({reason}) at {} {steps}, against {against}", info.wording.step),
            // (In the game's own words: a score column's header, `fields`, `outlasted`.)
            None => format!(
                "played to the end against {against}: {} {}{}, {steps} {}s",
                info.columns.score,
                me.score,
                if me.finished { format!(", {}", info.columns.finished) } else { String::new() },
                info.wording.step
            ),
        };
        let stderr = &played.stderr_text(0);
        // How to run it by hand on what it was sent (from a fresh match: this one's step numbers
        // stay as played).
        let hand = super::by_hand(&Seat { steps: MatchSteps::default(), ..seat }, command, &played, info.wording.input);
        let good = replay.steps.iter().filter_map(|s| s.replies.first()).filter(|r| r.answer.is_some()).count();
        let mut findings: Vec<Finding> = facts
            .into_iter()
            .filter(|f| f.player == 0)
            .map(|fact| {
                // Said at the whole match's step; the bot's own replay (its frames) is read at its own.
                let told = crate::explain::ForfeitFact { tick: fact.tick.map(at_match), ..fact.clone() };
                // A timeout its flood of stderr most likely made: no flush or loop is to blame.
                if let Some(flood) = fact.flood_in(&played) {
                    let problem = told.flood_sentence(&info.wording, "your bot", &flood);
                    return Finding { problem, fix: crate::explain::STDERR_FIX.to_string(), serious: true };
                }
                // Its stderr is shown here, not left in a match log.
                let mut problem = told.sentence_noting(&info.wording, "your bot", me.detail.as_deref(), None);
                if fact.reason == "crash" {
                    problem.push_str(&last_words(stderr));
                }
                // The line itself, where the referee kept it (a line of text).
                if let Some(line) = super::unasked(&played).filter(|_| fact.reason == "extra_output") {
                    problem.push_str(&format!(" The line was {}.", super::quoted(&line)));
                }
                let fix = fact.fix_seated(replay, game, situation.seat).unwrap_or_else(|| match fact.reason.as_str() {
                    "crash" => program
                        .clone()
                        .or_else(|| python_compile_fix(stderr))
                        .or_else(|| semaphore_fix(stderr))
                        .or_else(|| fact.ended.and_then(|e| signal_fix(e, &hand, kit.bounds)))
                        // An error in its own code after good answers.
                        .or_else(|| {
                            super::own_code_fix(
                                game,
                                &hand,
                                stderr,
                                good,
                                told.tick.unwrap_or(steps),
                                super::SeeAgain::InADuel,
                            )
                        })
                        .or_else(|| {
                            // A traceback or a panic: the line it names is where to look.
                            let ends = stderr_ends(stderr).filter(|e| e.contains(" (at "))?;
                            Some(format!(
                                "your program stopped on an error of its own: `{}`; fix that line for this \
                                 prompt (to see it again, {})",
                                crate::safe_text::terminal(&ends),
                                hand.run()
                            ))
                        })
                        .unwrap_or_else(|| {
                            format!(
                                "keep reading one line at a time until stdin ends, answering each {}; to see where \
                                 it stops, {}",
                                info.wording.prompt,
                                hand.run()
                            )
                        }),
                    "extra_output" => super::one_line_fix(info.wording.prompt),
                    // A line that was no text at all (a stray byte, binary output): the game's
                    // own fix quotes a line, and there is none.
                    "malformed" => format!(
                        "answer each {} with one short line of plain ASCII text, a command as the rules write it",
                        info.wording.prompt
                    ),
                    "invalid_move" => "check each answer against the rules before you print it (the kit's \
                                       view says which cells or fields are yours)"
                        .to_string(),
                    "timeout" => FLUSH.to_string(),
                    _ => String::new(),
                });
                Finding { problem, fix, serious: true }
            })
            .collect();
        let answered = super::answered(&played);
        let mut explained = false;
        if !answered && me.forfeit.as_deref() == Some("timeout") {
            // Silent from the start: slow, looping, unflushed or waiting for the end of its
            // input, told apart as for a game's own situations.
            let idle = Seat { idle: true, steps: MatchSteps::default(), ..seat };
            let words = FirstPrompt::of_wording(&info.wording);
            let finding;
            let overloaded = crate::referee::overload_seen();
            (finding, explained) =
                first_answer_probe(game, &words, &seat, &idle, command, &played, limits, sandbox, cancel, overloaded)
                    .await?;
            findings = vec![finding];
        }
        let mut checked = Checked { findings, explained, ..Checked::played(situation.name.clone(), summary, &played) };
        let crashed = me.forfeit.as_deref() == Some("crash");
        checked.never_ran |= crashed && program.is_some();
        // A program that never ran fails the same way everywhere: said once, where it first did.
        let fixes = |c: &Checked| c.findings.iter().map(|f| f.fix.clone()).collect::<Vec<_>>();
        checked.same_as = checked
            .never_ran
            .then(|| out.iter().find(|c| c.never_ran && fixes(c) == fixes(&checked)))
            .flatten()
            .map(|c| c.name.clone());
        // The same crash as an earlier situation's: said and counted there, though at another step.
        if crashed && checked.same_as.is_none() {
            // (Its header read from a fresh match: this one's step numbers stay as played.)
            let fresh = Seat { steps: MatchSteps::default(), ..seat };
            let crash = super::Crash::of(&fresh, &situation.name, &played);
            checked.same_as = crash.repeats(&crashes).map(str::to_string);
            if checked.same_as.is_none() {
                crashes.push(crash);
            }
        }
        super::flooded(&mut checked, &played, &out);
        if checked.same_as.is_none() {
            checked.same_as = super::repeat_of(&checked, &out);
        }
        out.push(checked);
        if !answered && me.forfeit.is_some() {
            // No answer at all: every other match would only say the same.
            for skipped in situations(game).into_iter().skip(out.len()) {
                out.push(Checked::skipped(skipped.name));
            }
            break;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{atoms, registry, tactics};

    /// Plays a whole match of `game` with every seat scripted but the bot's, the bot answering
    /// the scripted answer too: it ends without a forfeit (the script is legal to the end).
    fn scripted_to_the_end(game: &dyn Game, players: usize) {
        let kit = game.info().kit.as_ref().unwrap();
        for seat in 0..players {
            let mut s = Seated::new(new_match(game, kit, players).unwrap(), seat, Others::Scripted);
            let mut steps = 0;
            while s.turn() != Turn::Terminal {
                let line = s.scripted_answer(0).unwrap();
                s.apply(&[(0, Reply::Line(line))]);
                steps += 1;
                assert!(steps < 100_000, "{}: the match ends", game.name());
            }
            let all = s.inner.outcome();
            assert!(all.players.iter().all(|p| p.forfeit.is_none()), "{}: {:?}", game.name(), all.players);
        }
    }

    #[test]
    fn the_scripted_players_of_tactics_and_atoms_play_legal_games_to_the_end() {
        scripted_to_the_end(&tactics::hosted::TacticsGame, 2);
        scripted_to_the_end(&atoms::hosted::AtomsGame, 2);
        scripted_to_the_end(&atoms::hosted::AtomsGame, 3);
    }

    /// Chance moves pass through the doctor's wrappers (a `Fed` around a `Seated`): an LCR match
    /// played through them rolls as the bare game and ends. The control: a state that keeps the
    /// trait's chance defaults (`Repeated`) offers no outcome and ignores one, so the assertions
    /// fail for a wrapper that drops them (as `Fed` did: the match then never ends).
    #[test]
    fn chance_moves_pass_through_the_wrappers() {
        use crate::engine::Chance;
        use crate::games::lcr::LcrState;
        let mut bare = LcrState::new(3);
        let seated = Box::new(Seated::new(Box::new(bare.clone()), 0, Others::Scripted));
        let mut fed =
            super::super::Fed { inner: seated, crlf: false, close_input: false, first_only: false, stepped: false };
        let (mut dice, mut rolls) = (Chance::new(7), 0);
        while fed.turn() == Turn::Chance {
            let outcomes = fed.chance_outcomes();
            assert!(!outcomes.is_empty() && outcomes == bare.chance_outcomes());
            let outcome = dice.draw(&outcomes);
            fed.apply_chance(outcome);
            bare.apply_chance(outcome);
            assert_eq!(fed.frame(), bare.frame(), "roll {rolls}");
            rolls += 1;
            assert!(rolls < 100_000, "the match ends");
        }
        assert_eq!((fed.turn(), bare.turn()), (Turn::Terminal, Turn::Terminal));
        assert!(rolls > 1 && bare.outcome().winner.is_some());
        let mut dropped = Repeated { inner: Box::new(LcrState::new(3)), times: 1, asked: 0 };
        assert!(dropped.chance_outcomes().is_empty());
        dropped.apply_chance(1);
        assert_eq!(dropped.inner.frame(), LcrState::new(3).frame());
        let mut rolled = LcrState::new(3);
        rolled.apply_chance(1);
        assert_ne!(rolled.frame(), LcrState::new(3).frame(), "a roll shows in the frame");
    }

    /// Tactics is checked from both seats, Atoms from both and as the middle player of three;
    /// LCR has no bots and a game without a script cannot be checked (the control: Resource
    /// Rush's own doctor is not this one, and its test game scripts nothing).
    #[test]
    fn situations_and_refusals_follow_the_game_info() {
        let names = |g: &dyn Game| situations(g).into_iter().map(|s| s.name).collect::<Vec<_>>();
        assert_eq!(names(&tactics::hosted::TacticsGame), ["seat 1", "seat 2"]);
        assert_eq!(names(&atoms::hosted::AtomsGame), ["seat 1", "seat 2", "3 players"]);
        let games = registry();
        let lcr = kit_of(games.get("lcr").unwrap()).unwrap_err().to_string();
        assert!(lcr.starts_with("Wild Left-Center-Right has no bots"), "{lcr}");
        let test = kit_of(games.get("resource-rush-test").unwrap()).unwrap_err().to_string();
        assert!(test.contains("cannot check"), "{test}");
        assert!(kit_of(games.get("tactics").unwrap()).is_ok() && kit_of(games.get("atoms").unwrap()).is_ok());
    }
}
