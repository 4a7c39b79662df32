//! Ostle(WxH, K, T): pushing pieces off the board or into the hole.
//!
//! Rules: `../shared/SPEC.md` §4 and `games/ostle/README.md`. Two independent descriptions:
//! [`explicit`] (plain board code, the oracle and the explicit retrograde solver) and the
//! symbolic one here (a DFA encoding and a move graph).
//!
//! # Encoding
//! A state is written **from the mover's point of view**, one layer per square in row-major
//! order (`rank · W + file`, rank 0 first), alphabet of 9 symbols:
//!
//! | symbol | meaning |
//! |---|---|
//! | 0 `EMPTY` | empty square |
//! | 1 `MINE` | a piece of the player to move |
//! | 2 `THEIRS` | a piece of the other player |
//! | 3 `HOLE` | the hole |
//! | 4 `HOLE_BANNED` | an empty square the hole may not move into (it just came from there) |
//! | 5–8 `BANNED[L,R,U,D]` | a mover's piece that may not move in that direction |
//!
//! The forbidden move is written *on the square it concerns* instead of in a separate layer.
//! A move reads and writes only the squares along its line, so the marker stays local: the
//! DFA needs one extra bit of memory ("marker seen") rather than a copy of the board set per
//! forbidden move, which is what a separate forbidden-move layer would cost. Writing from the
//! mover's view makes one set serve both players (half the work of a per-colour encoding).
//!
//! # Moves
//! Every move is a path of the move graph whose changes read and write the squares along its
//! line (the moving piece or hole, the pushed chain, the square the chain ends on), with the
//! new marker written directly. Every other square is relabelled by one map applied by the
//! image engine: the colours swap (the opponent becomes the mover) and the old marker is
//! erased. The old marker can also sit on a square the move touches; such moves are separate
//! paths reading the marked symbol. The forbidden move itself has no path: a piece marked
//! `BANNED[d]` has no move in direction `d`, and the hole has no move into `HOLE_BANNED`.

pub mod census;
pub mod explicit;
pub mod verify;

use super::{Game, Position, Side, Status};
use crate::dfa::{Change, Dfa, Shape, Symbol};
use crate::error::{Error, Result};
use crate::move_graph::{ListedMoves, MoveGraph};
use explicit::{Cell, Move, State};

/// An empty square.
pub const EMPTY: Symbol = 0;
/// A piece of the player to move.
pub const MINE: Symbol = 1;
/// A piece of the other player.
pub const THEIRS: Symbol = 2;
/// The hole.
pub const HOLE: Symbol = 3;
/// An empty square the hole may not move into.
pub const HOLE_BANNED: Symbol = 4;
/// `BANNED[d]`: a mover's piece that may not move in direction `d` (indexed by [`Dir`]).
pub const BANNED: [Symbol; 4] = [5, 6, 7, 8];
/// Alphabet size.
pub const SYMBOLS: u16 = 9;

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

    fn letter(self) -> char {
        match self {
            Dir::L => 'L',
            Dir::R => 'R',
            Dir::U => 'U',
            Dir::D => 'D',
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Which reading of the no-undo rule (see the SPEC).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// Forbid the exact reverse of the opponent's last move.
    Exact,
    /// Forbid one move leading back into the symmetry class of the previous position.
    Class,
}

impl Rule {
    /// `exact` or `class`.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Exact => "exact",
            Rule::Class => "class",
        }
    }

    /// Parse `exact` or `class`.
    ///
    /// # Errors
    /// [`Error::BadParameters`] for anything else.
    pub fn parse(s: &str) -> Result<Rule> {
        match s {
            "exact" => Ok(Rule::Exact),
            "class" => Ok(Rule::Class),
            _ => Err(Error::BadParameters(format!("rule must be exact or class, got {s:?}"))),
        }
    }
}

