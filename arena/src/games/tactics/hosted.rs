//! OOPtimal Tactics as a hosted game for two bots.
//!
//! Protocol (one line each): at the start a bot gets `TACTICS <rounds> <width> <height> <A|B>`.
//! At each of its turns it gets `ROUND <r>/<rounds>`, `PHASE PLACEMENT` or `PHASE MOVEMENT`,
//! `CHIPS <its unplaced chips>`, the map as `<height>` lines of `<width>` cells (`..` empty,
//! `~~` water, else the owner and its chips, such as `A3`), then `END`. It answers one command
//! of the classic program: `place <amount> <col> <row>` in the Placement Phase,
//! `move <amount> <from col> <from row> <to col> <to row>` in the Movement Phase, or `pass`
//! (coordinates 1-based, as in the classic program). Anything the classic program would refuse
//! forfeits: the game ends at once, the forfeiting bot scores 0 and loses. A player gets at most
//! `MAX_ACTIONS` commands per phase; past that it has passed.
//!
//! Score: fields claimed at the end. The winner has more fields; equal fields draw. A
//! player's `finished` means it won (the other forfeited, or it claimed more fields).

use std::path::PathBuf;

use serde_json::{json, Value};
use thiserror::Error;

use super::{canonical_command, Board, Field, Phase, IDS};
use crate::engine::{
    ClassicProgram, Columns, ForfeitReason, Game, GameInfo, MatchOptions, Outcome, ParamKind, ParamSpec, PlayerId,
    PlayerOutcome, PlaysOn, Ranking, Reply, SetupError, State, Turn, Wording, DEBUG_LINE_FIX,
};
use crate::files::required_map;

/// The game's name in replays and on the command line.
pub const NAME: &str = "tactics";

/// Commands a player may give in one phase.
pub const MAX_ACTIONS: u32 = 100;

/// The most rounds a new match is played for (`--rounds`, `[params] rounds`): a replay holds
/// at most [`crate::replay::MAX_REPLAY_BYTES`] (64 MiB), and a match whose every phase runs to
/// its [`MAX_ACTIONS`] commands per player records up to 404 steps a round, of at most 1.3 KB
/// each on the largest (9 x 9) board: 100 rounds stay under 53 MB (tested). Up to `u32::MAX`
/// was taken before: such a match stopped at the end, its replay refused as too large to
/// write, which in a league stops the run. Replays recorded with more still load.
pub const MAX_ROUNDS: u64 = 100;

/// What the prompt is called in forfeit details. Replays recorded so far say `TICK` (the
/// wording the arena once used for every game), and they must re-simulate to the same text.
const PROMPT: &str = "TICK";

/// OOPtimal Tactics as the registry describes it.
pub static INFO: GameInfo = GameInfo {
    name: NAME,
    title: "OOPtimal Tactics",
    listed: true,
    players: 2..=2,
    simultaneous: false,
    chance: false,
    bots: true,
    wording: Wording {
        step: "step",
        prompt: "ROUND prompt",
        input: "the TACTICS line and a ROUND prompt (through END)",
    },
    columns: Columns { score: "fields", finished: "won" },
    plays_on: PlaysOn::MapFile { noun: "config" },
    ranking: Ranking::Wins,
    params: &[ParamSpec {
        name: "rounds",
        help: "rounds per match (at most 100, so that a match's replay fits in the 64 MiB a replay may hold)",
        kind: ParamKind::Count { min: 1, max: MAX_ROUNDS },
        default: "10",
    }],
    classic: Some(ClassicProgram { takes_params: true, run: super::classic::session }),
    kit: Some(super::kit::KIT),
};

/// A recorded setup that is not a Tactics match.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RecordedSetupError {
    /// No rounds, or not a number.
    #[error("`rounds` must be >= 1")]
    Rounds,
    /// More rounds than a match has (the JSON number as written).
    #[error("`rounds` is {0}, too large: a match has at most {max} rounds", max = u32::MAX)]
    RoundsTooLarge(String),
    /// No config text.
    #[error("`config` must be the config file's text")]
    NoConfig,
    /// The config does not pass the hosted game's checks.
    #[error("`config` line {line}: {what}")]
    Config {
        /// 1-based line.
        line: usize,
        /// What is wrong there.
        what: String,
    },
}

