//! Resuming a long image part-way through: its partial result after each move group.
//!
//! An image by plans takes the move groups one after the other (`flat.rs`,
//! [`super::MoveGraph::without_path_into`]). On the largest sets one image runs for most of
//! an hour, so a run stopped in it would lose that much. The caller may be told the partial
//! result after each finished group ([`Resume::record`]) and keep it; a later run of the same
//! image hands it back ([`Resume::from`]) and starts with the next group. The unit is the
//! group, not the pass: how many passes a group takes depends on the memory at the time,
//! and the groups are the same in every run.

use crate::dfa::Dfa;

/// The state of an image after its first `groups_done` move groups.
#[derive(Clone, Debug, PartialEq)]
pub struct Partial {
    /// How many groups (in plan order) are done.
    pub groups_done: usize,
    /// The partial result: for a union of images, the images not yet merged with their
    /// merge ranks; for a filter, the one set of strings still left.
    pub sets: Vec<(u32, Dfa)>,
}

/// Called after each finished group with the number of groups done and the partial result.
pub type Recorder<'a> = &'a (dyn Fn(usize, &[(u32, &Dfa)]) + Sync);

/// How an image resumes and where it reports its progress.
pub struct Resume<'a> {
    /// The progress of an earlier run of the same image, if any.
    pub from: Option<Partial>,
    /// Told the progress after every finished group.
    pub record: Option<Recorder<'a>>,
}

impl Resume<'_> {
    /// From the start, reporting nothing.
    pub fn none() -> Resume<'static> {
        Resume { from: None, record: None }
    }

    /// Report that `groups_done` groups are finished, leaving `sets`.
    pub(super) fn report(&self, groups_done: usize, sets: &[(u32, &Dfa)]) {
        if let Some(record) = self.record {
            record(groups_done, sets);
        }
    }
}
