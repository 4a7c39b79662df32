//! How the explicit tables lie in files and in memory: one container for every table and
//! checkpoint file ([`container`]), and the memory maps they are read through ([`mapped`]).
//! Names no game: each format is a [`container::Format`] its owner declares.

pub mod container;
pub mod mapped;