/// A config file that does not pass the hosted game's checks.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{}:{line}: {what}", path.display())]
pub struct ConfigFileError {
    /// The file.
    pub path: PathBuf,
    /// 1-based line.
    pub line: usize,
    /// What is wrong there.
    pub what: String,
}

/// The Tactics entry of the game registry.
pub struct TacticsGame;

/// A recorded setup's `rounds`: 1 to `u32::MAX` (as `--param rounds=` takes); a number past it
/// is too large, whether it fits JSON's integers or not (`1e30`).
fn recorded_rounds(value: Option<&Value>) -> Result<u32, RecordedSetupError> {
    let too_large = |v: &Value| RecordedSetupError::RoundsTooLarge(v.to_string());
    match value {
        Some(v) if v.as_u64().is_some_and(|r| r >= 1) => u32::try_from(v.as_u64().unwrap_or(0)).map_err(|_| too_large(v)),
        Some(v) if v.as_f64().is_some_and(|r| r > f64::from(u32::MAX)) => Err(too_large(v)),
        _ => Err(RecordedSetupError::Rounds),
    }
}

impl Game for TacticsGame {
    fn info(&self) -> &GameInfo {
        &INFO
    }

    fn renderer(&self) -> Option<&'static str> {
        Some(include_str!("viewer.js"))
    }

    fn load(&self, setup: &Value) -> Result<Box<dyn State>, SetupError> {
        let bad = |e: RecordedSetupError| SetupError::invalid(NAME, e);
        let rounds = recorded_rounds(setup.get("rounds")).map_err(bad)?;
        let config = setup.get("config").and_then(Value::as_str).ok_or_else(|| bad(RecordedSetupError::NoConfig))?;
        let board = Board::check(config).map_err(|(line, what)| bad(RecordedSetupError::Config { line, what }))?;
        let state = TacticsState::new(board, config.to_string(), rounds);
        // Replays recorded before the setup said so show each command as its words.
        let canonical = setup.get(CANONICAL).and_then(Value::as_bool).unwrap_or(false);
        Ok(Box::new(TacticsState { canonical, ..state }))
    }

    fn new_match(&self, options: &MatchOptions) -> Result<Box<dyn State>, SetupError> {
        INFO.player_count(options.players)?;
        let rounds = INFO.params(&options.params)?.count("rounds")?;
        let (path, text) = required_map(&INFO, options)?;
        let text = text.to_string();
        let board = Board::check(&text).map_err(|(line, what)| {
            SetupError::BadInput(Box::new(ConfigFileError { path: path.to_path_buf(), line, what }))
        })?;
        Ok(Box::new(TacticsState::new(board, text, u32::try_from(rounds).unwrap_or(u32::MAX))))
    }

    fn malformed_fix(&self, line: &str) -> Option<String> {
        Some(malformed_fix(line))
    }

    fn invalid_move_fix(&self, frame: &Value, player: PlayerId, line: &str) -> Option<String> {
        super::refused::invalid_move_fix(frame, player, line)
    }
}

/// The three commands of the protocol, for a fix's text.
const COMMANDS: &str = "`place AMOUNT COL ROW` in the Placement Phase, `move AMOUNT FROM_COL FROM_ROW TO_COL TO_ROW` \
                        in the Movement Phase, or `pass` (coordinates 1-based)";

/// Each command's name, how many numbers follow it, and the fix that gives its form.
const FORMS: [(&str, usize, &str); 3] = [
    (
        "place",
        3,
        "write a placement as `place AMOUNT COL ROW`: the word `place`, then three whole numbers separated by \
         spaces (coordinates 1-based), nothing else on the line",
    ),
    (
        "move",
        5,
        "write a move as `move AMOUNT FROM_COL FROM_ROW TO_COL TO_ROW`: the word `move`, then five whole numbers \
         separated by spaces (coordinates 1-based), nothing else on the line",
    ),
    ("pass", 0, "write `pass` alone on the line: nothing may follow it"),
];

