//! The board as text, for `arena replay` in a terminal.

use std::fmt::Write;

use bot_sdk::{Cell, Pos};

use super::{ResourceRush, Status};
use crate::safe_text;

/// Legend printed under the board.
const LEGEND: &str = "legend: @1 @2 players (@@ both), $ final, . ground, 1-99 resource, W wall, E void, F fire, J jump, D double, T triple; x is the row (left), y the column (top): `MOVE x y`";

fn cell_token(cell: Cell) -> String {
    match cell {
        Cell::Floor => ".".to_string(),
        other => other.to_string(),
    }
}

/// The board, then one line per player, then the last tick's events.
pub fn render(game: &ResourceRush) -> String {
    let grid = game.grid();
    let mut out = format!("tick {}/{}", game.tick(), game.spec.rounds);
    if let Some(minimum) = game.minimum() {
        let _ = write!(out, "  (test: minimum {minimum})");
    }
    out.push('\n');
    let at = |p: Pos| (0..2).filter(|&i| game.player(i).pos == p).collect::<Vec<_>>();
    // The columns' numbers on top and each row's on its left, as `MOVE x y` names a cell.
    out.push_str("   ");
    for y in 0..grid.cols() {
        let _ = write!(out, "{y:>3}");
    }
    out.push('\n');
    for x in 0..grid.rows() {
        let _ = write!(out, "{x:>3}");
        for y in 0..grid.cols() {
            let p = Pos::new(x as i32, y as i32);
            let here = at(p);
            let token = match here.as_slice() {
                [a] => format!("@{}", a + 1),
                [_, _] => "@@".to_string(),
                _ if p == game.spec.final_pos => "$".to_string(),
                _ => cell_token(grid.get(p).unwrap_or(Cell::Void)),
            };
            let _ = write!(out, "{token:>3}");
        }
        out.push('\n');
    }
    out.push_str(LEGEND);
    out.push('\n');
    for i in 0..2 {
        let me = game.player(i);
        let status = match game.status(i) {
            Status::Playing if i == 1 && game.is_test() => "scripted opponent".to_string(),
            Status::Playing => "playing".to_string(),
            Status::Finished => "finished".to_string(),
            Status::Forfeit { reason, detail } => format!("forfeit: {reason} ({})", safe_text::terminal(detail)),
        };
        let action = game.last[i].action.map_or("-".to_string(), |a| a.to_string());
        let _ = writeln!(
            out,
            "P{} at {}  score {}  x{}  jump {}  last {}  [{}]",
            i + 1,
            me.pos,
            me.score,
            me.multiplier,
            if me.jump { "yes" } else { "no" },
            action,
            status
        );
    }
    let who = |p: usize| format!("P{}", p + 1);
    // A forfeit's detail may quote the bot's answer: shown as a safe, short field.
    let events: Vec<String> = game.events.iter().map(|e| safe_text::terminal(&e.describe(who))).collect();
    if !events.is_empty() {
        let _ = writeln!(out, "events: {}", events.join("; "));
    }
    out
}
