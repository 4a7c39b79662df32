//! Ostle by rank: an explicit retrograde solver with one byte per state, for variants of one
//! class (every removal ends the game: `pieces == lose_at + 1`, such as 5x5's 4 v 4 subgame).
//!
//! Plain board code like [`super::explicit`] (no DFA, no symbolic moves), but states are not
//! stored: a board is ranked by its hole square and the combinations of the mover's and the
//! opponent's squares, and a board's states follow one another in an array of bytes (no
//! forbidden move first, then each move of the board that can undo an opponent's move, in move
//! order). Each state's moves are counted once; then the solver walks back from the states
//! decided at each distance by unmoves, both cores at once, as retrograde tablebase builders
//! do. Memory: one byte per state plus one per board, instead of the hash maps and predecessor
//! lists of [`super::explicit::solve`] (about 300 bytes per state).

mod board;
mod check;

use super::explicit::{State, Value};
use super::{Dir, Rule, Variant};
use crate::error::{Error, Result};
use board::{Cursor, Geometry};
pub use check::IndexedCensus;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

/// Boards per block of the state offsets (a block's first state is stored, the rest summed).
const BLOCK: usize = 64;
/// Boards per parallel task.
const TASK: usize = BLOCK * 1024;
/// State bytes below this are undecided and hold the number of moves not yet seen to lose
/// (at most `4 · pieces + 4`, the pieces' moves and the hole's).
const DECIDED: u8 = 26;
/// The states of a checkmate position (won in one ply by a capture): they need no walk
/// back, since each state's count of open moves leaves out moves into them.
const CHECKMATE: u8 = u8::MAX;
/// The longest game the byte code holds (plies).
pub const MAX_PLIES: u32 = ((CHECKMATE - 1 - DECIDED) / 2) as u32;

/// The index of board `r`'s first state: its block's first state and the states of the
/// boards before it in the block.
fn first_state(markers: &[u8], block_start: &[u64], r: usize) -> usize {
    block_start[r / BLOCK] as usize + markers[r / BLOCK * BLOCK..r].iter().map(|&m| 1 + usize::from(m)).sum::<usize>()
}

fn code(v: Value) -> u8 {
    match v {
        Value::Win(d) => DECIDED + 2 * d as u8,
        Value::Loss(d) => DECIDED + 2 * d as u8 + 1,
        Value::Draw => 0,
    }
}

fn value_of(code: u8) -> Value {
    if code == CHECKMATE {
        Value::Win(1)
    } else if code < DECIDED {
        Value::Draw
    } else if (code - DECIDED).is_multiple_of(2) {
        Value::Win(u32::from(code - DECIDED) / 2)
    } else {
        Value::Loss(u32::from(code - DECIDED) / 2)
    }
}

/// The solved tables: a byte per state, states in board rank order.
pub struct IndexedTables {
    variant: Variant,
    geometry: Geometry,
    /// Possible forbidden moves per board.
    markers: Vec<u8>,
    /// The first state of every block of [`BLOCK`] boards.
    block_start: Vec<u64>,
    values: Vec<u8>,
}

/// What the solve measured, per level.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Level {
    /// Plies to the end.
    pub plies: u32,
    /// States decided at this distance.
    pub states: u64,
    /// Of them, wins for the mover.
    pub wins: u64,
    /// Seconds the level's walk back took.
    pub seconds: f64,
}

/// Check that `v` is a variant the indexed solver handles.
///
/// # Errors
/// [`Error::BadParameters`] for the class reading or a variant of more than one class.
pub fn check_variant(v: &Variant) -> Result<()> {
    if v.rule != Rule::Exact {
        return Err(Error::BadParameters("the indexed explicit solver reads the exact rule only".into()));
    }
    if 4 * v.pieces + 4 >= usize::from(DECIDED) {
        return Err(Error::BadParameters(format!(
            "the indexed explicit solver counts at most {} moves a state: pieces must be at most {}",
            DECIDED - 1,
            (usize::from(DECIDED) - 5) / 4
        )));
    }
    if v.pieces != v.lose_at + 1 {
        return Err(Error::BadParameters(format!(
            "the indexed explicit solver solves one class: pieces must be lose-at + 1 (got {} and {})",
            v.pieces, v.lose_at
        )));
    }
    Ok(())
}

