//! The side mirror in the retrograde pass: the second side's new sets taken from the first
//! side's by the game's side mirror ([`SolverHints::side_mirror`](crate::game::SolverHints::side_mirror)) instead of images of
//! their own, within a memory budget.

use crate::dfa::Dfa;
use crate::dfa::limits::Stoppable;
use crate::game::SideMirror;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// When a retrograde iteration takes the second side's sets from the first side's by the
/// game's side mirror instead of computing their own images.
///
/// Mirroring replaces the second side's images by one reversal of each new set. The reversal
/// is a subset construction, so it costs CPU of the same order as the images it replaces but
/// far less memory (figures in `docs/engine-notes.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MirrorPolicy {
    /// Compute both sides' images.
    Never,
    /// Mirror in the iterations that compute the sides in turn to save memory (undecided sets
    /// above a few million states), where the second side's images are the largest step.
    Large,
    /// Mirror in every iteration.
    Always,
}

impl crate::choice::Choice for MirrorPolicy {
    const ALL: &'static [MirrorPolicy] = &[MirrorPolicy::Never, MirrorPolicy::Large, MirrorPolicy::Always];

    fn name(self) -> &'static str {
        match self {
            MirrorPolicy::Never => "never",
            MirrorPolicy::Large => "large",
            MirrorPolicy::Always => "always",
        }
    }

    fn help(self) -> &'static str {
        match self {
            MirrorPolicy::Never => "Compute both sides' images",
            MirrorPolicy::Large => {
                "Mirror in the iterations that compute the sides in turn to save memory (undecided sets above a few \
                 million states), where the second side's images are the largest step"
            }
            MirrorPolicy::Always => "Mirror in every iteration",
        }
    }
}

/// The default side-mirror budget (ids per state of the set, plus a base): rotating a
/// Breakthrough set usually needs about as many states as the set, but a few sets need
/// hundreds of times that (`docs/engine-notes.md`, `MirrorPolicy`).
pub(super) const MIRROR_BUDGET: (usize, usize) = (32, 1 << 24);

/// The game's side mirror with the solve's policy and budget.
pub(super) struct Mirror {
    /// The game's side mirror, if it has one.
    side_mirror: Option<SideMirror>,
    /// When the retrograde pass uses it.
    policy: MirrorPolicy,
    /// The side mirror of a set may hold `per_state · states + base` ids before the iteration
    /// computes the second side's images instead.
    budget: (usize, usize),
    /// The fewest states of a set whose mirror ran over its budget in this solve: larger sets
    /// are not tried again (a refused rotation costs as much as the images it would save).
    refused_at: AtomicUsize,
}

/// How an iteration computes its two sides' images: both at once, or one after the other
/// (large sets, where two at once would double the peak memory).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SidesComputed {
    Together,
    InTurn,
}

impl Mirror {
    pub(super) fn new(side_mirror: Option<SideMirror>, policy: MirrorPolicy, budget: (usize, usize)) -> Mirror {
        Mirror { side_mirror, policy, budget, refused_at: AtomicUsize::new(usize::MAX) }
    }

    /// Whether an iteration that computes its sides `sides` mirrors. Under
    /// [`MirrorPolicy::Large`] a mirror that costs one relabelling pass is used in every
    /// iteration: it is always cheaper than the images it replaces.
    pub(super) fn applies(&self, sides: SidesComputed) -> bool {
        self.side_mirror.is_some_and(|m| match self.policy {
            MirrorPolicy::Never => false,
            MirrorPolicy::Large => sides == SidesComputed::InTurn || m.is_cheap(),
            MirrorPolicy::Always => true,
        })
    }

    /// The mirror image of `set`, or `None` when it would run over the budget (or a set as
    /// large already did).
    pub(super) fn apply(&self, set: &Dfa) -> Stoppable<Option<Dfa>> {
        let Some(m) = self.side_mirror else { return Ok(None) };
        let t = Instant::now();
        if set.state_count() >= self.refused_at.load(Ordering::Relaxed) {
            tracing::debug!(target: "dfasolve::solver", "{:>12}: skipped, a set as large was over budget before", "mirror");
            return Ok(None);
        }
        let (per_state, base) = self.budget;
        let budget = set.state_count().saturating_mul(per_state).saturating_add(base);
        let out = m.apply_bounded(set, budget)?;
        if out.is_none() {
            self.refused_at.fetch_min(set.state_count(), Ordering::Relaxed);
        }
        let states = out.as_ref().map_or("over budget".into(), |d| format!("{} states", d.nontrivial_state_count()));
        tracing::debug!(target: "dfasolve::solver", "{:>12}: {:8.3} s, {states}", "mirror", t.elapsed().as_secs_f64());
        Ok(out)
    }
}
