//! Values chosen by name from a fixed list: the library's enums that command lines and
//! files name (which side moves, a reading of a rule, a policy). The library knows their
//! names and what each means; with the `cli` feature, [`parser`] turns that into a
//! command-line value parser, so the enums themselves never name the parser's types.

#[cfg(feature = "cli")]
mod parser;
#[cfg(feature = "cli")]
pub use parser::{ChoiceParser, parser};

/// An enum whose values have names and one-line meanings.
pub trait Choice: Copy + PartialEq + Send + Sync + 'static {
    /// Every value, in the order they are listed.
    const ALL: &'static [Self];

    /// The value's name, as typed and as written in files.
    fn name(self) -> &'static str;

    /// What the value means, for the help text.
    fn help(self) -> &'static str;

    /// The value named `name`, if any.
    fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|c| c.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::Choice;
    use crate::games::breakthrough::SquareOrder;
    use crate::games::ostle::Rule;
    use crate::solved::explore::positions::ValueKind;
    use crate::solver::MirrorPolicy;
    use crate::vocabulary::Side;

    fn names_round_trip<T: Choice + std::fmt::Debug>() {
        let mut seen = std::collections::HashSet::new();
        for &c in T::ALL {
            assert!(seen.insert(c.name()), "{c:?}: a name used twice");
            assert_eq!(T::from_name(c.name()), Some(c));
            assert!(!c.help().is_empty(), "{c:?} says what it means");
        }
        assert_eq!(T::from_name("no such value"), None);
    }

    #[test]
    fn every_choice_is_found_by_its_own_name_only() {
        names_round_trip::<Side>();
        names_round_trip::<MirrorPolicy>();
        names_round_trip::<SquareOrder>();
        names_round_trip::<Rule>();
        names_round_trip::<ValueKind>();
    }
}
