//! One match with one bot, as `arena check-bot` plays it ([`Seated`]): the bot plays one seat,
//! and the other seats answer from a source ([`Others`]) as soon as their turn comes.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};

use super::{Failure, Outcome, PlayerId, Remark, Reply, State, Turn, Wrapper};

/// Most answers of the other seats in a row before the bot's turn (a game whose scripted
/// players never end their turns would otherwise hang the doctor).
const MOST_SCRIPTED: usize = 1_000_000;

/// Where the answers of a [`Seated`] match's other seats come from.
#[derive(Debug, Clone)]
pub enum Others {
    /// The game's own scripted answers ([`State::scripted_answer`]; an empty line where none).
    Scripted,
    /// These lines, one per answer in turn order; the game's own once they run out.
    Recorded(VecDeque<String>),
}

/// The whole match's step numbers of a [`Seated`] match's steps, shared with whoever made it
/// (the match itself is handed to the referee): a replay of the whole match, a duel's, counts
/// every seat's move and chance event as a step; the bot's own replay, only its own steps.
#[derive(Debug, Clone, Default)]
pub struct MatchSteps(Arc<Mutex<Counted>>);

/// What [`MatchSteps`] shares.
#[derive(Debug, Default)]
struct Counted {
    /// The whole match's number of each of the bot's steps, in order.
    at: Vec<usize>,
    /// The whole match's steps so far.
    total: usize,
}

