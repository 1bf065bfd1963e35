//! A toy fifth game, written as a new game's author would, to prove that a game is one folder
//! and one registry line: the shared code learns of it only through `Registry::with`.
//!
//! Coins: a pile of `coins` coins; two players take turns taking 1 to 3; whoever takes the last
//! coin wins. A bot gets `COINS <pile> <seat>` once, then `PILE <left>` at each of its turns,
//! and answers `TAKE <k>`. Anything else forfeits.

use arena::engine::{
    Columns, ForfeitReason, Game, GameInfo, MatchOptions, Outcome, ParamKind, ParamSpec, PlayerId, PlayerOutcome,
    PlaysOn, Ranking, Reply, SetupError, State, Turn, Wording,
};
use serde_json::{json, Value};

pub static INFO: GameInfo = GameInfo {
    name: "coins",
    title: "Coins",
    listed: true,
    players: 2..=2,
    simultaneous: false,
    chance: false,
    bots: true,
    wording: Wording::NEUTRAL,
    columns: Columns::WON,
    plays_on: PlaysOn::Parameters,
    ranking: Ranking::Wins,
    params: &[ParamSpec {
        name: "coins",
        help: "coins in the pile",
        kind: ParamKind::Count { min: 1, max: 99 },
        default: "11",
    }],
    classic: None,
    kit: None,
};

pub struct CoinGame;

impl Game for CoinGame {
    fn info(&self) -> &GameInfo {
        &INFO
    }

    fn load(&self, setup: &Value) -> Result<Box<dyn State>, SetupError> {
        let pile = setup["coins"].as_u64().ok_or_else(|| SetupError::invalid("coins", "`coins` must be a number"))?;
        Ok(Box::new(Coins { pile, next: 0, winner: None, forfeit: None, start: pile }))
    }

    fn new_match(&self, options: &MatchOptions) -> Result<Box<dyn State>, SetupError> {
        INFO.player_count(options.players)?;
        self.load(&json!({ "coins": INFO.params(&options.params)?.count("coins")? }))
    }
}

pub struct Coins {
    start: u64,
    pile: u64,
    next: PlayerId,
    winner: Option<PlayerId>,
    forfeit: Option<(ForfeitReason, String)>,
}

impl State for Coins {
    fn num_players(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        if self.winner.is_some() {
            Turn::Terminal
        } else {
            Turn::Sequential(self.next)
        }
    }
    fn intro(&self, player: PlayerId) -> String {
        format!("COINS {} {}\n", self.start, player + 1)
    }
    fn prompt(&self, _player: PlayerId) -> String {
        format!("PILE {}\n", self.pile)
    }
    fn apply(&mut self, replies: &[(PlayerId, Reply)]) {
        let Some((p, reply)) = replies.first() else { return };
        let take = match reply {
            Reply::Line(line) => line.strip_prefix("TAKE ").and_then(|k| k.parse::<u64>().ok()),
            Reply::Failed(f) => {
                self.forfeit = Some((f.reason(), f.describe("PILE")));
                None
            }
        };
        match take {
            Some(k) if (1..=3).contains(&k) && k <= self.pile => self.pile -= k,
            _ => {
                let detail = format!("{reply:?} is not TAKE 1 to 3 of {}", self.pile);
                self.forfeit.get_or_insert((ForfeitReason::InvalidMove, detail));
                self.winner = Some(1 - p);
                return;
            }
        }
        if self.pile == 0 {
            self.winner = Some(*p)
        } else {
            self.next = 1 - p
        }
    }
    fn is_active(&self, _player: PlayerId) -> bool {
        self.winner.is_none()
    }
    fn outcome(&self) -> Outcome {
        let players = (0..2)
            .map(|p| {
                let won = self.winner == Some(p);
                let lost = self.forfeit.as_ref().filter(|_| self.winner == Some(1 - p));
                PlayerOutcome {
                    score: i64::from(won),
                    finished: won,
                    forfeit: lost.map(|(r, _)| r.clone()),
                    detail: lost.map(|(_, d)| d.clone()),
                }
            })
            .collect();
        Outcome { players, winner: self.winner }
    }
    fn setup(&self) -> Value {
        json!({ "coins": self.start })
    }
    fn frame(&self) -> Value {
        json!({ "pile": self.pile, "next": self.next, "winner": self.winner })
    }
    fn render(&self) -> String {
        format!("{} coins left\n", self.pile)
    }
}
