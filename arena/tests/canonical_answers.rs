//! Property tests of each game's canonical answers (what a replay records of an answer the
//! game took): for an accepted answer written with padding (zeros or a `+` before a number,
//! any ASCII white space, `PLAYER <tick>`, the keyword's case), applying its canonical text
//! does exactly what applying the line does; the canonical text is its own canonical form, and
//! never longer than the line's words, whatever the line.

use arena::engine::{ForfeitReason, PlayerId, Reply, State, Turn};
use arena::games::atoms::hosted::AtomsState;
use arena::games::resource_rush::ResourceRush;
use arena::games::tactics::hosted::TacticsState;
use arena::games::tactics::Board;
use bot_sdk::rules::check_move;
use bot_sdk::{MapSpec, Pos};
use proptest::prelude::*;

#[path = "common/tactics_picker.rs"]
mod tactics_picker;
use tactics_picker::legal as tactics_legal;

/// Random choices, taken in turn (and round again).
#[derive(Debug, Clone)]
struct Noise(Vec<u32>, usize);

impl Noise {
    fn next(&mut self, below: u32) -> u32 {
        let v = self.0[self.1 % self.0.len()];
        self.1 += 1;
        v % below.max(1)
    }

    /// White space between words: one to three of the six ASCII characters a game skips.
    fn space(&mut self) -> String {
        (0..=self.next(3)).map(|_| [" ", "\t", "\u{b}", "\u{c}", "\r", " "][self.next(6) as usize]).collect()
    }

    /// `v` as a bot might write it: zeros before it (a few, or a run of them), a `+`, `-0`.
    fn number(&mut self, v: i64) -> String {
        let zeros = match self.next(4) {
            0 => 0,
            1 | 2 => self.next(4) as usize,
            _ => self.next(1500) as usize,
        };
        let sign = match (v, self.next(4)) {
            (0, 0) => "-",
            (v, 1) if v >= 0 => "+",
            _ => "",
        };
        let digits = v.unsigned_abs().to_string();
        format!("{}{sign}{}{digits}", if v < 0 { "-" } else { "" }, "0".repeat(zeros))
    }

    /// `words` joined by random white space, with some around them.
    fn line(&mut self, words: &[String]) -> String {
        let mut out = if self.next(3) == 0 { self.space() } else { String::new() };
        for (i, w) in words.iter().enumerate() {
            if i > 0 {
                out.push_str(&self.space());
            }
            out.push_str(w);
        }
        if self.next(3) == 0 {
            out.push_str(&self.space());
        }
        out
    }

    /// A keyword in upper, lower or mixed case.
    fn case(&mut self, word: &str) -> String {
        match self.next(3) {
            0 => word.to_ascii_uppercase(),
            1 => word.to_ascii_lowercase(),
            _ => word.chars().enumerate().map(|(i, c)| if i % 2 == 0 { c.to_ascii_uppercase() } else { c }).collect(),
        }
    }
}

fn noise() -> impl Strategy<Value = Noise> {
    prop::collection::vec(any::<u32>(), 1..64).prop_map(|v| Noise(v, 0))
}

/// Whether `player` applied `line` as an answer the game took: not malformed, not refused.
fn taken(state: &dyn State, player: PlayerId) -> bool {
    !matches!(state.outcome().players[player].forfeit, Some(ForfeitReason::Malformed | ForfeitReason::InvalidMove))
}

/// Everything a state shows: frame, outcome, turn, render, setup, each player's prompt and
/// whether it plays on.
fn shown(state: &dyn State) -> String {
    let players: Vec<String> = (0..state.num_players())
        .map(|p| format!("{} {:?}", state.is_active(p), (state.turn() != Turn::Terminal).then(|| state.prompt(p))))
        .collect();
    format!(
        "{}\n{:?}\n{:?}\n{}\n{}\n{players:?}",
        state.frame(),
        state.outcome(),
        state.turn(),
        state.render(),
        state.setup()
    )
}

/// The properties, for `line` from `player` in `before` (with `others`' replies alongside): the
/// canonical text is stable and no longer than the line's words; applied, it does what the
/// line does, when the game takes the line.
fn check<S: State + Clone>(
    before: &S,
    player: PlayerId,
    line: &str,
    others: &[(PlayerId, Reply)],
) -> Result<bool, TestCaseError> {
    let canonical = before.canonical_answer(player, line);
    prop_assert_eq!(before.canonical_answer(player, &canonical), canonical.clone(), "stable, for {:?}", line);
    prop_assert!(canonical.len() <= arena::engine::words(line).len(), "{:?} grew to {:?}", line, canonical);
    let apply = |text: &str| {
        let mut s = before.clone();
        let mut replies = vec![(player, Reply::Line(text.to_string()))];
        replies.extend(others.iter().cloned());
        replies.sort_by_key(|(p, _)| *p);
        s.apply(&replies);
        s
    };
    let (sent, recorded) = (apply(line), apply(&canonical));
    if !taken(&sent, player) {
        return Ok(false);
    }
    prop_assert_eq!(shown(&recorded), shown(&sent), "{:?} recorded as {:?}", line, canonical);
    Ok(true)
}

/// Resource Rush on the duel map: the moves `player` may make now, and WAIT.
fn rr_options(g: &ResourceRush, player: PlayerId) -> Vec<Option<Pos>> {
    let me = g.player(player);
    let steps = [(0, 1), (1, 0), (0, -1), (-1, 0), (0, 2), (2, 0), (0, -2), (-2, 0)];
    let mut options = vec![None];
    for (dx, dy) in steps {
        let to = Pos::new(me.pos.x + dx, me.pos.y + dy);
        if check_move(g.grid(), me.pos, to, me.jump).is_ok() {
            options.push(Some(to));
        }
    }
    options
}