/// Solve `v` by rank. `progress` hears a line per phase and level.
///
/// # Errors
/// As [`check_variant`], also for a variant with a game longer than [`MAX_PLIES`], and for
/// tables larger than `budget` bytes (refused once the states are counted, before they are
/// allocated).
pub fn solve(
    v: &Variant,
    budget: Option<u64>,
    progress: &(dyn Fn(String) + Sync),
) -> Result<(IndexedTables, Vec<Level>)> {
    check_variant(v)?;
    let g = Geometry::new(v);
    // At least a byte per board for its count of forbidden moves and one for its first
    // state, before anything is allocated.
    let least = u128::from(g.boards) * 2 + u128::from(g.boards) / BLOCK as u128 * 8;
    if let Some(budget) = budget
        && least > u128::from(budget)
    {
        return Err(Error::BadParameters(format!(
            "the tables need at least {} MiB for {} boards and the budget is {} MiB",
            least >> 20,
            g.boards,
            budget >> 20
        )));
    }
    let boards = usize::try_from(g.boards)
        .map_err(|_| Error::BadParameters(format!("{} boards do not fit this machine's addresses", g.boards)))?;
    let started = std::time::Instant::now();
    // Pass 1: the possible forbidden moves of every board, then each block's first state.
    let mut markers = vec![0u8; boards];
    markers.par_chunks_mut(TASK).enumerate().for_each(|(t, chunk)| {
        let mut cursor = Cursor::at(&g, (t * TASK) as u64);
        let mut list = Vec::with_capacity(24);
        for m in chunk.iter_mut() {
            g.markers(&cursor.board(&g), &mut list);
            *m = list.len() as u8;
            cursor.advance(&g);
        }
    });
    let block_sums: Vec<u64> = markers.par_chunks(BLOCK).map(|c| c.iter().map(|&m| 1 + u64::from(m)).sum()).collect();
    let mut block_start = Vec::with_capacity(block_sums.len() + 1);
    let mut total = 0u64;
    for s in block_sums {
        block_start.push(total);
        total += s;
    }
    block_start.push(total);
    progress(format!(
        "{} boards, {} states; forbidden moves counted in {:.0} s",
        g.boards,
        total,
        started.elapsed().as_secs_f64()
    ));
    let need = total + g.boards + 8 * block_start.len() as u64;
    if let Some(budget) = budget
        && need > budget
    {
        return Err(Error::BadParameters(format!(
            "the tables need {} MiB ({total} states and {} boards) and the budget is {} MiB",
            need >> 20,
            g.boards,
            budget >> 20
        )));
    }
    // Pass 2: count each state's moves; captures win at once, boards with no move that stays
    // lose.
    let mut values: Vec<AtomicU8> = Vec::new();
    values.resize_with(total as usize, || AtomicU8::new(0));
    let level_counts: Vec<AtomicU64> = (0..=MAX_PLIES + 1).map(|_| AtomicU64::new(0)).collect();
    let win_counts: Vec<AtomicU64> = (0..=MAX_PLIES + 1).map(|_| AtomicU64::new(0)).collect();
    // Which distances each task's boards have states at: the walk back skips the others (the
    // long tail of a game has few states at each distance).
    let tasks = boards.div_ceil(TASK);
    let present: Vec<[AtomicU64; 2]> = (0..tasks).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]).collect();
    let mark = |t: usize, d: u32| present[t][d as usize / 64].fetch_or(1 << (d % 64), Relaxed);
    (0..tasks).into_par_iter().for_each(|t| {
        let first = t * TASK;
        let mut cursor = Cursor::at(&g, first as u64);
        let mut at = block_start[first / BLOCK] as usize;
        let (mut wins, mut losses) = ([0u64; 3], [0u64; 3]);
        let (mut stay, mut list, mut into_mate) = (Vec::with_capacity(24), Vec::with_capacity(24), Vec::new());
        for m in &markers[first..boards.min(first + TASK)] {
            let b = cursor.board(&g);
            let slots = 1 + usize::from(*m);
            let (stays, captures, loses) = g.move_summary(&b);
            if captures {
                values[at..at + slots].iter().for_each(|c| c.store(CHECKMATE, Relaxed));
                wins[1] += slots as u64;
                at += slots;
                cursor.advance(&g);
                continue;
            }
            // Moves into a checkmate position lose in two plies whatever else happens: they
            // are not open.
            g.moves_that_stay(&b, &mut stay);
            into_mate.clear();
            into_mate.extend(stay.iter().map(|&(s, d)| g.can_capture(&g.play(&b, s.into(), d.into()))));
            let mates = into_mate.iter().filter(|&&x| x).count() as u8;
            g.markers(&b, &mut list);
            for slot in 0..slots {
                // The forbidden move, if it is an open one, is not.
                let (banned_open, banned_mate) = match slot {
                    0 => (0, 0),
                    _ => {
                        let f = list[slot - 1];
                        let mate = into_mate[stay.iter().position(|&x| x == f).expect("a forbidden move stays")];
                        (u8::from(!mate), u8::from(mate))
                    }
                };
                let open = stays - mates - banned_open;
                let c = if open > 0 {
                    open
                } else {
                    let d = if mates > banned_mate { 2 } else { usize::from(loses > 0) };
                    losses[d] += 1;
                    code(Value::Loss(d as u32))
                };
                values[at + slot].store(c, Relaxed);
            }
            at += slots;
            cursor.advance(&g);
        }
        for d in 0..3 {
            level_counts[d].fetch_add(losses[d] + wins[d], Relaxed);
            win_counts[d].fetch_add(wins[d], Relaxed);
            if losses[d] > 0 {
                mark(t, d as u32);
            }
        }
    });
    progress(format!("moves counted at {:.0} s", started.elapsed().as_secs_f64()));
    // The walk back, one distance at a time: a state one unmove before a loss at `d` wins at
    // `d + 1`; one whose last open move leads to a win at `d` loses at `d + 1`.
    let mut levels = Vec::new();
    let mut d = 0u32;
    while d <= 2 || level_counts[d as usize].load(Relaxed) > 0 {
        if d + 1 > MAX_PLIES {
            return Err(Error::BadParameters(format!(
                "a game longer than {MAX_PLIES} plies: the indexed solver's byte per state cannot hold it"
            )));
        }
        let level_started = std::time::Instant::now();
        let (win_code, loss_code) = (code(Value::Win(d)), code(Value::Loss(d)));
        let (next_win, next_loss) = (code(Value::Win(d + 1)), code(Value::Loss(d + 1)));
        let (found, found_wins) = (AtomicU64::new(0), AtomicU64::new(0));
        (0..tasks).into_par_iter().for_each(|t| {
            if present[t][d as usize / 64].load(Relaxed) >> (d % 64) & 1 == 0 {
                return;
            }
            let first = t * TASK;
            let mut at = block_start[first / BLOCK] as usize;
            let mut unmoves = Vec::with_capacity(64);
            let (mut q_markers, mut p_markers) = (Vec::with_capacity(24), Vec::with_capacity(24));
            let (mut new, mut new_wins) = (0u64, 0u64);
            for (i, m) in markers[first..boards.min(first + TASK)].iter().enumerate() {
                let slots = 1 + usize::from(*m);
                let here = &values[at..at + slots];
                if !here.iter().any(|c| matches!(c.load(Relaxed), x if x == win_code || x == loss_code)) {
                    at += slots;
                    continue;
                }
                let q = g.unrank((first + i) as u64);
                g.markers(&q, &mut q_markers);
                g.unmoves(&q, &mut unmoves);
                for (p, mv, undo) in &unmoves {
                    let slot = match undo {
                        None => 0,
                        Some(f) => {
                            1 + q_markers.iter().position(|x| x == f).expect("an undo is a possible forbidden move")
                        }
                    };
                    let source = here[slot].load(Relaxed);
                    if source != win_code && source != loss_code {
                        continue;
                    }
                    let r = g.rank(p) as usize;
                    g.markers(p, &mut p_markers);
                    let start = first_state(&markers, &block_start, r);
                    let banned = p_markers
                        .iter()
                        .position(|&(s, d)| usize::from(s) == mv.square && Dir::ALL[usize::from(d)] == mv.dir);
                    for slot in 0..=p_markers.len() {
                        if slot > 0 && banned == Some(slot - 1) {
                            continue;
                        }
                        let settled = values[start + slot].fetch_update(Relaxed, Relaxed, |c| {
                            if c >= DECIDED {
                                None
                            } else if source == loss_code {
                                Some(next_win)
                            } else if c == 1 {
                                Some(next_loss)
                            } else {
                                Some(c - 1)
                            }
                        });
                        if let Ok(c) = settled
                            && (source == loss_code || c == 1)
                        {
                            new += 1;
                            new_wins += u64::from(source == loss_code);
                            mark(r / TASK, d + 1);
                        }
                    }
                }
                at += slots;
            }
            found.fetch_add(new, Relaxed);
            found_wins.fetch_add(new_wins, Relaxed);
        });
        level_counts[d as usize + 1].fetch_add(found.load(Relaxed), Relaxed);
        win_counts[d as usize + 1].fetch_add(found_wins.load(Relaxed), Relaxed);
        let states = level_counts[d as usize].load(Relaxed);
        let wins = win_counts[d as usize].load(Relaxed);
        levels.push(Level { plies: d, states, wins, seconds: level_started.elapsed().as_secs_f64() });
        progress(format!(
            "plies {d}: {states} states, {:.1} s (at {:.0} s)",
            level_started.elapsed().as_secs_f64(),
            started.elapsed().as_secs_f64()
        ));
        d += 1;
    }
    let values = values.into_iter().map(AtomicU8::into_inner).collect();
    Ok((IndexedTables { variant: v.clone(), geometry: g, markers, block_start, values }, levels))
}

