//! An Ostle variant: its parameters and rule reading, its board geometry and symmetries,
//! and the DFA string of a state.

use super::explicit::{Cell, Move, State};
use super::{BANNED, EMPTY, HOLE, HOLE_BANNED, MINE, THEIRS};
use crate::dfa::Symbol;
use crate::error::{Error, Result};

/// A direction: L towards file a, R towards the last file, U towards the last rank, D towards
/// rank 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// Towards file a.
    L,
    /// Towards the last file.
    R,
    /// Towards the last rank (White's home).
    U,
    /// Towards rank 1 (Black's home).
    D,
}

impl Dir {
    /// All four, in symbol order.
    pub const ALL: [Dir; 4] = [Dir::L, Dir::R, Dir::U, Dir::D];

    /// The opposite direction.
    pub fn reverse(self) -> Dir {
        match self {
            Dir::L => Dir::R,
            Dir::R => Dir::L,
            Dir::U => Dir::D,
            Dir::D => Dir::U,
        }
    }

    pub(super) fn letter(self) -> char {
        match self {
            Dir::L => 'L',
            Dir::R => 'R',
            Dir::U => 'U',
            Dir::D => 'D',
        }
    }

    pub(super) fn index(self) -> usize {
        self as usize
    }
}

/// Which reading of the no-undo rule (`games/ostle/README.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// Forbid the exact reverse of the opponent's last move.
    Exact,
    /// Forbid one move leading back into the symmetry class of the previous position.
    Class,
}

impl Rule {
    /// `exact` or `class`, as on the command line and in solution files.
    pub fn name(self) -> String {
        crate::choice::Choice::name(self).to_string()
    }
}

impl crate::choice::Choice for Rule {
    const ALL: &'static [Rule] = &[Rule::Exact, Rule::Class];

    fn name(self) -> &'static str {
        match self {
            Rule::Exact => "exact",
            Rule::Class => "class",
        }
    }

    fn help(self) -> &'static str {
        match self {
            Rule::Exact => "Forbid the exact reverse of the opponent's last move",
            Rule::Class => "Forbid one move leading back into the symmetry class of the previous position",
        }
    }
}

/// The parameters of one Ostle variant: the options of `dfasolve ostle` that name the game
/// (with the `cli` feature; the defaults are the standard game) and the `"ostle"` object of
/// files.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct Variant {
    /// Files (board width), 2..=8.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 5))]
    pub width: usize,
    /// Ranks (board height), 3..=8.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 5))]
    pub height: usize,
    /// Pieces per side at the start (at most the width).
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 5))]
    pub pieces: usize,
    /// A player reduced to this many pieces loses.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 3))]
    pub lose_at: usize,
    /// Reading of the no-undo rule: `exact` (the game's rule) or `class` (the published
    /// explicit solutions' symmetry-class reading, for variants with up to 4 million boards
    /// where the readings differ; 5x5 has 3.1 million).
    #[cfg_attr(feature = "cli", arg(long, value_parser = crate::choice::parser::<Rule>(), default_value = "exact"))]
    pub rule: Rule,
}

impl Variant {
    /// Largest width or height accepted.
    pub const MAX_SIDE: usize = 8;

    /// The standard game: Ostle(5x5, 5, 3), exact rule.
    pub fn standard() -> Variant {
        Variant { width: 5, height: 5, pieces: 5, lose_at: 3, rule: Rule::Exact }
    }

    /// Check the parameters.
    ///
    /// # Errors
    /// [`Error::BadParameters`] naming what is wrong.
    pub fn checked(self) -> Result<Variant> {
        let bad = |m: String| Err(Error::BadParameters(m));
        let max = Self::MAX_SIDE;
        if !(2..=max).contains(&self.width) || !(3..=max).contains(&self.height) {
            return bad(format!(
                "ostle board must be 2..={max} files by 3..={max} ranks (the hole starts between the home ranks), got {}x{}",
                self.width, self.height
            ));
        }
        if self.pieces == 0 || self.pieces > self.width {
            return bad(format!("pieces must be 1..={} (one home rank), got {}", self.width, self.pieces));
        }
        if self.lose_at >= self.pieces {
            return bad(format!("lose-at must be below pieces ({}), got {}", self.pieces, self.lose_at));
        }
        Ok(self)
    }

    /// Number of squares.
    pub fn squares(&self) -> usize {
        self.width * self.height
    }