impl MatchSteps {
    fn with<T>(&self, f: impl FnOnce(&mut Counted) -> T) -> T {
        f(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// The whole match's number of the bot's `own`th step (1-based); None past those played.
    pub fn of(&self, own: usize) -> Option<usize> {
        self.with(|c| own.checked_sub(1).and_then(|i| c.at.get(i).copied()))
    }

    /// How many steps the whole match played so far, every seat's.
    pub fn total(&self) -> usize {
        self.with(|c| c.total)
    }
}

/// A match of one bot (player 0 here): it plays `seat` of `inner`, the other seats answer
/// from [`Others`], played as soon as their turn comes.
pub struct Seated {
    /// The whole match.
    pub inner: Box<dyn State>,
    seat: PlayerId,
    others: Others,
    steps: MatchSteps,
}

impl Seated {
    /// The bot plays `seat` of `inner`; the other seats' turns before its first are played.
    pub fn new(inner: Box<dyn State>, seat: PlayerId, others: Others) -> Self {
        Seated::counting(inner, seat, others, MatchSteps::default())
    }

    /// The same, counting the whole match's steps into `steps` (started over).
    pub fn counting(inner: Box<dyn State>, seat: PlayerId, others: Others, steps: MatchSteps) -> Self {
        steps.with(|c| *c = Counted::default());
        let mut seated = Seated { inner, seat, others, steps };
        seated.advance();
        seated
    }

    /// The whole match's step numbers of this match's steps (a handle: it follows the match).
    pub fn steps(&self) -> MatchSteps {
        self.steps.clone()
    }

    /// Counts one step of the whole match; `own`: one of the bot's too.
    fn count(&self, own: bool) {
        self.steps.with(|c| {
            c.total += 1;
            if own {
                c.at.push(c.total);
            }
        });
    }

    /// The other seats' answers for `players`, whose turn it is.
    fn answers(&mut self, players: &[PlayerId]) -> Vec<(PlayerId, Reply)> {
        let mut out = Vec::new();
        for &p in players.iter().filter(|&&p| p != self.seat) {
            let recorded = match &mut self.others {
                Others::Recorded(lines) => lines.pop_front(),
                Others::Scripted => None,
            };
            let line = recorded.or_else(|| self.inner.scripted_answer(p)).unwrap_or_default();
            out.push((p, Reply::Line(line)));
        }
        out
    }

    /// Plays the other seats' turns until the bot's turn, a chance event or the end.
    fn advance(&mut self) {
        for _ in 0..MOST_SCRIPTED {
            let players = match self.inner.turn() {
                Turn::Sequential(p) if p != self.seat => vec![p],
                Turn::Simultaneous(ps) if !ps.contains(&self.seat) => ps,
                _ => return,
            };
            let replies = self.answers(&players);
            self.inner.apply(&replies);
            self.count(false);
        }
    }
}

impl Wrapper for Seated {
    fn inner(&self) -> &dyn State {
        &*self.inner
    }

    fn inner_mut(&mut self) -> &mut dyn State {
        &mut *self.inner
    }

    fn num_players(&self) -> usize {
        1
    }

    fn turn(&self) -> Turn {
        match self.inner.turn() {
            Turn::Chance => Turn::Chance,
            Turn::Sequential(p) if p == self.seat => Turn::Sequential(0),
            Turn::Simultaneous(ps) if ps.contains(&self.seat) => Turn::Sequential(0),
            _ => Turn::Terminal,
        }
    }

    fn intro(&self, _player: PlayerId) -> String {
        self.inner.intro(self.seat)
    }

    fn prompt(&self, _player: PlayerId) -> String {
        self.inner.prompt(self.seat)
    }

    fn apply(&mut self, replies: &[(PlayerId, Reply)]) {
        let mine = replies.first().map_or(Reply::Failed(Failure::Crash(None)), |(_, r)| r.clone());
        let mut all = vec![(self.seat, mine)];
        if let Turn::Simultaneous(ps) = self.inner.turn() {
            all.extend(self.answers(&ps));
        }
        self.inner.apply(&all);
        self.count(true);
        self.advance();
    }

    fn canonical_answer(&self, _player: PlayerId, line: &str) -> String {
        self.inner.canonical_answer(self.seat, line)
    }

    fn apply_chance(&mut self, outcome: u64) {
        self.inner.apply_chance(outcome);
        self.count(true);
        self.advance();
    }

    fn is_active(&self, _player: PlayerId) -> bool {
        self.inner.is_active(self.seat)
    }

    fn outcome(&self) -> Outcome {
        let all = self.inner.outcome();
        let winner = all.winner.filter(|&w| w == self.seat).map(|_| 0);
        Outcome { players: all.players.into_iter().skip(self.seat).take(1).collect(), winner }
    }

    fn remarks(&self) -> Vec<Remark> {
        let mine = self.inner.remarks().into_iter().filter(|r| r.player == self.seat);
        mine.map(|r| Remark { player: 0, ..r }).collect()
    }

    fn scripted_answer(&self, _player: PlayerId) -> Option<String> {
        self.inner.scripted_answer(self.seat)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::engine::PlayerOutcome;

    /// A match that plays `turns` in order, whatever is answered: several moves of one player in
    /// a row (as Tactics' commands), chance events, simultaneous steps with and without a seat.
    struct Schedule {
        turns: Vec<Turn>,
        at: usize,
    }

    impl State for Schedule {
        fn num_players(&self) -> usize {
            3
        }
        fn turn(&self) -> Turn {
            self.turns.get(self.at).cloned().unwrap_or(Turn::Terminal)
        }
        fn intro(&self, _player: PlayerId) -> String {
            String::new()
        }
        fn prompt(&self, _player: PlayerId) -> String {
            String::new()
        }
        fn apply(&mut self, _replies: &[(PlayerId, Reply)]) {
            self.at += 1;
        }
        fn chance_outcomes(&self) -> Vec<(u64, f64)> {
            vec![(1, 1.0)]
        }
        fn apply_chance(&mut self, _outcome: u64) {
            self.at += 1;
        }
        fn is_active(&self, _player: PlayerId) -> bool {
            self.at < self.turns.len()
        }
        fn outcome(&self) -> Outcome {
            let p = PlayerOutcome { score: 0, finished: false, forfeit: None, detail: None };
            Outcome { players: vec![p; 3], winner: None }
        }
        fn setup(&self) -> Value {
            Value::Null
        }
        fn frame(&self) -> Value {
            Value::from(self.at)
        }
        fn render(&self) -> String {
            String::new()
        }
        fn scripted_answer(&self, _player: PlayerId) -> Option<String> {
            Some("x".to_string())
        }
    }

    /// Each of the bot's steps gets the whole match's number, as a replay of the whole match
    /// (one step per turn of the schedule) numbers it, in every seat; the total is the match's.
    /// The control: the bot's own numbering (1, 2, 3, …) is not the match's.
    #[test]
    fn the_bot_s_steps_are_numbered_as_the_whole_match_s() {
        use Turn::*;
        let turns = vec![
            Sequential(0),
            Sequential(1),
            Sequential(1),
            Chance,
            Sequential(2),
            Simultaneous(vec![0, 2]),
            Simultaneous(vec![1, 2]),
            Sequential(0),
            Sequential(2),
        ];
        for seat in 0..3 {
            // The whole match's steps (1-based) that the bot plays: its turns and chance events.
            let expected: Vec<usize> = turns
                .iter()
                .enumerate()
                .filter(|(_, t)| match t {
                    Sequential(p) => *p == seat,
                    Simultaneous(ps) => ps.contains(&seat),
                    _ => true,
                })
                .map(|(i, _)| i + 1)
                .collect();
            let steps = MatchSteps::default();
            let mut s = Seated::counting(
                Box::new(Schedule { turns: turns.clone(), at: 0 }),
                seat,
                Others::Scripted,
                steps.clone(),
            );
            let mut own = 0;
            loop {
                match State::turn(&s) {
                    Terminal => break,
                    Chance => State::apply_chance(&mut s, 1),
                    _ => State::apply(&mut s, &[(0, Reply::Line("x".to_string()))]),
                }
                own += 1;
            }
            let numbered: Vec<usize> = (1..=own).map(|k| steps.of(k).unwrap()).collect();
            assert_eq!(numbered, expected, "seat {seat}");
            assert_eq!((steps.of(own + 1), steps.total(), s.steps().total()), (None, turns.len(), turns.len()));
            assert_ne!(numbered, (1..=own).collect::<Vec<_>>(), "the control: seat {seat}");
        }
        // A new match counts from the start again.
        let steps = MatchSteps::default();
        let _first =
            Seated::counting(Box::new(Schedule { turns: turns.clone(), at: 0 }), 2, Others::Scripted, steps.clone());
        assert_eq!(steps.total(), 3);
        let _again = Seated::counting(Box::new(Schedule { turns, at: 0 }), 1, Others::Scripted, steps.clone());
        assert_eq!(steps.total(), 1);
    }
}
