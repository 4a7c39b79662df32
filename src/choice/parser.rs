//! Command-line values of the library's [`Choice`] enums: their names and meanings become
//! the option's possible values (listed in `--help`, checked with clap's own messages).

use crate::choice::Choice;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use std::ffi::OsStr;
use std::marker::PhantomData;

/// The parser of a [`Choice`] option: `#[arg(long, value_parser = parser::<T>())]`.
#[derive(Clone, Copy, Debug)]
pub struct ChoiceParser<T>(PhantomData<T>);

/// The parser of option values of `T`.
pub fn parser<T: Choice>() -> ChoiceParser<T> {
    ChoiceParser(PhantomData)
}

impl<T: Choice> ChoiceParser<T> {
    fn values() -> impl Iterator<Item = PossibleValue> {
        T::ALL.iter().map(|c| PossibleValue::new(c.name()).help(c.help()))
    }
}

impl<T: Choice> TypedValueParser for ChoiceParser<T> {
    type Value = T;

    fn parse_ref(&self, cmd: &clap::Command, arg: Option<&clap::Arg>, value: &OsStr) -> Result<T, clap::Error> {
        let name = PossibleValuesParser::new(Self::values()).parse_ref(cmd, arg, value)?;
        Ok(T::from_name(&name).expect("the parser accepts listed names only"))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(Self::values()))
    }
}