/// How to fix the malformed answer `line` (shown to the bot's author, never recorded): the
/// command it meant when its words were run together (`place,1,1,1`), `pass` alone, why the
/// classic program's `info`, `map` and `quit` are not answers, where debug output goes. A line
/// that starts with a command's name (`placement 1 1 1`, `place(1, 1)`) is that command
/// mis-written, not debug output: it gets the command's form (check-bot tells a stray line by
/// the debug-line fix).
pub(crate) fn malformed_fix(line: &str) -> String {
    let lower = line.to_ascii_lowercase();
    let words: Vec<&str> = bot_sdk::action::words(&lower).collect();
    let tokens: Vec<&str> = lower.split(|c: char| !c.is_ascii_alphanumeric()).filter(|t| !t.is_empty()).collect();
    let numbers = |ts: &[&str]| ts.iter().all(|t| t.bytes().all(|b| b.is_ascii_digit()));
    match (words.first(), tokens.split_first()) {
        (None, _) => format!("answer one command per turn: {COMMANDS}; an empty line is none"),
        (Some(&"pass"), _) => "write `pass` alone on the line: nothing may follow it".to_string(),
        (Some(&w @ ("info" | "map" | "quit")), _) => format!(
            "`{w}` is a command of the classic program, not an answer: the state comes with every prompt; answer \
             {COMMANDS}"
        ),
        (_, Some((&c, args))) if numbers(args) && FORMS.iter().any(|(name, n, _)| c == *name && args.len() == *n) => {
            format!(
                "write `{}`: the words separated by spaces (a no-break space or a comma is part of a word)",
                std::iter::once(c).chain(args.iter().copied()).collect::<Vec<_>>().join(" ")
            )
        }
        // A command's name, or a word it starts, then numbers only: a command mis-written.
        (_, Some((first, args))) if let Some((_, _, form)) = FORMS
            .iter()
            .find(|(name, _, _)| first.starts_with(name) && (*first == *name || numbers(args))) =>
        {
            form.to_string()
        }
        (_, Some((&("wait" | "skip" | "stay" | "done" | "end" | "none"), []))) => {
            "write `pass` to end your turns in this phase".to_string()
        }
        _ if numbers(&tokens) => format!("start the line with the command's name: {COMMANDS}"),
        _ => format!("{DEBUG_LINE_FIX}: stdout carries one command per turn, {COMMANDS}"),
    }
}

/// The setup's field that says a replay's frames show each command as the game read it.
const CANONICAL: &str = "canonical_actions";

/// A hosted match.
#[derive(Debug, Clone)]
pub struct TacticsState {
    board: Board,
    config: String,
    rounds: u32,
    round: u32,
    phase: Phase,
    passed: [bool; 2],
    actions: [u32; 2],
    current: usize,
    over: bool,
    forfeit: Option<(usize, ForfeitReason, String)>,
    last: Value,
    /// Whether the frame shows a command as the game read it ([`canonical_command`]), which the
    /// replay records of it, rather than its words as sent (replays recorded before, which
    /// must re-simulate to the same frames).
    canonical: bool,
}

impl TacticsState {
    /// A new match on `board` (parsed from `config`) for `rounds` rounds.
    pub fn new(board: Board, config: String, rounds: u32) -> Self {
        let mut s = TacticsState {
            board,
            config,
            rounds,
            round: 0,
            phase: Phase::Placement,
            passed: [false; 2],
            actions: [0; 2],
            current: 0,
            over: false,
            forfeit: None,
            last: Value::Null,
            canonical: true,
        };
        s.next_round();
        s
    }

    fn done(&self, p: usize) -> bool {
        self.board.done(self.phase, p, self.passed[p]) || self.actions[p] >= MAX_ACTIONS
    }

    fn next_round(&mut self) {
        if self.round >= self.rounds {
            self.over = true;
            return;
        }
        self.round += 1;
        self.board.hand_out_chips();
        self.start_phase(Phase::Placement);
    }

    fn start_phase(&mut self, phase: Phase) {
        self.phase = phase;
        self.passed = [false; 2];
        self.actions = [0; 2];
        self.current = phase.starter(self.round);
        self.settle();
    }

