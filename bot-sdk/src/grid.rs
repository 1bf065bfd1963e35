//! Cells and coordinates: the grid a map describes and the rules act on.

use std::fmt;

/// A cell position: `x` is the row, `y` the column, both 0-based (as in the protocol).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    /// Row.
    pub x: i32,
    /// Column.
    pub y: i32,
}

impl Pos {
    /// A position from row and column.
    pub const fn new(x: i32, y: i32) -> Self {
        Pos { x, y }
    }

    /// Manhattan distance to `other`.
    pub fn manhattan(self, other: Pos) -> i32 {
        (self.x - other.x).abs() + (self.y - other.y).abs()
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// What a cell holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cell {
    /// `0`: empty ground, walkable.
    Floor,
    /// `1`..`99`: a resource worth that many points (times the multiplier).
    Resource(u8),
    /// `E`: a hole in the map; never walkable, can be jumped over.
    Void,
    /// `W`: a wall; never walkable, can be jumped over.
    Wall,
    /// `F`: fire; entering it ends the player's game, and it cannot be jumped over.
    Fire,
    /// `J`: grants Jump for good.
    Jump,
    /// `D`: doubles the multiplier.
    Double,
    /// `T`: triples the multiplier.
    Triple,
}

impl Cell {
    /// Parses one map token (`0`, `1`..`99`, `E`, `W`, `F`, `J`, `D`, `T`).
    pub fn parse(token: &str) -> Option<Cell> {
        match token {
            "E" => Some(Cell::Void),
            "W" => Some(Cell::Wall),
            "F" => Some(Cell::Fire),
            "J" => Some(Cell::Jump),
            "D" => Some(Cell::Double),
            "T" => Some(Cell::Triple),
            _ if !token.is_empty() && token.len() <= 3 && token.bytes().all(|b| b.is_ascii_digit()) => {
                match token.parse::<u8>().ok()? {
                    0 => Some(Cell::Floor),
                    v @ 1..=99 => Some(Cell::Resource(v)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// A player may stand here (`0`, resources and power-ups). Fire is enterable but fatal,
    /// so it is not walkable.
    pub fn is_walkable(self) -> bool {
        matches!(self, Cell::Floor | Cell::Resource(_) | Cell::Jump | Cell::Double | Cell::Triple)
    }

    /// Something a player collects by moving here (a resource or a power-up).
    pub fn is_collectable(self) -> bool {
        matches!(self, Cell::Resource(_) | Cell::Jump | Cell::Double | Cell::Triple)
    }

    /// A power-up that multiplies what is collected after it (`D` or `T`).
    pub fn is_multiplier(self) -> bool {
        matches!(self, Cell::Double | Cell::Triple)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cell::Floor => f.write_str("0"),
            Cell::Resource(v) => write!(f, "{v}"),
            Cell::Void => f.write_str("E"),
            Cell::Wall => f.write_str("W"),
            Cell::Fire => f.write_str("F"),
            Cell::Jump => f.write_str("J"),
            Cell::Double => f.write_str("D"),
            Cell::Triple => f.write_str("T"),
        }
    }
}

/// A rectangular grid of cells, row-major.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    rows: usize,
    cols: usize,
    cells: Vec<Cell>,
}

impl Grid {
    /// A grid from its rows; every row must have the same length (checked by the parser).
    pub fn from_rows(rows: Vec<Vec<Cell>>) -> Grid {
        let cols = rows.first().map_or(0, Vec::len);
        let n = rows.len();
        Grid { rows: n, cols, cells: rows.into_iter().flatten().collect() }
    }

    /// Number of rows (N).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns (M).
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Whether `p` lies on the map.
    pub fn in_bounds(&self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && (p.x as usize) < self.rows && (p.y as usize) < self.cols
    }

    /// The cell at `p`, or `None` off the map.
    pub fn get(&self, p: Pos) -> Option<Cell> {
        self.in_bounds(p).then(|| self.cells[p.x as usize * self.cols + p.y as usize])
    }

    /// Replaces the cell at `p` (ignored off the map).
    pub fn set(&mut self, p: Pos, cell: Cell) {
        if self.in_bounds(p) {
            self.cells[p.x as usize * self.cols + p.y as usize] = cell;
        }
    }

    /// Every position, row by row.
    pub fn positions(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.rows).flat_map(move |x| (0..self.cols).map(move |y| Pos::new(x as i32, y as i32)))
    }

    /// Row `x` as the protocol writes it: tokens separated by single spaces.
    pub fn row_text(&self, x: usize) -> String {
        let row = &self.cells[x * self.cols..(x + 1) * self.cols];
        row.iter().map(Cell::to_string).collect::<Vec<_>>().join(" ")
    }
}
