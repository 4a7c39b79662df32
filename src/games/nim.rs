//! Nim, normal play: N heaps of up to M tokens; a move takes one or more tokens from one heap;
//! the player who cannot move loses.
//!
//! Encoding: one layer per heap, symbol = heap size `0..=M`. See `games/nim/README.md`.

use crate::dfa::limits::Stoppable;
use crate::dfa::{Change, Dfa, DfaBuilder, Shape, StateId, Symbol};
use crate::error::{Error, Result};
use crate::game::ExplicitRules;
use crate::game::Rules;
use crate::game::SolverHints;
use crate::game::{Game, GameParams, Outcome, Position, PositionClass, Side, Status};
use crate::move_graph::MoveGraph;
use crate::solved::Solution;

/// Which Nim: the options of `dfasolve nim` (with the `cli` feature) and the `"nim"` object
/// of files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::Args))]
pub struct NimParams {
    /// Number of heaps, 1..=64.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 4))]
    pub heaps: usize,
    /// Tokens each heap starts with, 1..=255.
    #[cfg_attr(feature = "cli", arg(long, default_value_t = 7))]
    pub tokens: usize,
}

impl NimParams {
    /// The game.
    ///
    /// # Errors
    /// [`Error::BadParameters`] for sizes [`Nim::new`] refuses.
    pub fn game(self) -> Result<Nim> {
        Nim::new(self.heaps, self.tokens)
    }
}

impl crate::game::Params for NimParams {
    const GAME: &'static str = "nim";

    fn build(&self) -> Result<Box<dyn Game>> {
        Ok(Box::new((*self).game()?))
    }
}

/// Nim with `heaps` heaps that start with `tokens` tokens each.
#[derive(Clone, Debug)]
pub struct Nim {
    heaps: usize,
    tokens: usize,
    shape: Shape,
}

impl Nim {
    /// Largest heap size the one-byte symbols can hold.
    pub const MAX_TOKENS: usize = 255;
    /// Most heaps accepted (the set sizes stay tiny; this only bounds rendering and counts).
    pub const MAX_HEAPS: usize = 64;

    /// Nim with `heaps` heaps of `tokens` tokens.
    ///
    /// # Errors
    /// [`Error::BadParameters`] for zero heaps/tokens or sizes the encoding cannot hold.
    pub fn new(heaps: usize, tokens: usize) -> Result<Nim> {
        if !(1..=Self::MAX_HEAPS).contains(&heaps) {
            return Err(Error::BadParameters(format!("nim needs 1..={} heaps, got {heaps}", Self::MAX_HEAPS)));
        }
        if !(1..=Self::MAX_TOKENS).contains(&tokens) {
            return Err(Error::BadParameters(format!(
                "nim needs 1..={} tokens per heap, got {tokens}",
                Self::MAX_TOKENS
            )));
        }
        Ok(Nim { heaps, tokens, shape: Shape::uniform(heaps, tokens as u16 + 1) })
    }

    /// Positions whose heap sizes XOR to 0, built directly from Bouton's rule (a DFA whose state
    /// is the XOR so far), independently of any solving. The solver's losing set must equal it.
    pub fn xor_zero(&self) -> Dfa {
        let width = (self.tokens + 1).next_power_of_two();
        let mut b = DfaBuilder::new(&self.shape);
        // below[x] = state after reading the heaps so far with XOR x.
        let mut below: Vec<StateId> =
            (0..width).map(|x| if x == 0 { StateId::ACCEPT } else { StateId::REJECT }).collect();
        for l in (0..self.heaps).rev() {
            below = (0..width)
                .map(|x| {
                    let row: Vec<StateId> = (0..=self.tokens).map(|h| below[x ^ h]).collect();
                    b.add(l, &row)
                })
                .collect();
        }
        b.finish(below[0])
    }