    /// Moves on to whoever plays next: the other player, the same one, the next phase, the next
    /// round or the end.
    fn settle(&mut self) {
        if self.board.has_loser() {
            self.over = true;
            return;
        }
        if self.done(0) && self.done(1) {
            match self.phase {
                Phase::Placement => self.start_phase(Phase::Movement),
                Phase::Movement => self.next_round(),
            }
        } else if self.done(self.current) {
            self.current = 1 - self.current;
        }
    }

    fn rows(&self) -> Vec<String> {
        (0..self.board.height)
            .map(|r| {
                (0..self.board.width)
                    .map(|c| match self.board.fields[r * self.board.width + c] {
                        Field::Empty => "..".to_string(),
                        Field::Water => "~~".to_string(),
                        Field::Claimed(p, n) => format!("{}{n}", IDS[p]),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }
}

impl State for TacticsState {
    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.over {
            Turn::Terminal
        } else {
            Turn::Sequential(self.current)
        }
    }

    fn intro(&self, player: PlayerId) -> String {
        format!("TACTICS {} {} {} {}\n", self.rounds, self.board.width, self.board.height, IDS[player])
    }

    fn prompt(&self, player: PlayerId) -> String {
        let phase = if self.phase == Phase::Placement { "PLACEMENT" } else { "MOVEMENT" };
        let head = format!("ROUND {}/{}\nPHASE {phase}\nCHIPS {}\n", self.round, self.rounds, self.board.chips[player]);
        crate::engine::board_prompt(head, &self.rows())
    }

    fn apply(&mut self, replies: &[(PlayerId, Reply)]) {
        let Some((p, reply)) = replies.first() else { return };
        let p = *p;
        if p != self.current || self.over {
            return;
        }
        let result = match reply {
            Reply::Failed(f) => Err((f.reason(), f.describe(PROMPT))),
            Reply::Line(line) => {
                // As the classic program reads a command: ASCII case and white space.
                let lower = line.to_ascii_lowercase();
                let words: Vec<&str> = bot_sdk::action::words(&lower).collect();
                match words.split_first() {
                    Some((&"pass", [])) => {
                        self.passed[p] = true;
                        Ok("pass".to_string())
                    }
                    Some((&command @ ("place" | "move"), args)) => self
                        .board
                        .command(p, self.phase, command, args)
                        .map(|()| if self.canonical { canonical_command(&words) } else { words.join(" ") })
                        .map_err(|e| (ForfeitReason::InvalidMove, format!("`{}`: {}", line.trim(), e.message()))),
                    _ => Err((ForfeitReason::Malformed, format!("expected place, move or pass, found `{}`", line.trim()))),
                }
            }
        };
        self.actions[p] += 1;
        match result {
            Ok(action) => {
                self.last = json!({"player": p, "action": action});
                // Turns alternate while both still play; settle() skips one who is done.
                if !self.done(1 - p) {
                    self.current = 1 - p;
                }
                self.settle();
            }
            Err((reason, detail)) => {
                self.last = json!({"player": p, "forfeit": reason, "detail": detail});
                self.forfeit = Some((p, reason, detail));
                self.over = true;
            }
        }
    }

    /// The command in lower case with its numbers as read ([`canonical_command`]): `place 2 1
    /// 3` for `PLACE 002 +1 3`.
    fn canonical_answer(&self, _player: PlayerId, line: &str) -> String {
        let lower = line.to_ascii_lowercase();
        canonical_command(&bot_sdk::action::words(&lower).collect::<Vec<_>>())
    }

    fn is_active(&self, _player: PlayerId) -> bool {
        !self.over
    }

    /// All its chips on its first field (row by row) in the Placement Phase, else `pass`.
    fn scripted_answer(&self, player: PlayerId) -> Option<String> {
        let chips = self.board.chips.get(player).copied().unwrap_or(0);
        let first = self.board.fields.iter().position(|f| matches!(f, Field::Claimed(p, _) if *p == player));
        Some(match first {
            Some(i) if self.phase == Phase::Placement && chips > 0 => {
                format!("place {chips} {} {}", i % self.board.width + 1, i / self.board.width + 1)
            }
            _ => "pass".to_string(),
        })
    }

    fn outcome(&self) -> Outcome {
        let fields = [self.board.claimed(0) as i64, self.board.claimed(1) as i64];
        let players = (0..2)
            .map(|p| {
                let lost = self.forfeit.as_ref().filter(|(q, _, _)| *q == p);
                PlayerOutcome {
                    score: if lost.is_some() { 0 } else { fields[p] },
                    finished: false,
                    forfeit: lost.map(|(_, r, _)| r.clone()),
                    detail: lost.map(|(_, _, d)| d.clone()),
                }
            })
            .collect::<Vec<_>>();
        let winner = match &self.forfeit {
            Some((p, _, _)) => Some(1 - p),
            None => match fields[0].cmp(&fields[1]) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            },
        };
        let mut players = players;
        if let Some(w) = winner {
            players[w].finished = true;
        }
        Outcome { players, winner }
    }

    fn setup(&self) -> Value {
        let mut setup = json!({"rounds": self.rounds, "config": self.config});
        if self.canonical {
            setup[CANONICAL] = json!(true);
        }
        setup
    }

    fn frame(&self) -> Value {
        json!({
            "round": self.round,
            "phase": if self.phase == Phase::Placement { "placement" } else { "movement" },
            "last": self.last,
            "board": self.rows(),
            "chips": self.board.chips,
            "fields": [self.board.claimed(0), self.board.claimed(1)],
            "next": self.current,
            "over": self.over,
        })
    }

    fn render(&self) -> String {
        let last = match self.last.get("action").and_then(Value::as_str) {
            Some(a) => format!("Player {}: {a}\n", IDS[self.last["player"].as_u64().unwrap_or(0) as usize]),
            None if !self.last.is_null() => format!(
                "Player {} forfeits: {}\n",
                IDS[self.last["player"].as_u64().unwrap_or(0) as usize],
                crate::safe_text::terminal(self.last["detail"].as_str().unwrap_or(""))
            ),
            None => String::new(),
        };
        let phase = if self.phase == Phase::Placement { "Placement" } else { "Movement" };
        format!(
            "round {}/{} · {phase} phase · chips A {} B {} · fields A {} B {}\n{last}{}",
            self.round,
            self.rounds,
            self.board.chips[0],
            self.board.chips[1],
            self.board.claimed(0),
            self.board.claimed(1),
            self.board.render()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`MAX_ROUNDS`] rounds, every phase run to [`MAX_ACTIONS`] commands (and a pass) by both
    /// players, on a 9 x 9 board whose every field and both hands hold `u32::MAX` chips (more
    /// than a match can give), answered as late as a step's figures go: the replay fits in
    /// what a replay may hold. The control: ten times the rounds would not.
    #[test]
    fn a_match_of_the_most_rounds_fits_in_a_replay() {
        let config = format!("OOP\n9_9\n{}", "a00000000\n".repeat(8) + "00000000b\n");
        let board = Board::check(&config).unwrap();
        let mut state = TacticsState::new(board, config.clone(), MAX_ROUNDS as u32);
        state.board.fields.iter_mut().enumerate().for_each(|(i, f)| *f = Field::Claimed(i % 2, u32::MAX));
        state.board.chips = [u32::MAX; 2];
        state.round = MAX_ROUNDS as u32;
        let command = format!("move 8 8 8 7 {}", u32::MAX);
        state.last = json!({"action": command, "player": 1});
        let step = json!({"replies": [{"player": 1, "answer": command, "ms": u64::from(u32::MAX)}], "frame": state.frame()});
        let step_bytes = serde_json::to_vec(&step).unwrap().len() as u64 + 1;
        assert!(step_bytes < 1300, "{step_bytes} bytes a step");
        let per_round = 2 * 2 * u64::from(MAX_ACTIONS + 1) * step_bytes;
        let head = 64 * 1024 + config.len() as u64;
        assert!(head + MAX_ROUNDS * per_round <= crate::replay::MAX_REPLAY_BYTES, "{per_round} bytes a round");
        assert!(head + 10 * MAX_ROUNDS * per_round > crate::replay::MAX_REPLAY_BYTES, "the control");
        let too_many = (MAX_ROUNDS + 1).to_string();
        let params = |rounds: &str| INFO.params(&[("rounds".to_string(), rounds.to_string())].into()).map(|_| ());
        let err = params(&too_many).unwrap_err().to_string();
        assert_eq!(err, format!("--rounds: expected a whole number from 1 to {MAX_ROUNDS}, found `{too_many}`"));
        assert_eq!(params(&MAX_ROUNDS.to_string()), Ok(()), "the control");
    }

    const CONFIG: &str = "OOP\n4_5\naaa0\n0000\n00--\n00--\n0bbb\n";

    fn line(s: &str) -> Reply {
        Reply::Line(s.to_string())
    }

    #[test]
    fn phases_and_rounds_follow_the_classic_order() {
        let mut s = TacticsState::new(Board::parse(CONFIG.as_bytes()).unwrap(), CONFIG.to_string(), 2);
        assert_eq!(s.intro(1), "TACTICS 2 4 5 B\n");
        assert_eq!(s.turn(), Turn::Sequential(0), "A places first in odd rounds");
        assert!(s.prompt(0).starts_with("ROUND 1/2\nPHASE PLACEMENT\nCHIPS 1\nA1 A1 A1 ..\n"));
        s.apply(&[(0, line("place 1 1 1"))]);
        assert_eq!(s.turn(), Turn::Sequential(1));
        s.apply(&[(1, line("PLACE 1 2 5"))]);
        assert_eq!(s.turn(), Turn::Sequential(1), "B moves first in the odd rounds' Movement Phase");
        assert!(s.prompt(1).contains("PHASE MOVEMENT"));
        s.apply(&[(1, line("move 1 2 5 1 5"))]);
        s.apply(&[(0, line("move 1 1 1 1 2"))]);
        s.apply(&[(1, line("pass"))]);
        s.apply(&[(0, line("pass"))]);
        assert!(
            s.prompt(1).starts_with("ROUND 2/2\nPHASE PLACEMENT\nCHIPS 2\n"),
            "B places first in even rounds: {}",
            s.prompt(1)
        );
        assert_eq!(s.turn(), Turn::Sequential(1));
        for (p, cmd) in [(1, "place 2 1 5"), (0, "place 2 1 2"), (0, "pass"), (1, "pass")] {
            s.apply(&[(p, line(cmd))]);
        }
        assert_eq!(s.turn(), Turn::Terminal);
        let o = s.outcome();
        assert_eq!(
            (o.players[0].score, o.players[1].score, o.winner),
            (4, 4, None),
            "the handout's first example ends 4:4"
        );
    }

    /// A new match's frame shows a command as the game read it, which the replay records of
    /// it, and its setup says so; a replay recorded before (its setup silent) re-simulates to
    /// the frames it recorded, which show the command's words as sent.
    #[test]
    fn frames_show_commands_as_read_except_in_replays_recorded_before() {
        let played = |state: Box<dyn State>, line: &str| {
            let mut s = state;
            s.apply(&[(0, Reply::Line(line.to_string()))]);
            s.frame()["last"]["action"].clone()
        };
        let options = MatchOptions {
            map: Some("config.txt".into()),
            text: Some(CONFIG.into()),
            params: [("rounds".to_string(), "3".to_string())].into(),
            ..Default::default()
        };
        let new = TacticsGame.new_match(&options).unwrap();
        let setup = new.setup();
        assert_eq!(setup[CANONICAL], true);
        assert_eq!(new.canonical_answer(0, "PLACE 0001 +1\t01"), "place 1 1 1");
        assert_eq!(played(new, "PLACE 0001 +1\t01"), "place 1 1 1");
        assert_eq!(played(TacticsGame.load(&setup).unwrap(), "place 1 1 1"), "place 1 1 1", "the record re-simulates");
        let before = json!({"rounds": 3, "config": CONFIG});
        assert_eq!(played(TacticsGame.load(&before).unwrap(), "PLACE 0001 +1\t01"), "place 0001 +1 01");
        assert!(TacticsGame.load(&before).unwrap().setup().get(CANONICAL).is_none(), "and records its setup as it was");
    }

    /// A recorded `rounds` past the most a match has is told as too large, with the maximum
    /// (it was told it must be >= 1), never cut to 32 bits; the control: 0, a negative number
    /// or none still must be >= 1, and the maximum loads.
    #[test]
    fn recorded_rounds_past_the_maximum_are_too_large() {
        let load = |rounds: Value| {
            TacticsGame.load(&json!({"rounds": rounds, "config": CONFIG})).err().map(|e| e.to_string()).unwrap_or_default()
        };
        let big: Value = serde_json::from_str("1000000000000000000000000000000").unwrap();
        for rounds in [big, json!(4294967297u64), json!(u64::MAX), json!(1e30)] {
            let err = load(rounds.clone());
            assert!(err.contains(&format!("`rounds` is {rounds}, too large: a match has at most 4294967295 rounds")), "{err}");
        }
        for rounds in [json!(0), json!(-3), Value::Null, json!("10")] {
            assert!(load(rounds.clone()).contains("`rounds` must be >= 1"), "{rounds}: {}", load(rounds.clone()));
        }
        let most = TacticsGame.load(&json!({"rounds": 4294967295u64, "config": CONFIG})).unwrap();
        assert_eq!(most.setup()["rounds"], 4294967295u64);
    }

    #[test]
    fn a_refused_command_forfeits_the_game() {
        let mut s = TacticsState::new(Board::parse(CONFIG.as_bytes()).unwrap(), CONFIG.to_string(), 3);
        s.apply(&[(0, line("move 1 1 1 1 2"))]);
        assert_eq!(s.turn(), Turn::Terminal);
        let o = s.outcome();
        assert_eq!((o.winner, o.players[0].score, o.players[0].forfeit.clone()), (Some(1), 0, Some(ForfeitReason::InvalidMove)));
        assert_eq!(
            o.players[0].detail.as_deref(),
            Some("`move 1 1 1 1 2`: [ERROR] Entered command is not valid in this phase!")
        );
        let mut s = TacticsState::new(Board::parse(CONFIG.as_bytes()).unwrap(), CONFIG.to_string(), 3);
        s.apply(&[(0, line("PLACE 5 1 1"))]);
        assert_eq!(
            s.outcome().players[0].detail.as_deref(),
            Some("`PLACE 5 1 1`: [ERROR] Invalid amount! Must be a number <= chips in player inventory!")
        );
        let mut s = TacticsState::new(Board::parse(CONFIG.as_bytes()).unwrap(), CONFIG.to_string(), 3);
        s.apply(&[(0, line("info"))]);
        assert_eq!(s.outcome().players[0].forfeit, Some(ForfeitReason::Malformed), "info is not in the protocol");
    }

    /// Each kind of malformed command gets its own fix; a command it rewrites is then read
    /// (as a legal placement here, not a malformed answer).
    #[test]
    fn each_kind_of_malformed_command_gets_its_own_fix() {
        let new = || TacticsState::new(Board::parse(CONFIG.as_bytes()).unwrap(), CONFIG.to_string(), 3);
        for (text, meant) in [("place,1,1,1", "place 1 1 1"), ("PLACE\u{a0}1 1 1", "place 1 1 1"), ("place(1, 1, 1)", "place 1 1 1")]
        {
            let mut s = new();
            s.apply(&[(0, line(text))]);
            assert_eq!(s.outcome().players[0].forfeit, Some(ForfeitReason::Malformed), "{text}");
            assert!(malformed_fix(text).starts_with(&format!("write `{meant}`: the words separated")), "{text}");
            let mut s = new();
            s.apply(&[(0, line(meant))]);
            assert_eq!(s.turn(), Turn::Sequential(1), "{meant} is read and legal");
        }
        let table = [
            ("", "answer one command per turn: `place AMOUNT COL ROW`"),
            ("pass now", "write `pass` alone on the line"),
            ("info", "`info` is a command of the classic program, not an answer"),
            ("QUIT", "`quit` is a command of the classic program, not an answer"),
            ("WAIT", "write `pass` to end your turns"),
            ("1 1 1", "start the line with the command's name: `place AMOUNT COL ROW`"),
            ("debug: 3 chips left", "if that line is debug output, write it to stderr"),
            // A command mis-written (a word the command's name starts, the numbers wrong): its
            // form, not the debug-line fix. The control: a line of words that starts with one.
            ("placement 1 1 1", "write a placement as `place AMOUNT COL ROW`"),
            ("place(1, 1)", "write a placement as `place AMOUNT COL ROW`"),
            ("place\u{a0}x 1 1", "write a placement as `place AMOUNT COL ROW`"),
            ("moves 1 1 1 1 2", "write a move as `move AMOUNT FROM_COL FROM_ROW TO_COL TO_ROW`"),
            ("move,1,1,1", "write a move as `move AMOUNT"),
            ("pass,1", "write `pass` alone on the line"),
            ("placement phase: 3 chips left", "if that line is debug output, write it to stderr"),
            ("moved 2 chips to 3 4", "if that line is debug output, write it to stderr"),
        ];
        for (text, fix) in table {
            let mut s = new();
            s.apply(&[(0, line(text))]);
            assert_eq!(s.outcome().players[0].forfeit, Some(ForfeitReason::Malformed), "{text:?}");
            assert!(malformed_fix(text).starts_with(fix), "{text:?}: {}", malformed_fix(text));
        }
        // The game gives it (the engine's default gives none).
        assert_eq!(TacticsGame.malformed_fix("info").as_deref(), Some(malformed_fix("info").as_str()));
    }

    #[test]
    fn only_ascii_white_space_separates_a_commands_words() {
        let new = || TacticsState::new(Board::parse(CONFIG.as_bytes()).unwrap(), CONFIG.to_string(), 3);
        // The classic program's white space (C's `isspace`), between and around the words.
        for c in [' ', '\t', '\n', '\u{b}', '\u{c}', '\r'] {
            let mut s = new();
            s.apply(&[(0, line(&format!("{c}place{c}1{c}{c}1{c}1{c}")))]);
            assert_eq!(s.turn(), Turn::Sequential(1), "{c:?}: {:?}", s.outcome().players[0].detail);
        }
        // Unicode's other white space is part of a word, as for the classic program.
        for c in ['\u{a0}', '\u{3000}', '\u{85}', '\u{2028}'] {
            let mut s = new();
            s.apply(&[(0, line(&format!("place{c}1 1 1")))]);
            assert_eq!(s.outcome().players[0].forfeit, Some(ForfeitReason::Malformed), "{c:?}");
            let mut s = new();
            s.apply(&[(0, line(&format!("place 1 1{c}1")))]);
            assert_eq!(s.outcome().players[0].forfeit, Some(ForfeitReason::InvalidMove), "{c:?}: two parameters");
            let mut s = new();
            s.apply(&[(0, line(&format!("pass{c}")))]);
            assert_eq!(s.outcome().players[0].forfeit, Some(ForfeitReason::Malformed), "{c:?}");
        }
    }

    #[test]
    fn hosted_configs_are_checked_strictly_with_the_line() {
        assert!(Board::check(CONFIG).is_ok());
        for (text, line, what) in [
            ("OPP\n1_1\na\n", 1, "magic"),
            ("OOP", 1, "magic"),
            ("OOP\r\n2_1\r\nab\r\n", 1, "CRLF (Windows) line endings"),
            ("OOP\n10_2\n", 2, "each 1 to 9"),
            ("OOP\n2_2\nab\n", 4, "missing row 2"),
            ("OOP\n2_2\nab\n0\n", 4, "row has 1 fields, expected 2"),
            ("OOP\n2_2\nab\n0x\n", 4, "column 2: `x`"),
            ("OOP\n2_1\nab\nzz\n", 4, "extra text"),
            ("OOP\n2_1\naa\n", 3, "player B has no field"),
        ] {
            let (l, w) = Board::check(text).unwrap_err();
            assert_eq!(l, line, "{text:?}: {w}");
            assert!(w.contains(what), "{text:?}: {w}");
        }
        let dir = std::env::temp_dir().join(format!("tactics-check-{}", std::process::id()));
        std::fs::write(&dir, "OOP\n2_2\nab\n0x\n").unwrap();
        let options = MatchOptions { map: Some(dir.clone()), ..Default::default() };
        let err = TacticsGame.new_match(&options).err().unwrap().to_string();
        std::fs::remove_file(&dir).unwrap();
        assert!(err.contains(&format!("{}:4: column 2", dir.display())), "{err}");
    }
}
