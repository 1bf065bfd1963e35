//! The board as text, for `arena replay` in a terminal.

use std::fmt::Write;

use bot_sdk::{Cell, Pos};
use serde_json::Value;

use super::{ResourceRush, Status};

/// Legend printed under the board.
const LEGEND: &str = "legend: @1 @2 players (@@ both), $ final, . ground, 1-99 resource, W wall, E void, F fire, J jump, D double, T triple";

fn cell_token(cell: Cell) -> String {
    match cell {
        Cell::Floor => ".".to_string(),
        other => other.to_string(),
    }
}

/// The board, then one line per player, then the last tick's events.
pub fn render(game: &ResourceRush) -> String {
    let grid = game.grid();
    let mut out = format!("tick {}/{}\n", game.tick(), game.spec.rounds);
    let at = |p: Pos| (0..2).filter(|&i| game.player(i).pos == p).collect::<Vec<_>>();
    for x in 0..grid.rows() {
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
            Status::Playing => "playing".to_string(),
            Status::Finished => "finished".to_string(),
            Status::Forfeit { reason, detail } => format!("forfeit: {reason} ({detail})"),
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
    let events: Vec<String> = game.events.iter().map(describe_event).collect();
    if !events.is_empty() {
        let _ = writeln!(out, "events: {}", events.join("; "));
    }
    out
}

fn describe_event(event: &Value) -> String {
    let player = event.get("player").and_then(Value::as_u64).map_or(0, |p| p + 1);
    let cell = event.get("cell").map_or(String::new(), |c| format!("({}, {})", c[0], c[1]));
    let item = event.get("item").and_then(Value::as_str).unwrap_or("");
    match event.get("type").and_then(Value::as_str).unwrap_or("") {
        "collected" => format!("P{player} took {item} at {cell} (+{})", event["points"]),
        "cancelled" => format!("both reached {cell}: {item} cancelled"),
        "finished" => format!("P{player} reached the final"),
        "forfeit" => format!(
            "P{player} forfeits: {} ({})",
            event["reason"].as_str().unwrap_or(""),
            event["detail"].as_str().unwrap_or("")
        ),
        other => other.to_string(),
    }
}