/// The parameters of one Ostle variant.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Files.
    pub width: usize,
    /// Ranks.
    pub height: usize,
    /// Pieces per side at the start.
    pub pieces: usize,
    /// A player reduced to this many pieces has lost.
    pub lose_at: usize,
    /// Reading of the no-undo rule.
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

    /// Square name, e.g. `c3`.
    pub fn square_name(&self, square: usize) -> String {
        format!("{}{}", (b'a' + (square % self.width) as u8) as char, square / self.width + 1)
    }

    /// Move text, e.g. `c1U`.
    pub fn move_text(&self, m: Move) -> String {
        format!("{}{}", self.square_name(m.square), m.dir.letter())
    }

    /// Board text: ranks from rank 1 up, separated by `/`; `.` empty, `b` the mover's piece,
    /// `w` the other player's, `o` the hole.
    pub fn board_text(&self, cells: &[Cell]) -> String {
        cells
            .chunks(self.width)
            .map(|rank| {
                rank.iter()
                    .map(|c| match c {
                        Cell::Empty => '.',
                        Cell::Mine => 'b',
                        Cell::Theirs => 'w',
                        Cell::Hole => 'o',
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    /// Parse a square name such as `c3`.
    fn parse_square(&self, s: &str) -> Option<usize> {
        let mut chars = s.chars();
        let file = chars.next()?;
        let rank: usize = chars.as_str().parse().ok()?;
        let f = (file as usize).checked_sub('a' as usize)?;
        (f < self.width && (1..=self.height).contains(&rank)).then(|| (rank - 1) * self.width + f)
    }

    /// Parse a move such as `c1U`.
    fn parse_move(&self, s: &str) -> Option<Move> {
        let dir = match s.chars().last()? {
            'L' => Dir::L,
            'R' => Dir::R,
            'U' => Dir::U,
            'D' => Dir::D,
            _ => return None,
        };
        Some(Move { square: self.parse_square(&s[..s.len() - 1])?, dir })
    }

    /// Parse `board [forbidden-move|-]` into a legal state.
    ///
    /// # Errors
    /// [`Error::BadPosition`] naming what is wrong.
    pub fn parse_state(&self, text: &str) -> Result<State> {
        let bad = |m: String| Err(Error::BadPosition(m));
        let mut words = text.split_whitespace();
        let Some(board) = words.next() else { return bad("empty position".into()) };
        let forbidden = words.next();
        if words.next().is_some() {
            return bad(format!("{text:?}: expected `board [forbidden-move]`"));
        }
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != self.height || ranks.iter().any(|r| r.chars().count() != self.width) {
            return bad(format!(
                "{board:?}: expected {} ranks of {} squares separated by '/'",
                self.height, self.width
            ));
        }
        let mut cells = Vec::with_capacity(self.squares());
        for ch in ranks.concat().chars() {
            cells.push(match ch {
                '.' => Cell::Empty,
                'b' => Cell::Mine,
                'w' => Cell::Theirs,
                'o' => Cell::Hole,
                _ => return bad(format!("{board:?}: unknown square {ch:?} (use . b w o)")),
            });
        }
        let holes = cells.iter().filter(|&&c| c == Cell::Hole).count();
        if holes != 1 {
            return bad(format!("{board:?}: {holes} holes, expected 1"));
        }
        let (mine, theirs) = Self::piece_counts(&cells);
        for (who, n) in [("b", mine), ("w", theirs)] {
            if n < self.lose_at || n > self.pieces {
                return bad(format!("{board:?}: {n} {who} pieces, expected {}..={}", self.lose_at, self.pieces));
            }
        }
        if mine == self.lose_at && theirs == self.lose_at {
            return bad(format!("{board:?}: both sides are down to {} pieces", self.lose_at));
        }
        let forbidden = match forbidden {
            None | Some("-") => None,
            Some(m) => {
                let Some(mv) = self.parse_move(m) else {
                    return bad(format!("{m:?}: not a move (square and L/R/U/D, e.g. c1U)"));
                };
                if self.finished(&cells).is_some() {
                    return bad(format!("{m:?}: the game is over, nothing is forbidden"));
                }
                if !self.all_moves(&cells).contains(&mv) || self.play(&cells, mv).removed.is_some() {
                    return bad(format!("{m:?}: not a move that keeps every piece on the board here"));
                }
                Some(mv)
            }
        };
        Ok(State { cells, forbidden })
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

/// Ostle of one variant, as a [`Game`].
#[derive(Clone, Debug)]
pub struct Ostle {
    variant: Variant,
    shape: Shape,
    /// Class reading: the states whose forbidden move after some move differs from the exact
    /// reading's, with their moves written out (see [`Ostle::new`]).
    listed: Option<ListedMoves>,
}

/// The class reading of the no-undo rule finds its listed states by trying every board with
/// the explicit rules; above this many boards where the game is not over, that search is
/// refused (Ostle(5x5, 5, 3) has about 2·10^10).
pub const CLASS_RULE_MAX_BOARDS: u128 = 20_000_000;

impl Ostle {
    /// The symbolic game of a checked variant.
    ///
    /// The move graph implements the exact reading of the no-undo rule. The class reading
    /// differs from it only after a move that removes nothing and has no exact undo, when
    /// some move of the new mover leads into a board symmetry of the position before (a
    /// handful of boards: 48 of 18,900 on 3x3 K3 T1, 720 of 245,520 on 3x4 K3 T1, none on
    /// 4x4 K3 T2). Those boards are found by trying every board with the explicit rules, and
    /// every state on them gets its moves listed explicitly ([`ListedMoves`]); the graph does
    /// the rest. The listed successors come from the explicit rules, so `verify` checks
    /// the class reading independently everywhere except on those states.
    ///
    /// # Errors
    /// [`Error::BadParameters`] from [`Variant::checked`], or for the class reading on a
    /// variant with more than [`CLASS_RULE_MAX_BOARDS`] boards where the game is not over.
    pub fn new(variant: Variant) -> Result<Ostle> {
        let variant = variant.checked()?;
        let shape = Shape::uniform(variant.squares(), SYMBOLS);
        let mut game = Ostle { variant, shape, listed: None };
        if game.variant.rule == Rule::Class {
            game.listed = Some(game.class_rule_moves()?);
        }
        Ok(game)
    }

    /// Every state on a board where some move's class-reading forbidden move differs from
    /// the exact one, with its class-reading successors.
    fn class_rule_moves(&self) -> Result<ListedMoves> {
        use rayon::prelude::*;
        let v = &self.variant;
        let boards = self.ongoing_boards().count();
        if boards > CLASS_RULE_MAX_BOARDS {
            return Err(Error::BadParameters(format!(
                "the class reading of the no-undo rule lists the states it changes by trying every board \
                 where the game is not over; this variant has {boards}, more than the {CLASS_RULE_MAX_BOARDS} \
                 that search allows (use the exact rule)"
            )));
        }
        let exact = Variant { rule: Rule::Exact, ..v.clone() };
        // The readings agree after a removal (no forbidden move) and whenever the exact undo
        // exists (the class reading prefers it).
        let differs = |cells: &Vec<Cell>| {
            v.finished(cells).is_none()
                && v.all_moves(cells).into_iter().any(|m| {
                    let e = exact.after(cells, m);
                    e.forbidden.is_none() && v.after(cells, m) != e
                })
        };
        let listed: Vec<(Vec<Symbol>, Vec<Vec<Symbol>>)> = v
            .all_boards()
            .into_par_iter()
            .filter(differs)
            .flat_map_iter(|cells| {
                let moves = v.all_moves(&cells);
                std::iter::once(None).chain(moves.into_iter().map(Some)).map(move |forbidden| {
                    let state = State { cells: cells.clone(), forbidden };
                    let next = v.successors(&state).iter().map(|(_, t)| v.encode(t)).collect();
                    (v.encode(&state), next)
                })
            })
            .collect();
        Ok(ListedMoves::new(&self.shape, listed.into_iter().collect()))
    }

    /// The variant.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    fn mover_symbols() -> [Symbol; 5] {
        [MINE, BANNED[0], BANNED[1], BANNED[2], BANNED[3]]
    }

    /// Boards with one hole, no marker and both piece counts in `lo..=pieces`.
    pub fn boards(&self, lo_mine: usize, lo_theirs: usize) -> Dfa {
        let (s, n, k) = (&self.shape, self.variant.squares(), self.variant.pieces);
        Dfa::conjunction(
            s,
            &[
                Dfa::from_allowed(s, |_, c| c <= HOLE),
                Dfa::count_between(s, 0..n, |c| c == HOLE, 1, 1),
                Dfa::count_between(s, 0..n, |c| c == MINE, lo_mine, k),
                Dfa::count_between(s, 0..n, |c| c == THEIRS, lo_theirs, k),
            ],
        )
    }

    /// Positions (no marker) where neither side is down to `lose_at` pieces.
    pub fn ongoing_boards(&self) -> Dfa {
        let t = self.variant.lose_at;
        self.boards(t + 1, t + 1)
    }

    /// States with the mover at exactly `lose_at` pieces (or, with `theirs`, the opponent).
    fn down_to_limit(&self, theirs: bool) -> Dfa {
        let (s, n, t) = (&self.shape, self.variant.squares(), self.variant.lose_at);
        let mover = Self::mover_symbols();
        if theirs {
            Dfa::count_between(s, 0..n, |c| c == THEIRS, 0, t)
        } else {
            Dfa::count_between(s, 0..n, |c| mover.contains(&c), 0, t)
        }
    }
}

impl Game for Ostle {
    fn name(&self) -> String {
        let v = &self.variant;
        format!("ostle {}x{} k{} t{} {}", v.width, v.height, v.pieces, v.lose_at, v.rule.name())
    }

    fn params(&self) -> serde_json::Value {
        let v = &self.variant;
        serde_json::json!({
            "game": "ostle", "width": v.width, "height": v.height,
            "pieces": v.pieces, "lose_at": v.lose_at, "rule": v.rule.name(),
        })
    }

    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn initial(&self) -> Position {
        Position { side: Side::First, board: self.variant.encode(&self.variant.initial_state()) }
    }

    /// The possibly reachable states (results of a non-terminal move of any board) and the
    /// initial state. Closed under moves, and exactly the states the published counts use.
    fn universe(&self, _side: Side) -> Dfa {
        let moves = self.solver_moves(Side::First);
        let reachable = moves.forward(&self.ongoing_boards());
        reachable.union(&Dfa::from_string(&self.shape, &self.initial().board))
    }

    fn lost_terminal(&self, _side: Side) -> Dfa {
        self.down_to_limit(false)
    }

    fn won_terminal(&self, _side: Side) -> Dfa {
        self.down_to_limit(true).difference(&self.down_to_limit(false))
    }

    fn moves(&self, _side: Side) -> MoveGraph {
        let v = &self.variant;
        let mut g = MoveGraph::new(&self.shape);
        let n = v.squares();
        // Every square the move does not touch: colours swap, the old marker is erased.
        let map: Vec<Symbol> = (0..SYMBOLS as Symbol)
            .map(|c| match c {
                MINE => THEIRS,
                THEIRS => MINE,
                HOLE_BANNED => EMPTY,
                5..=8 => THEIRS,
                c => c,
            })
            .collect();
        g.relabel_unchanged(vec![map; n]);
        let swapped = |c: Symbol| if c == THEIRS { MINE } else { THEIRS };
        // Evaluation groups: vertical moves span several ranks, so each file's are a group of
        // their own; horizontal moves form one group per rank. Within one pass the sets carry
        // every combination of moves under way or just completed, and separate groups keep
        // those combinations from multiplying across files and ranks.
        let (w, h) = (v.width, v.height);
        let group = |square: usize, dir: Dir| match dir {
            Dir::L | Dir::R => (square / w) as u32,
            Dir::U | Dir::D => (h + square % w) as u32,
        };
        for square in 0..n {
            for dir in Dir::ALL {
                // Hole moves: onto an empty square (not the banned one); the square left
                // behind becomes the one the opponent's hole may not return to.
                if let Some(t) = v.neighbour(square, dir) {
                    g.add_move_in(
                        group(square, dir),
                        format!("hole {}{}", v.square_name(square), dir.letter()),
                        None,
                        sorted(vec![Change::new(square, HOLE, HOLE_BANNED), Change::new(t, EMPTY, HOLE)]),
                        None,
                    );
                }
                // Piece moves: the mover's piece (unmarked, or marked for another direction)
                // and every chain of pieces in front of it.
                let starts: Vec<(Symbol, bool)> = std::iter::once((MINE, false))
                    .chain(Dir::ALL.into_iter().filter(|&d| d != dir).map(|d| (BANNED[d.index()], true)))
                    .collect();
                for (start, marked) in starts {
                    let mut chain = vec![(square, start, marked)];
                    self.push_paths(&mut g, group(square, dir), dir, &mut chain, &swapped);
                }
            }
        }
        g
    }

    /// The class reading's listed states (see [`Ostle::new`]); none for the exact reading.
    fn listed_moves(&self, _side: Side) -> Option<ListedMoves> {
        self.listed.clone()
    }

    /// None: a player whose game is not over has a piece, and a piece can always move (a push
    /// ends at an empty square, the hole or the edge), in at least three directions, so the
    /// forbidden move never leaves it without one. (Tests compare with the explicit rules.)
    fn stuck(&self, _side: Side) -> Option<Dfa> {
        Some(Dfa::reject_all(&self.shape))
    }

    fn has_draws(&self) -> bool {
        true
    }

    fn mover_relative(&self) -> bool {
        true
    }

    fn explicit_moves(&self, pos: &Position) -> Vec<Position> {
        let v = &self.variant;
        let Some(s) = v.decode(&pos.board) else { return Vec::new() };
        // Several moves can give one result (a corner piece pushed off either edge).
        let mut out: Vec<Position> = v
            .successors(&s)
            .into_iter()
            .map(|(_, t)| Position { side: pos.side.other(), board: v.encode(&t) })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    fn explicit_status(&self, pos: &Position) -> Status {
        let v = &self.variant;
        let Some(s) = v.decode(&pos.board) else { return Status::Lost };
        match v.finished(&s.cells) {
            Some(true) => Status::Won,
            Some(false) => Status::Lost,
            None if v.successors(&s).is_empty() => Status::Lost,
            None => Status::Ongoing,
        }
    }

    fn render(&self, pos: &Position) -> String {
        let v = &self.variant;
        match v.decode(&pos.board) {
            Some(s) => format!("{} {}", v.board_text(&s.cells), s.forbidden.map_or("-".into(), |m| v.move_text(m))),
            None => format!("{:?}", pos.board),
        }
    }

    fn parse(&self, text: &str) -> Result<Position> {
        let s = self.variant.parse_state(text)?;
        Ok(Position { side: Side::First, board: self.variant.encode(&s) })
    }

    fn move_name(&self, from: &Position, to: &Position) -> String {
        let v = &self.variant;
        let Some(s) = v.decode(&from.board) else { return "?".into() };
        // Every move with this result, e.g. `a1L=a1D`.
        let names: Vec<String> = v
            .successors(&s)
            .into_iter()
            .filter(|(_, t)| v.encode(t) == to.board)
            .map(|(m, _)| v.move_text(m))
            .collect();
        if names.is_empty() { "?".into() } else { names.join("=") }
    }
}

impl Ostle {
    /// Add the paths of a piece move in `dir` whose chain so far is `chain` (square, symbol
    /// read, whether it is a marked symbol), for every way the next square can look.
    fn push_paths(
        &self,
        g: &mut MoveGraph,
        group: u32,
        dir: Dir,
        chain: &mut Vec<(usize, Symbol, bool)>,
        swapped: &dyn Fn(Symbol) -> Symbol,
    ) {
        let v = &self.variant;
        let marked = chain.iter().any(|c| c.2);
        // Square i of the chain receives the piece of square i-1, seen from the new mover.
        let colour = |sym: Symbol| if sym == THEIRS { THEIRS } else { MINE };
        let shifted = |chain: &[(usize, Symbol, bool)]| -> Vec<Change> {
            let mut ch = vec![Change::new(chain[0].0, chain[0].1, EMPTY)];
            for i in 1..chain.len() {
                ch.push(Change::new(chain[i].0, chain[i].1, swapped(colour(chain[i - 1].1))));
            }
            ch
        };
        let (last, last_sym, _) = *chain.last().expect("non-empty");
        let name = format!("{}{} chain {}", v.square_name(chain[0].0), dir.letter(), chain.len());
        match v.neighbour(last, dir) {
            None => {
                // The last piece falls off the edge.
                g.add_move_in(group, name, None, sorted(shifted(chain)), None);
            }
            Some(t) => {
                // Into the hole: the last piece is gone, the hole stays.
                let mut ch = shifted(chain);
                ch.push(Change::new(t, HOLE, HOLE));
                g.add_move_in(group, name.clone(), None, sorted(ch), None);
                // Onto an empty square (banned for the hole or not): nothing leaves the game;
                // if the last piece is the opponent's, the new mover may not push it back.
                let arrive = if colour(last_sym) == THEIRS { BANNED[dir.reverse().index()] } else { THEIRS };
                for empty in [EMPTY, HOLE_BANNED] {
                    if empty == HOLE_BANNED && marked {
                        continue;
                    }
                    let mut ch = shifted(chain);
                    ch.push(Change::new(t, empty, arrive));
                    g.add_move_in(group, name.clone(), None, sorted(ch), None);
                }
                // A further piece: the chain goes on.
                let mut next: Vec<(Symbol, bool)> = vec![(MINE, false), (THEIRS, false)];
                if !marked {
                    next.extend(BANNED.iter().map(|&b| (b, true)));
                }
                for (sym, m) in next {
                    chain.push((t, sym, m));
                    self.push_paths(g, group, dir, chain, swapped);
                    chain.pop();
                }
            }
        }
    }
}

fn sorted(mut ch: Vec<Change>) -> Vec<Change> {
    ch.sort_unstable();
    ch
}
