//! One step of a meet in the middle as a job of its own (`docs/cluster.md`), so that a
//! plan can run a ply's parts side by side, on one machine or many. Each job resumes the
//! solve from its checkpoints, does its one step, saves it there, and stops:
//! * `forward`: the retrograde pass and the forward plies; its record says how many plies
//!   the backup has;
//! * `ply-K-part-I-of-N`: backup ply K's new wins within part I of N: the regions
//!   [`crate::dfa::Region::parts_of`] cuts the ply's positions into, dealt to the N parts in
//!   turn (a part past them is empty), saved as the ply's part file;
//! * `ply-K-of-N`: backup ply K, its new wins the union of its N parts (read from their
//!   files, those missing computed here), checkpointed as every ply is; the part files
//!   are removed then.
//!
//! The part files name their inputs by fingerprint: a part made from other sets is refused.
//! The values are those of the solve in one process, whatever the parts.

use std::fmt;
use std::str::FromStr;

/// A step of a meet in the middle run as a job (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeetJob {
    /// `forward`.
    Forward,
    /// `ply-K-part-I-of-N`.
    Part {
        /// The backup ply.
        ply: u32,
        /// The part, from 0.
        index: usize,
        /// The parts the ply is cut into.
        of: usize,
    },
    /// `ply-K-of-N`.
    Ply {
        /// The backup ply.
        ply: u32,
        /// The parts whose union are its new wins.
        of: usize,
    },
}

impl MeetJob {
    /// The backup ply the job is of (`None` for the forward job).
    pub fn ply(self) -> Option<u32> {
        match self {
            MeetJob::Forward => None,
            MeetJob::Part { ply, .. } | MeetJob::Ply { ply, .. } => Some(ply),
        }
    }
}

impl fmt::Display for MeetJob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MeetJob::Forward => write!(f, "forward"),
            MeetJob::Part { ply, index, of } => write!(f, "ply-{ply}-part-{index}-of-{of}"),
            MeetJob::Ply { ply, of } => write!(f, "ply-{ply}-of-{of}"),
        }
    }
}

impl FromStr for MeetJob {
    type Err = String;

    fn from_str(text: &str) -> Result<MeetJob, String> {
        let bad =
            || format!("{text:?} is not a step of a meet in the middle (forward, ply-K-part-I-of-N or ply-K-of-N)");
        if text == "forward" {
            return Ok(MeetJob::Forward);
        }
        let rest = text.strip_prefix("ply-").ok_or_else(bad)?;
        let number = |t: &str| t.parse::<usize>().map_err(|_| bad());
        let (head, of) = rest.rsplit_once("-of-").ok_or_else(bad)?;
        let of = number(of)?;
        if of == 0 {
            return Err(bad());
        }
        let job = match head.split_once("-part-") {
            Some((ply, index)) => {
                let index = number(index)?;
                if index >= of {
                    return Err(format!("{text:?}: part {index} of {of} (parts are numbered from 0)"));
                }
                MeetJob::Part { ply: number(ply)? as u32, index, of }
            }
            None => MeetJob::Ply { ply: number(head)? as u32, of },
        };
        Ok(job)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_names_read_back() {
        for job in [MeetJob::Forward, MeetJob::Part { ply: 30, index: 3, of: 8 }, MeetJob::Ply { ply: 0, of: 1 }] {
            assert_eq!(job.to_string().parse::<MeetJob>(), Ok(job));
        }
        for bad in ["", "ply-3", "ply-3-of-0", "ply-3-part-8-of-8", "ply-x-of-2", "forward-1", "ply--1-of-2"] {
            assert!(bad.parse::<MeetJob>().is_err(), "{bad}");
        }
    }
}