fn rr_plain(option: Option<Pos>) -> String {
    option.map_or("WAIT".to_string(), |p| format!("MOVE {} {}", p.x, p.y))
}

const TACTICS: &str = "OOP\n5_4\naa0-0\na00-0\n0000b\n0-0bb\n";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn resource_rush_answers_re_simulate_in_canonical_form(mut n in noise(), before in 0usize..40, test in any::<bool>()) {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../maps/duel.txt")).unwrap();
        let spec = MapSpec::parse(&text).unwrap();
        let mut g = if test { ResourceRush::against_script(spec, false) } else { ResourceRush::new(spec) };
        let players = g.num_players();
        for _ in 0..before {
            if g.turn() == Turn::Terminal {
                break;
            }
            let replies: Vec<(PlayerId, Reply)> = (0..players)
                .filter(|&p| g.is_active(p))
                .map(|p| {
                    let options = rr_options(&g, p);
                    (p, Reply::Line(rr_plain(options[n.next(options.len() as u32) as usize])))
                })
                .collect();
            g.apply(&replies);
        }
        prop_assume!(g.is_active(0));
        let options = rr_options(&g, 0);
        let option = options[n.next(options.len() as u32) as usize];
        let mut words = match option {
            None => vec!["WAIT".to_string()],
            Some(p) => vec!["MOVE".to_string(), n.number(p.x.into()), n.number(p.y.into())],
        };
        if n.next(4) == 0 {
            words.splice(0..0, ["PLAYER".to_string(), n.number(i64::from(g.tick()) + 1)]);
        }
        let line = n.line(&words);
        let others: Vec<(PlayerId, Reply)> = (1..players).filter(|&p| g.is_active(p)).map(|p| (p, Reply::Line("WAIT".into()))).collect();
        prop_assert!(check(&g, 0, &line, &others)?, "{:?} is a legal answer", line);
        prop_assert_eq!(g.canonical_answer(0, &line), rr_plain(option));
    }

    #[test]
    fn atoms_answers_re_simulate_in_canonical_form(mut n in noise(), before in 0usize..30, players in 2usize..5) {
        let mut s = AtomsState::new(players, 4, 3);
        let legal = |s: &AtomsState, n: &mut Noise| {
            let a = s.game();
            let cells: Vec<(usize, usize)> = (0..a.height)
                .flat_map(|y| (0..a.width).map(move |x| (x, y)))
                .filter(|&(x, y)| a.cell(x, y).atoms == 0 || a.cell(x, y).owner as usize == a.turn)
                .collect();
            cells[n.next(cells.len() as u32) as usize]
        };
        for _ in 0..before {
            let Turn::Sequential(p) = s.turn() else { break };
            let (x, y) = legal(&s, &mut n);
            s.apply(&[(p, Reply::Line(format!("PLACE {x} {y}")))]);
        }
        let Turn::Sequential(p) = s.turn() else { return Ok(()) };
        let (x, y) = legal(&s, &mut n);
        let words = ["PLACE".to_string(), n.number(x as i64), n.number(y as i64)];
        let line = n.line(&words);
        prop_assert!(check(&s, p, &line, &[])?, "{:?} is a legal answer", line);
        prop_assert_eq!(s.canonical_answer(p, &line), format!("PLACE {x} {y}"));
    }

    #[test]
    fn tactics_answers_re_simulate_in_canonical_form(mut n in noise(), before in 0usize..40, rounds in 1u32..4) {
        let mut s = TacticsState::new(Board::parse(TACTICS.as_bytes()).unwrap(), TACTICS.to_string(), rounds);
        for _ in 0..before {
            let Turn::Sequential(p) = s.turn() else { break };
            let command = tactics_legal(&s, p, u64::from(n.next(1000)));
            s.apply(&[(p, Reply::Line(command))]);
        }
        let Turn::Sequential(p) = s.turn() else { return Ok(()) };
        let command = tactics_legal(&s, p, u64::from(n.next(1000)));
        let mut words: Vec<String> = command.split(' ').map(str::to_string).collect();
        words[0] = n.case(&words[0]);
        for w in &mut words[1..] {
            *w = n.number(w.parse().unwrap());
        }
        let line = n.line(&words);
        prop_assert!(check(&s, p, &line, &[])?, "{:?} is a legal answer", line);
        prop_assert_eq!(s.canonical_answer(p, &line), command);
    }

    /// Whatever the line, taken or not, its canonical form is stable and no longer than its
    /// words, in every game.
    #[test]
    fn any_line_s_canonical_form_is_stable_and_no_longer(line in "[ \t]?((MOVE|WAIT|PLAYER|PLACE|place|Move|pass|[+-]?[0-9]{0,24}|[a-z]{1,3}|\u{a0})[ \t\u{b}]{1,2}){0,7}") {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../maps/duel.txt")).unwrap();
        let states: Vec<Box<dyn State>> = vec![
            Box::new(ResourceRush::new(MapSpec::parse(&text).unwrap())),
            Box::new(AtomsState::new(3, 4, 3)),
            Box::new(TacticsState::new(Board::parse(TACTICS.as_bytes()).unwrap(), TACTICS.to_string(), 2)),
        ];
        for s in &states {
            let canonical = s.canonical_answer(0, &line);
            prop_assert_eq!(s.canonical_answer(0, &canonical), canonical.clone(), "{:?}", line);
            prop_assert!(canonical.len() <= arena::engine::words(&line).len(), "{:?} grew to {:?}", line, canonical);
        }
    }
}