    /// The board's symmetries as square permutations (`perm[i]` = image of square `i`):
    /// identity, the mirrors and rotations that map the board onto itself (8 for a square
    /// board, 4 otherwise), identity first. `dir_map` gives the image of each direction.
    pub fn symmetries_with_dirs(&self) -> Vec<(Vec<usize>, [Dir; 4])> {
        let (w, h) = (self.width, self.height);
        use Dir::*;
        // (file, rank) -> (file, rank), with the direction images [L, R, U, D].
        type Map = (fn(usize, usize, usize, usize) -> (usize, usize), [Dir; 4]);
        let mut maps: Vec<Map> = vec![
            (|f, r, _, _| (f, r), [L, R, U, D]),
            (|f, r, w, _| (w - 1 - f, r), [R, L, U, D]),
            (|f, r, _, h| (f, h - 1 - r), [L, R, D, U]),
            (|f, r, w, h| (w - 1 - f, h - 1 - r), [R, L, D, U]),
        ];
        if w == h {
            maps.extend_from_slice(&[
                ((|f, r, _, _| (r, f)) as fn(usize, usize, usize, usize) -> (usize, usize), [D, U, R, L]),
                (|f, r, w, _| (w - 1 - r, w - 1 - f), [U, D, L, R]),
                (|f, r, w, _| (w - 1 - r, f), [D, U, L, R]),
                (|f, r, w, _| (r, w - 1 - f), [U, D, R, L]),
            ]);
        }
        maps.iter()
            .map(|(m, dirs)| {
                let perm = (0..w * h)
                    .map(|i| {
                        let (f, r) = m(i % w, i / w, w, h);
                        r * w + f
                    })
                    .collect();
                (perm, *dirs)
            })
            .collect()
    }

    /// The board's symmetries as square permutations (see [`Variant::symmetries_with_dirs`]).
    pub fn symmetries(&self) -> Vec<Vec<usize>> {
        self.symmetries_with_dirs().into_iter().map(|(p, _)| p).collect()
    }

    /// The DFA string of a state.
    pub fn encode(&self, s: &State) -> Vec<Symbol> {
        let mut out: Vec<Symbol> = s
            .cells
            .iter()
            .map(|c| match c {
                Cell::Empty => EMPTY,
                Cell::Mine => MINE,
                Cell::Theirs => THEIRS,
                Cell::Hole => HOLE,
            })
            .collect();
        if let Some(m) = s.forbidden {
            match s.cells[m.square] {
                Cell::Hole => {
                    let t = self.neighbour(m.square, m.dir).expect("a hole move stays on the board");
                    out[t] = HOLE_BANNED;
                }
                _ => out[m.square] = BANNED[m.dir.index()],
            }
        }
        out
    }

    /// The state of a DFA string (`None` if it is not a well-formed state string).
    pub fn decode(&self, string: &[Symbol]) -> Option<State> {
        if string.len() != self.squares() {
            return None;
        }
        let mut cells = Vec::with_capacity(string.len());
        let mut marker = None;
        for (i, &c) in string.iter().enumerate() {
            cells.push(match c {
                EMPTY => Cell::Empty,
                MINE => Cell::Mine,
                THEIRS => Cell::Theirs,
                HOLE => Cell::Hole,
                HOLE_BANNED | 5..=8 if marker.is_some() => return None, // a second marker
                HOLE_BANNED => {
                    marker = Some((i, None));
                    Cell::Empty
                }
                5..=8 => {
                    marker = Some((i, Some(Dir::ALL[(c - 5) as usize])));
                    Cell::Mine
                }
                _ => return None,
            });
        }
        let forbidden = match marker {
            None => None,
            Some((i, Some(dir))) => Some(Move { square: i, dir }),
            Some((i, None)) => {
                let hole = cells.iter().position(|&c| c == Cell::Hole)?;
                let dir = Dir::ALL.into_iter().find(|&d| self.neighbour(hole, d) == Some(i))?;
                Some(Move { square: hole, dir })
            }
        };
        Some(State { cells, forbidden })
    }

    /// The square one step from `square` in `dir`, if on the board.
    pub fn neighbour(&self, square: usize, dir: Dir) -> Option<usize> {
        let (w, h) = (self.width, self.height);
        let (file, rank) = (square % w, square / w);
        match dir {
            Dir::L => (file > 0).then(|| square - 1),
            Dir::R => (file + 1 < w).then(|| square + 1),
            Dir::U => (rank + 1 < h).then(|| square + w),
            Dir::D => (rank > 0).then(|| square - w),
        }
    }
}
