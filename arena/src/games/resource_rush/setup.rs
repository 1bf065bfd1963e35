//! Loading maps from files, and the map as recorded in a replay's `setup`.

use std::path::{Path, PathBuf};

use bot_sdk::{MapError, MapSpec, Pos};
use serde_json::{json, Value};
use thiserror::Error;

/// A map file that could not be used: the file, and the line and reason when it was read.
#[derive(Debug, Error)]
pub enum MapFileError {
    /// The file could not be read (or is no plain file of a sane size); the message names it.
    #[error(transparent)]
    Read(crate::engine::SetupError),
    /// The file is not a valid map. (Its line and reason are in the message, not a cause of
    /// it: shown as a cause, they were printed twice; cut, as a reason may quote a whole line.)
    #[error("{}:{}: {}", path.display(), error.line, shown(&error.message))]
    Parse {
        /// The file.
        path: PathBuf,
        /// Line and reason.
        error: MapError,
    },
}

/// Reads and validates a map file (a regular file of a sane size, see
/// [`crate::files::read_map_file`]).
pub fn load_map_file(path: &Path) -> Result<MapSpec, MapFileError> {
    let text = crate::files::read_map_file(path).map_err(MapFileError::Read)?;
    parse_map(path, &text)
}

/// Validates a map read from `path`.
pub fn parse_map(path: &Path, text: &str) -> Result<MapSpec, MapFileError> {
    MapSpec::parse(text).map_err(|error| MapFileError::Parse { path: path.to_path_buf(), error })
}

/// The map as a replay records it: sizes, starts, final, and the rows as the file writes them.
pub fn setup_json(spec: &MapSpec) -> Value {
    let pos = |p: Pos| json!([p.x, p.y]);
    let rows: Vec<String> = (0..spec.grid.rows()).map(|x| spec.grid.row_text(x)).collect();
    json!({
        "rows": spec.grid.rows(),
        "cols": spec.grid.cols(),
        "rounds": spec.rounds,
        "starts": [pos(spec.starts[0]), pos(spec.starts[1])],
        "final": pos(spec.final_pos),
        "map": rows,
    })
}

/// Why a replay's `setup` is not a map.
#[derive(Debug, Error)]
pub enum SetupJsonError {
    /// A field is missing or of the wrong kind.
    #[error("`{key}` must be {expected}")]
    Field {
        /// The field.
        key: &'static str,
        /// What it must be.
        expected: &'static str,
    },
    /// The fields make no valid map (its reason in the message, as for [`MapFileError::Parse`]).
    #[error("map: {}", shown(&.0.message))]
    Map(MapError),
}

/// Longest reason of a map's error shown, in characters: one quoting a line of 200 KB said it
/// whole.
const REASON_CHARS: usize = 300;

/// A map error's reason as shown: cut to [`REASON_CHARS`].
fn shown(reason: &str) -> std::borrow::Cow<'_, str> {
    crate::safe_text::shorten(reason, REASON_CHARS)
}

/// Rebuilds the map from a replay's `setup`, validating it like a map file.
pub fn spec_from_setup(setup: &Value) -> Result<MapSpec, SetupJsonError> {
    use SetupJsonError::Field;
    let int = |key: &'static str| {
        setup.get(key).and_then(Value::as_u64).ok_or(Field { key, expected: "a non-negative integer" })
    };
    let pos = |v: Option<&Value>, key: &'static str| -> Result<(i64, i64), SetupJsonError> {
        match v.and_then(Value::as_array).map(Vec::as_slice) {
            Some([x, y]) => match (x.as_i64(), y.as_i64()) {
                (Some(x), Some(y)) => Ok((x, y)),
                _ => Err(Field { key, expected: "two integers" }),
            },
            _ => Err(Field { key, expected: "`[x, y]`" }),
        }
    };
    let (rows, cols, rounds) = (int("rows")?, int("cols")?, int("rounds")?);
    let starts = setup.get("starts").and_then(Value::as_array);
    let starts = starts.ok_or(Field { key: "starts", expected: "an array of two positions" })?;
    if starts.len() != 2 {
        return Err(Field { key: "starts", expected: "two positions" });
    }
    let s1 = pos(starts.first(), "starts[0]")?;
    let s2 = pos(starts.get(1), "starts[1]")?;
    let fin = pos(setup.get("final"), "final")?;
    let map = setup.get("map").and_then(Value::as_array).ok_or(Field { key: "map", expected: "an array of rows" })?;
    let mut text =
        format!("ARENA {rows} {cols} {rounds}\n{} {}\n{} {}\n{} {}\nMAP\n", s1.0, s1.1, s2.0, s2.1, fin.0, fin.1);
    for row in map {
        let row = row.as_str().ok_or(Field { key: "map", expected: "rows of strings" })?;
        if row.contains(['\n', '\r', '#']) {
            return Err(Field { key: "map", expected: "single lines of cells" });
        }
        text.push_str(row);
        text.push('\n');
    }
    text.push_str("END_MAP\nSTREAM\n");
    if let Some(script) = setup.get("script") {
        let script = script.as_array().ok_or(Field { key: "script", expected: "an array of actions" })?;
        for (i, action) in script.iter().enumerate() {
            let action = action.as_str().ok_or(Field { key: "script", expected: "actions as strings" })?;
            if action.contains(['\n', '\r', '#']) {
                return Err(Field { key: "script", expected: "single-line actions" });
            }
            text.push_str(&format!("TICK {} {action}\n", i + 1));
        }
    }
    MapSpec::parse(&text).map_err(SetupJsonError::Map)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A map's error says where and what once, and cuts a reason that quotes a long line.
    #[test]
    fn a_map_error_is_said_once_and_cut() {
        let good = "ARENA 2 3 10\n0 0\n1 2\n1 0\nMAP\n0 5 W\nJ D T\nEND_MAP\nSTREAM\n";
        // (A coordinate of 200,000 digits and a letter: no integer, quoted. All digits, it is
        // an integer off the map, which is said without it.)
        let e = parse_map(Path::new("m.txt"), &format!("{good}TICK 1 MOVE {}x 1\n", "9".repeat(200_000))).unwrap_err();
        let text = e.to_string();
        assert!(text.len() < 1000 && text.starts_with("m.txt:10: ") && text.contains("more characters]"), "{}", text.len());
        assert!(std::error::Error::source(&e).is_none(), "no cause to print a second time");
    }
}