impl IndexedTables {
    /// The variant solved.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The value of `state`, if it is one of the tables' (both sides at `pieces` and its
    /// forbidden move one the board can have).
    pub fn value(&self, state: &State) -> Option<Value> {
        let g = &self.geometry;
        let b = g.board_of(&state.cells)?;
        let slot = match state.forbidden {
            None => 0,
            Some(f) => {
                let mut list = Vec::new();
                g.markers(&b, &mut list);
                1 + list.iter().position(|&(s, d)| usize::from(s) == f.square && Dir::ALL[usize::from(d)] == f.dir)?
            }
        };
        Some(value_of(self.values[first_state(&self.markers, &self.block_start, g.rank(&b) as usize) + slot]))
    }

    /// States in the tables.
    pub fn states(&self) -> u64 {
        self.values.len() as u64
    }

    /// Boards in the tables (each with its state without a forbidden move).
    pub fn boards(&self) -> u64 {
        self.geometry.boards
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variant(w: usize, h: usize, k: usize, t: usize) -> Variant {
        Variant { width: w, height: h, pieces: k, lose_at: t, rule: Rule::Exact }
    }

    /// Every state of a small variant follows from its moves by the plain rules; a changed
    /// byte is found.
    #[test]
    fn every_state_follows_from_its_moves_and_a_changed_one_is_found() {
        let v = variant(4, 4, 2, 1);
        let (mut t, _) = solve(&v, None, &|_| {}).unwrap();
        assert_eq!(t.check_sample(u64::MAX, 0).unwrap(), t.states());
        assert_eq!(t.check_sample(1000, 7).unwrap(), 1000);
        let i = t.values.iter().position(|&c| c >= DECIDED && c != CHECKMATE).unwrap();
        t.values[i] += 2;
        let e = t.check_sample(u64::MAX, 0).unwrap_err().to_string();
        assert!(e.contains("the tables say"), "{e}");
    }

    #[test]
    fn ranks_and_cursor_agree() {
        let v = variant(3, 4, 3, 2);
        let g = Geometry::new(&v);
        let mut cursor = Cursor::at(&g, 0);
        for r in 0..g.boards {
            let b = cursor.board(&g);
            assert_eq!(g.rank(&b), r);
            assert_eq!(g.unrank(r), b);
            assert_eq!((b.mine.count_ones(), b.theirs.count_ones()), (3, 3));
            assert_eq!((b.mine | b.theirs) & 1 << b.hole, 0);
            cursor.advance(&g);
        }
    }
}
