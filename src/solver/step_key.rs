//! The names of a solve's steps in its checkpoint directory: each step's file is
//! `{key}.dfas`, and its metadata repeats the key. One type writes and reads them all, so
//! that a name is never built or taken apart by hand.

use crate::vocabulary::Side;
use std::fmt;
use std::str::FromStr;

/// A step of a solve, as its checkpoint is named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepKey {
    /// `forward-0003`: the forward step from ply 3, so the positions reachable in exactly
    /// 4 plies (the run's record numbers them ply 4; the start, ply 0, has no file).
    Forward(u32),
    /// `backward-0003`, or `class-NAME-backward-0003` in a class: a retrograde iteration's
    /// new wins and new losses.
    Backward {
        /// The class being solved, in a solve by classes.
        class: Option<String>,
        /// The iteration, from 1.
        iteration: u32,
    },
    /// `backup-0003`: what the meet in the middle's backup valued first at that ply.
    Backup(u32),
    /// `meet-forward`: the record that a meet in the middle's forward plies are done, and
    /// how many there are ([`super::MeetJob::Forward`]).
    MeetForward,
    /// `class-NAME-lower-0003`: the lower classes' values at one distance, kept on disk while
    /// class NAME is solved.
    Lower {
        /// The class being solved.
        class: String,
        /// The distance.
        distance: u32,
    },
    /// `STEP-SIDE-PART`: the progress of one image of an unfinished iteration, or its
    /// running sets parked on disk.
    Journal {
        /// The iteration.
        step: Box<StepKey>,
        /// The side whose image it is.
        side: Side,
        /// Which image, or the parked sets.
        part: JournalPart,
    },
}

/// What a [`StepKey::Journal`] holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JournalPart {
    /// `wins`: the new wins' image.
    Wins,
    /// `losses`: the escape filter taken whole.
    Losses,
    /// `losses-by-part`: the escape filter by parts, the parts finished.
    LossesByPart,
    /// `losses-part-007`: the filter of one part.
    LossesPart(usize),
    /// `parked`: the running sets a class's loss step keeps on disk during its filter.
    Parked,
    /// `wins-part-003-of-008`: a backup ply's new wins within one of its regions, made by a
    /// job of its own ([`super::MeetJob::Part`]).
    WinsPart {
        /// The region, from 0.
        index: usize,
        /// The regions the ply is cut into.
        of: usize,
    },
}

impl StepKey {
    /// The journal `part` of side `side` in this iteration.
    pub fn journal(&self, side: Side, part: JournalPart) -> StepKey {
        StepKey::Journal { step: Box::new(self.clone()), side, part }
    }

    /// The class whose solve this step belongs to (`None`: a step outside any class).
    pub fn class(&self) -> Option<&str> {
        match self {
            StepKey::Backward { class, .. } => class.as_deref(),
            StepKey::Lower { class, .. } => Some(class),
            StepKey::Journal { step, .. } => step.class(),
            StepKey::Forward(_) | StepKey::Backup(_) | StepKey::MeetForward => None,
        }
    }

    /// Whether this is a journal (of an image or of parked sets), which a finished
    /// iteration removes.
    pub fn is_journal(&self) -> bool {
        matches!(self, StepKey::Journal { .. })
    }
}

impl fmt::Display for JournalPart {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JournalPart::Wins => write!(f, "wins"),
            JournalPart::Losses => write!(f, "losses"),
            JournalPart::LossesByPart => write!(f, "losses-by-part"),
            JournalPart::LossesPart(k) => write!(f, "losses-part-{k:03}"),
            JournalPart::Parked => write!(f, "parked"),
            JournalPart::WinsPart { index, of } => write!(f, "wins-part-{index:03}-of-{of:03}"),
        }
    }
}

impl fmt::Display for StepKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepKey::Forward(k) => write!(f, "forward-{k:04}"),
            StepKey::Backward { class: None, iteration } => write!(f, "backward-{iteration:04}"),
            StepKey::Backward { class: Some(c), iteration } => write!(f, "class-{c}-backward-{iteration:04}"),
            StepKey::Backup(k) => write!(f, "backup-{k:04}"),
            StepKey::MeetForward => write!(f, "meet-forward"),
            StepKey::Lower { class, distance } => write!(f, "class-{class}-lower-{distance:04}"),
            StepKey::Journal { step, side, part } => write!(f, "{step}-{side}-{part}"),
        }
    }
}

/// A name that is not a step's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotAStepKey(pub String);

impl fmt::Display for NotAStepKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not the name of a solve's step", self.0)
    }
}

impl std::error::Error for NotAStepKey {}

/// A part's number: three digits or more.
fn is_part_number(text: &str) -> bool {
    text.len() >= 3 && text.bytes().all(|b| b.is_ascii_digit())
}

/// A four-digit (or longer) number, as the keys write them.
fn number(text: &str) -> Option<u32> {
    (text.len() >= 4 && text.bytes().all(|b| b.is_ascii_digit())).then(|| text.parse().ok()).flatten()
}

