//! Ostle(WxH, K, T): pushing pieces off the board or into the hole.
//!
//! Rules: `games/ostle/README.md` (and the project specification, §4). Two independent descriptions:
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
mod moves;
mod notation;
pub mod ranked;
pub mod subgame;
mod variant;

use crate::dfa::limits::Stoppable;
use crate::dfa::{Dfa, Shape, Symbol};
use crate::error::{Error, Result};
use crate::game::ExplicitRules;
use crate::game::Rules;
use crate::game::SolverHints;
use crate::game::{Game, GameParams, Position, PositionClass, Side, Status};
use crate::move_graph::{ListedMoves, MoveGraph};
use explicit::{Cell, Move, State};
use hashbrown::HashMap;
pub use variant::{Dir, Rule, Variant};

/// Ostle's saved formats besides the DFA solution: its class tables by rank.
pub static FORMATS: &[&dyn crate::solved::Format] = &[&ranked::TablesFormat];

impl crate::game::Params for Variant {
    const GAME: &'static str = "ostle";

    fn build(&self) -> Result<Box<dyn Game>> {
        Ok(Box::new(Ostle::new(self.clone())?))
    }
}

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

/// Ostle of one variant, as a [`Game`].
#[derive(Clone, Debug)]
pub struct Ostle {
    variant: Variant,
    shape: Shape,
    /// Class reading: the states whose forbidden move after some move differs from the exact
    /// reading's, with their moves written out (see [`Ostle::new`]).
    listed: Option<ListedMoves>,
}

/// The class reading lists the moves of every state on the boards where the readings differ
/// (about a kilobyte per board); above this many such boards, counted with multiplicity
/// before they are listed, it is refused. Ostle(5x5, 5, 3) has 3,385,504 (3,102,360 boards).
pub const CLASS_RULE_MAX_BOARDS: u128 = 4_000_000;

impl Ostle {
    /// The symbolic game of a checked variant.
    ///
    /// The move graph implements the exact reading of the no-undo rule. The class reading
    /// (the published rule, [`Variant::states_after`]) differs from it only after a move that
    /// removes nothing, when some move of the new mover other than the exact undo leads into a
    /// board symmetry of the position before (824 of 18,900 ongoing boards on 3x3 K3 T1, 2,192
    /// of 245,520 on 3x4 K3 T1, 3,840 on 4x4 K3 T2, 3,102,360 of about 2·10^10 on 5x5). Those boards are found from the moves that make the
    /// readings differ ([`Variant::almost_symmetric_boards`]), and every state on them gets
    /// its moves from the explicit rules ([`ListedMoves`], kept by board); the graph does the
    /// rest. So `verify` checks the class reading independently everywhere except on those
    /// states.
    ///
    /// # Errors
    /// [`Error::BadParameters`] from [`Variant::checked`], or for the class reading on a
    /// variant with more than [`CLASS_RULE_MAX_BOARDS`] boards where the readings differ.
    pub fn new(variant: Variant) -> Result<Ostle> {
        let variant = variant.checked()?;
        let shape = Shape::uniform(variant.squares(), SYMBOLS);
        let mut game = Ostle { variant, shape, listed: None };
        if game.variant.rule == Rule::Class {
            game.listed = Some(game.class_rule_moves()?);
        }
        Ok(game)
    }

    /// Every state on a board where the readings differ, with its class-reading successors
    /// from a table of each board's moves.
    fn class_rule_moves(&self) -> Result<ListedMoves> {
        use rayon::prelude::*;
        let v = self.variant.clone();
        let candidates = v.almost_symmetric_candidates();
        if candidates > CLASS_RULE_MAX_BOARDS {
            return Err(Error::BadParameters(format!(
                "the class reading of the no-undo rule lists the moves of every board where it differs from the \
                 exact reading; this variant has up to {candidates} such boards, more than the {CLASS_RULE_MAX_BOARDS} \
                 it lists (use the exact rule)"
            )));
        }
        let boards = v.almost_symmetric_boards();
        let sources = boards
            .par_chunks(4096)
            .map(|chunk| {
                let states: Vec<Vec<Symbol>> = chunk
                    .iter()
                    .flat_map(|cells| {
                        let forbidden = std::iter::once(None).chain(v.all_moves(cells).into_iter().map(Some));
                        forbidden.map(|forbidden| v.encode(&State { cells: cells.clone(), forbidden }))
                    })
                    .collect();
                Ok(Dfa::from_strings(&self.shape, &states))
            })
            .try_reduce(|| Dfa::reject_all(&self.shape), |a, b| a.union(&b))?;
        // Each board's moves and where they lead; a state has them all but its forbidden one.
        let moves: Vec<Vec<(Move, Vec<Symbol>)>> = boards
            .par_iter()
            .map(|cells| {
                let v = &v;
                v.all_moves(cells)
                    .into_iter()
                    .flat_map(|m| v.states_after(cells, m).into_iter().map(move |s| (m, v.encode(&s))))
                    .collect()
            })
            .collect();
        let table: HashMap<Vec<Cell>, Vec<(Move, Vec<Symbol>)>> = boards.into_iter().zip(moves).collect();
        let successors = move |state: &[Symbol]| -> Vec<Vec<Symbol>> {
            let Some(s) = v.decode(state) else { return Vec::new() };
            let moves = table.get(&s.cells).map_or(&[][..], Vec::as_slice);
            moves.iter().filter(|(m, _)| Some(*m) != s.forbidden).map(|(_, next)| next.clone()).collect()
        };
        Ok(ListedMoves::new(sources, std::sync::Arc::new(successors)))
    }

