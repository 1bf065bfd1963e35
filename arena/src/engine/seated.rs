//! One match with one bot, as `arena check-bot` plays it ([`Seated`]): the bot plays one seat,
//! and the other seats answer from a source ([`Others`]) as soon as their turn comes.

use std::collections::VecDeque;

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

/// A match of one bot (player 0 here): it plays `seat` of `inner`, the other seats answer
/// from [`Others`], played as soon as their turn comes.
pub struct Seated {
    /// The whole match.
    pub inner: Box<dyn State>,
    seat: PlayerId,
    others: Others,
}

impl Seated {
    /// The bot plays `seat` of `inner`; the other seats' turns before its first are played.
    pub fn new(inner: Box<dyn State>, seat: PlayerId, others: Others) -> Self {
        let mut seated = Seated { inner, seat, others };
        seated.advance();
        seated
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
        self.advance();
    }

    fn canonical_answer(&self, _player: PlayerId, line: &str) -> String {
        self.inner.canonical_answer(self.seat, line)
    }

    fn apply_chance(&mut self, outcome: u64) {
        self.inner.apply_chance(outcome);
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