    /// Positions with exactly `total` tokens left (a DFA whose state is the sum so far).
    pub fn tokens_left(&self, total: usize) -> Dfa {
        let mut b = DfaBuilder::new(&self.shape);
        // below[k] = state after reading the heaps so far with k tokens in them.
        let mut below: Vec<StateId> =
            (0..=total).map(|k| if k == total { StateId::ACCEPT } else { StateId::REJECT }).collect();
        for l in (0..self.heaps).rev() {
            below = (0..=total)
                .map(|k| {
                    let row: Vec<StateId> = (0..=self.tokens)
                        .map(|h| if k + h <= total { below[k + h] } else { StateId::REJECT })
                        .collect();
                    b.add(l, &row)
                })
                .collect();
        }
        b.finish(below[0])
    }
}

impl Rules for Nim {
    fn name(&self) -> String {
        format!("nim {}x{}", self.heaps, self.tokens)
    }

    fn params(&self) -> GameParams {
        GameParams::of(&NimParams { heaps: self.heaps, tokens: self.tokens })
    }

    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn initial(&self) -> Position {
        Position { side: Side::First, board: vec![self.tokens as Symbol; self.heaps] }
    }

    fn universe(&self, _side: Side) -> Stoppable<Dfa> {
        Ok(Dfa::accept_all(&self.shape))
    }

    fn lost_terminal(&self, _side: Side) -> Stoppable<Dfa> {
        Ok(Dfa::from_string(&self.shape, &vec![0; self.heaps]))
    }

    /// Per heap, a chain of "take one token" nodes: node (i, v) changes heap i from v to v-1.
    /// The input enters the chain at any v, the output leaves after any node, so every path is
    /// "take k ≥ 1 tokens from heap i" and the graph has N·M nodes for N·M(M+1)/2 moves.
    fn moves(&self, _side: Side) -> Stoppable<MoveGraph> {
        let mut g = MoveGraph::new(&self.shape);
        for heap in 0..self.heaps {
            let mut above = None;
            for v in (1..=self.tokens).rev() {
                let node = g.add_node(
                    format!("heap {heap}: {v}->{}", v - 1),
                    vec![Change::new(heap, v as Symbol, v as Symbol - 1)],
                );
                g.add_edge(MoveGraph::INPUT, node, None);
                if let Some(prev) = above {
                    g.add_edge(prev, node, None);
                }
                g.add_edge(node, MoveGraph::OUTPUT, None);
                above = Some(node);
            }
        }
        Ok(g)
    }

    fn render(&self, pos: &Position) -> String {
        let heaps: Vec<String> = pos.board.iter().map(|h| h.to_string()).collect();
        format!("{} {}", heaps.join(","), pos.side)
    }

    fn parse(&self, text: &str) -> Result<Position> {
        let bad = |msg: String| {
            Error::BadPosition(format!(
                "nim: {msg} (expected heaps then the side, e.g. the start, \"{}\")",
                self.render(&self.initial())
            ))
        };
        let side_word = |w: &str| match w {
            "first" => Some(Side::First),
            "second" => Some(Side::Second),
            _ => None,
        };
        let mut tokens: Vec<&str> = text.split_whitespace().collect();
        let side = tokens.last().and_then(|w| side_word(w));
        if side.is_some() {
            tokens.pop();
        } else if let Some(at) = tokens.iter().position(|w| side_word(w).is_some()) {
            return Err(bad(format!("unexpected {:?} after the side to move", tokens[at + 1..].join(" "))));
        }
        let words: Vec<&str> = tokens.iter().flat_map(|t| t.split(',')).collect();
        if words.iter().any(|w| w.is_empty()) {
            return Err(bad("an empty heap size (a ',' too many?)".into()));
        }
        if words.len() != self.heaps {
            return Err(bad(format!("{} heap sizes given, this game has {}", words.len(), self.heaps)));
        }
        let board = words
            .iter()
            .map(|w| match w.parse::<usize>() {
                Ok(h) if h <= self.tokens => Ok(h as Symbol),
                Ok(h) => Err(bad(format!("heap size {h} above the maximum {}", self.tokens))),
                Err(_) => Err(bad(format!("{w:?} is not a heap size"))),
            })
            .collect::<Result<Vec<Symbol>>>()?;
        Ok(Position { side: side.unwrap_or(Side::First), board })
    }

    fn move_name(&self, from: &Position, to: &Position) -> String {
        match (0..self.heaps).find(|&i| from.board[i] != to.board[i]) {
            Some(i) => format!("take {} from heap {}", from.board[i] - to.board[i], i + 1),
            None => "pass".into(),
        }
    }
}