impl FromStr for StepKey {
    type Err = NotAStepKey;

    fn from_str(text: &str) -> Result<StepKey, NotAStepKey> {
        let bad = || NotAStepKey(text.to_string());
        if text == "meet-forward" {
            return Ok(StepKey::MeetForward);
        }
        // A journal ends in its part, after the side.
        let parts = [
            ("-losses-by-part", Some(JournalPart::LossesByPart)),
            ("-wins", Some(JournalPart::Wins)),
            ("-losses", Some(JournalPart::Losses)),
            ("-parked", Some(JournalPart::Parked)),
            ("-losses-part-", None),
            ("-wins-part-", None),
        ];
        for (suffix, part) in parts {
            let (rest, part) = match part {
                Some(part) => match text.strip_suffix(suffix) {
                    Some(rest) => (rest, part),
                    None => continue,
                },
                None => match text.rsplit_once(suffix) {
                    Some((rest, k)) if suffix == "-losses-part-" && is_part_number(k) => {
                        (rest, JournalPart::LossesPart(k.parse().map_err(|_| bad())?))
                    }
                    Some((rest, k)) if suffix == "-wins-part-" => match k.split_once("-of-") {
                        Some((index, of)) if is_part_number(index) && is_part_number(of) => (
                            rest,
                            JournalPart::WinsPart {
                                index: index.parse().map_err(|_| bad())?,
                                of: of.parse().map_err(|_| bad())?,
                            },
                        ),
                        _ => continue,
                    },
                    _ => continue,
                },
            };
            let (step, side) = if let Some(step) = rest.strip_suffix("-first") {
                (step, Side::First)
            } else if let Some(step) = rest.strip_suffix("-second") {
                (step, Side::Second)
            } else {
                continue;
            };
            let step: StepKey = step.parse().map_err(|_| bad())?;
            if step.is_journal() {
                return Err(bad());
            }
            return Ok(StepKey::Journal { step: Box::new(step), side, part });
        }
        if let Some(k) = text.strip_prefix("forward-").and_then(number) {
            return Ok(StepKey::Forward(k));
        }
        if let Some(k) = text.strip_prefix("backup-").and_then(number) {
            return Ok(StepKey::Backup(k));
        }
        if let Some(n) = text.strip_prefix("backward-").and_then(number) {
            return Ok(StepKey::Backward { class: None, iteration: n });
        }
        let in_class = text.strip_prefix("class-").ok_or_else(bad)?;
        if let Some((class, n)) = in_class.rsplit_once("-backward-")
            && let Some(iteration) = number(n)
        {
            return Ok(StepKey::Backward { class: Some(class.to_string()), iteration });
        }
        if let Some((class, d)) = in_class.rsplit_once("-lower-")
            && let Some(distance) = number(d)
        {
            return Ok(StepKey::Lower { class: class.to_string(), distance });
        }
        Err(bad())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_reads_back_and_keeps_the_names_of_existing_checkpoints() {
        let iteration = StepKey::Backward { class: None, iteration: 3 };
        let in_class = StepKey::Backward { class: Some("5v4".into()), iteration: 12 };
        let keys = [
            (StepKey::Forward(7), "forward-0007"),
            (StepKey::Backup(41), "backup-0041"),
            (iteration.clone(), "backward-0003"),
            (in_class.clone(), "class-5v4-backward-0012"),
            (StepKey::Lower { class: "x-3".into(), distance: 146 }, "class-x-3-lower-0146"),
            (iteration.journal(Side::First, JournalPart::Wins), "backward-0003-first-wins"),
            (iteration.journal(Side::Second, JournalPart::Losses), "backward-0003-second-losses"),
            (in_class.journal(Side::First, JournalPart::LossesByPart), "class-5v4-backward-0012-first-losses-by-part"),
            (
                in_class.journal(Side::Second, JournalPart::LossesPart(7)),
                "class-5v4-backward-0012-second-losses-part-007",
            ),
            (in_class.journal(Side::First, JournalPart::Parked), "class-5v4-backward-0012-first-parked"),
            (
                StepKey::Backup(30).journal(Side::Second, JournalPart::WinsPart { index: 3, of: 8 }),
                "backup-0030-second-wins-part-003-of-008",
            ),
            (StepKey::MeetForward, "meet-forward"),
            (StepKey::Backward { class: None, iteration: 12345 }, "backward-12345"),
        ];
        for (key, name) in keys {
            assert_eq!(key.to_string(), name);
            assert_eq!(name.parse::<StepKey>(), Ok(key), "{name}");
        }
        for bad in [
            "",
            "backward-3",
            "forward-00x1",
            "backward-0003-third-wins",
            "class--",
            "backward-0003-first-wins-first-wins",
        ] {
            assert!(bad.parse::<StepKey>().is_err(), "{bad}");
        }
    }
}