    /// The variant.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    fn mover_symbols() -> [Symbol; 5] {
        [MINE, BANNED[0], BANNED[1], BANNED[2], BANNED[3]]
    }

    /// Boards with one hole, no marker and both piece counts in `lo..=pieces`.
    ///
    /// # Errors
    /// An [`EngineStop`](crate::dfa::limits::EngineStop).
    pub fn boards(&self, lo_mine: usize, lo_theirs: usize) -> Stoppable<Dfa> {
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
    ///
    /// # Errors
    /// An [`EngineStop`](crate::dfa::limits::EngineStop).
    pub fn ongoing_boards(&self) -> Stoppable<Dfa> {
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

impl Rules for Ostle {
    fn name(&self) -> String {
        let v = &self.variant;
        format!("ostle {}x{} k{} t{} {}", v.width, v.height, v.pieces, v.lose_at, v.rule.name())
    }

    fn params(&self) -> GameParams {
        GameParams::of(&self.variant)
    }

    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn initial(&self) -> Position {
        Position { side: Side::First, board: self.variant.encode(&self.variant.initial_state()) }
    }

    /// The possibly reachable states (results of a non-terminal move of any board) and the
    /// initial state. Closed under moves, and exactly the states the published counts use.
    fn universe(&self, _side: Side) -> Stoppable<Dfa> {
        let moves = self.solver_moves(Side::First)?;
        let reachable = moves.forward(&self.ongoing_boards()?)?;
        reachable.union(&Dfa::from_string(&self.shape, &self.initial().board))
    }

    fn lost_terminal(&self, _side: Side) -> Stoppable<Dfa> {
        Ok(self.down_to_limit(false))
    }

    fn won_terminal(&self, _side: Side) -> Stoppable<Dfa> {
        self.down_to_limit(true).difference(&self.down_to_limit(false))
    }

    fn moves(&self, _side: Side) -> Stoppable<MoveGraph> {
        Ok(self.move_graph())
    }

    /// The class reading's listed states (see [`Ostle::new`]); none for the exact reading.
    fn listed_moves(&self, _side: Side) -> Option<ListedMoves> {
        self.listed.clone()
    }

    fn has_draws(&self) -> bool {
        true
    }

    fn render(&self, pos: &Position) -> String {
        let v = &self.variant;
        match v.decode(&pos.board) {
            Some(s) => v.position_text(&s, pos.side),
            None => format!("{:?}", pos.board),
        }
    }

    fn draw(&self, pos: &Position, mover: Side) -> String {
        let v = &self.variant;
        match v.decode(&pos.board) {
            Some(state) => v.draw(&state, mover),
            None => self.render(pos),
        }
    }

    fn parse(&self, text: &str) -> Result<Position> {
        let (s, side) = self.variant.parse_position(text)?;
        Ok(Position { side, board: self.variant.encode(&s) })
    }

    fn pieces(&self, pos: &Position, side: Side) -> Option<usize> {
        // Boards are from the mover's view: `side`'s pieces are the mover's if it moves.
        let own = if side == pos.side { Cell::Mine } else { Cell::Theirs };
        Some(self.variant.decode(&pos.board)?.cells.iter().filter(|&&c| c == own).count())
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

impl ExplicitRules for Ostle {
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
}

impl SolverHints for Ostle {
    /// None: a player whose game is not over has a piece, and a piece can always move (a push
    /// ends at an empty square, the hole or the edge), in at least three directions, so the
    /// forbidden move never leaves it without one. (Tests compare with the explicit rules.)
    fn stuck(&self, _side: Side) -> Stoppable<Option<Dfa>> {
        Ok(Some(Dfa::reject_all(&self.shape)))
    }

    /// The pieces on the board, `{p, q}` whoever moves (strings are from the mover's view): a
    /// move removes at most one piece, so `{p, q}` leads only to itself, `{p - 1, q}` and
    /// `{p, q - 1}`. Named `PvQ` with `P ≥ Q`.
    fn classes(&self) -> Stoppable<Vec<PositionClass>> {
        let (lo, hi) = (self.variant.lose_at, self.variant.pieces);
        let mut pairs: Vec<(usize, usize)> = (lo..=hi).flat_map(|p| (lo..=p).map(move |q| (p, q))).collect();
        pairs.sort_by_key(|&(p, q)| (p + q, p));
        let n = self.variant.squares();
        let (s, mover) = (&self.shape, Self::mover_symbols());
        let mine = |k: usize| Dfa::count_between(s, 0..n, |c| mover.contains(&c), k, k);
        let theirs = |k: usize| Dfa::count_between(s, 0..n, |c| c == THEIRS, k, k);
        let index = |p: usize, q: usize| pairs.iter().position(|&c| c == (p.max(q), p.min(q)));
        pairs
            .iter()
            .map(|&(p, q)| {
                let set = mine(p).intersection(&theirs(q))?;
                let set = if p == q { set } else { set.union(&mine(q).intersection(&theirs(p))?)? };
                let mut successors: Vec<usize> = [(p.wrapping_sub(1), q), (p, q.wrapping_sub(1))]
                    .into_iter()
                    .filter(|&(a, b)| a >= lo && a <= hi && b >= lo && b <= hi)
                    .filter_map(|(a, b)| index(a, b))
                    .collect();
                // From P v P either side losing a piece gives the same class: read it once.
                successors.dedup();
                Ok(PositionClass { name: format!("{p}v{q}"), set, successors })
            })
            .collect()
    }

    /// Where the hole is, one part per square: every position has exactly one hole, and a
    /// part fixes a layer of every string, so its sets are much smaller than the whole's.
    fn filter_parts(&self, _side: Side) -> Stoppable<Vec<Dfa>> {
        Ok((0..self.variant.squares()).map(|k| Dfa::from_allowed(&self.shape, |l, c| l != k || c == HOLE)).collect())
    }

    fn mover_relative(&self) -> bool {
        true
    }
}