impl ExplicitRules for Nim {
    fn explicit_moves(&self, pos: &Position) -> Vec<Position> {
        let mut out = Vec::new();
        for heap in 0..self.heaps {
            for smaller in 0..pos.board[heap] {
                let mut board = pos.board.clone();
                board[heap] = smaller;
                out.push(Position { side: pos.side.other(), board });
            }
        }
        out
    }

    fn explicit_status(&self, pos: &Position) -> Status {
        if pos.board.iter().all(|&h| h == 0) { Status::Lost } else { Status::Ongoing }
    }
}

impl SolverHints for Nim {
    /// The tokens left: every move takes some, so each class's moves all lead to lower ones.
    fn classes(&self) -> Stoppable<Vec<PositionClass>> {
        Ok((0..=self.heaps * self.tokens)
            .map(|t| PositionClass { name: format!("{t}"), set: self.tokens_left(t), successors: (0..t).collect() })
            .collect())
    }

    /// Nim is impartial and its strings do not say who moves, so they already read the same
    /// from either side: the solver does one side's work for both.
    fn mover_relative(&self) -> bool {
        true
    }
}

/// What the check of a Nim solution against Bouton's rule found.
#[derive(Clone, Debug, serde::Serialize)]
pub struct XorCheck {
    /// One line for the report.
    pub summary: String,
    /// Positions whose heap sizes XOR to 0 (the losses for the player to move); `None` above
    /// `u128::MAX`.
    #[serde(serialize_with = "crate::counts::serialize_opt")]
    pub losing: Option<u128>,
    /// DFA states of that set.
    pub losing_states: usize,
    /// All positions; `None` above `u128::MAX`.
    #[serde(serialize_with = "crate::counts::serialize_opt")]
    pub positions: Option<u128>,
}

impl Nim {
    /// Compare the solved losing and winning sets with the XOR-zero set of Bouton's rule, for
    /// both sides to move: a loss exactly when the XOR is 0, and every position decided for
    /// some side (a meet-in-the-middle solve covers what the start reaches with each side to
    /// move, and must agree with XOR exactly there).
    ///
    /// # Errors
    /// [`Error::Verification`] naming a position where they disagree, or one left undecided.
    pub fn check_xor(&self, solution: &Solution) -> Result<XorCheck> {
        let xor0 = self.xor_zero();
        let all = Dfa::accept_all(self.shape());
        // Nim's sets are small: a class stored as a rest is made a set here.
        let solution = &solution.with_rest_as_sets()?;
        let mut covered_any = Dfa::reject_all(self.shape());
        for side in Side::BOTH {
            let union_of = |pred: &dyn Fn(Outcome) -> bool| {
                let sets: Vec<&Dfa> =
                    solution.classes.iter().filter(|c| c.side == side && pred(c.outcome)).map(|c| &c.set).collect();
                Dfa::union_all(self.shape(), &sets)
            };
            let losing = union_of(&|o| matches!(o, Outcome::Loss { .. }))?;
            let winning = union_of(&|o| matches!(o, Outcome::Win { .. }))?;
            let wrong = losing.difference(&xor0)?.union(&winning.intersection(&xor0)?)?;
            if let Some(board) = wrong.iter().next() {
                let example = self.render(&Position { side, board });
                return Err(Error::Verification(format!(
                    "Nim solution disagrees with the XOR rule ({side} to move) at {example}"
                )));
            }
            covered_any = covered_any.union(&losing.union(&winning)?)?;
        }
        if covered_any != all {
            let missing = all
                .difference(&covered_any)?
                .iter()
                .next()
                .map(|b| self.render(&Position { side: Side::First, board: b }));
            return Err(Error::Verification(format!(
                "the solution leaves positions undecided for both sides, e.g. {missing:?}"
            )));
        }
        Ok(XorCheck {
            summary: "every position agrees with Bouton's rule (loss iff XOR = 0)".into(),
            losing: xor0.checked_count(),
            losing_states: xor0.nontrivial_state_count(),
            positions: all.checked_count(),
        })
    }
}
