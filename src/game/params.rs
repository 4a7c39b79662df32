//! The parameters that name a game in files and reports.

use crate::error::{Error, Result};

/// A game's own parameter type: what its command line takes and its files store.
pub trait Params: serde::Serialize + serde::de::DeserializeOwned {
    /// The name that tags these parameters in files, e.g. `nim`.
    const GAME: &'static str;

    /// The game they describe.
    ///
    /// # Errors
    /// [`Error::BadParameters`] if the game does not accept them.
    fn build(&self) -> Result<Box<dyn super::Game>>;
}

/// A game and its parameters, as files store them: a JSON object tagged by `"game"`, with the
/// fields of that game's own parameter type, e.g. `{"game":"counters","heaps":4,"tokens":7}`.
///
/// Invariant: the value is an object whose `"game"` is a string. Keys are kept in sorted order
/// (`serde_json`'s map), so the same parameters always write the same bytes. Which names and
/// fields exist is the table of games' business (`crate::games`), not this type's.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "serde_json::Value", into = "serde_json::Value")]
pub struct GameParams(serde_json::Value);

impl GameParams {
    /// The parameters `fields` of the game `game`.
    ///
    /// # Panics
    /// If `fields` does not serialize to a JSON object without a `"game"` key: a parameter
    /// type is a plain struct, so this is a programming error.
    pub fn tagged<T: serde::Serialize>(game: &str, fields: &T) -> GameParams {
        let mut value = serde_json::to_value(fields).expect("game parameters are plain JSON");
        let object = value.as_object_mut().expect("game parameters are a struct");
        assert!(object.insert("game".into(), game.into()).is_none(), "a parameter named \"game\"");
        GameParams(value)
    }

    /// The parameters `fields` of their game.
    pub fn of<P: Params>(fields: &P) -> GameParams {
        GameParams::tagged(P::GAME, fields)
    }

    /// The game's name, e.g. `nim`.
    pub fn game(&self) -> &str {
        self.0["game"].as_str().expect("checked on construction")
    }

    /// The fields as the parameter type `T` of the game `game`; `None` if these parameters
    /// name another game.
    ///
    /// # Errors
    /// [`Error::BadParameters`] if they name `game` but its fields do not fit `T`.
    pub fn fields<T: serde::de::DeserializeOwned>(&self, game: &str) -> Result<Option<T>> {
        if self.game() != game {
            return Ok(None);
        }
        let mut value = self.0.clone();
        value.as_object_mut().expect("checked on construction").remove("game");
        serde_json::from_value(value).map(Some).map_err(|e| Error::BadParameters(format!("{game}: {e}")))
    }

    /// The JSON form stored in files.
    pub fn to_json(&self) -> serde_json::Value {
        self.0.clone()
    }

    /// Read the JSON form stored in files.
    ///
    /// # Errors
    /// [`Error::UnknownGame`] if it does not name a game (not an object, or no `"game"` string).
    pub fn from_json(value: &serde_json::Value) -> Result<GameParams> {
        match value.get("game") {
            Some(serde_json::Value::String(_)) if value.is_object() => Ok(GameParams(value.clone())),
            _ => Err(Error::UnknownGame("?".into())),
        }
    }
}

impl TryFrom<serde_json::Value> for GameParams {
    type Error = Error;
    fn try_from(value: serde_json::Value) -> Result<GameParams> {
        GameParams::from_json(&value)
    }
}

impl From<GameParams> for serde_json::Value {
    fn from(params: GameParams) -> serde_json::Value {
        params.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Heaps {
        heaps: u32,
        tokens: u32,
    }

    #[test]
    fn tagged_parameters_read_back_as_their_own_type_only() {
        let params = GameParams::tagged("counters", &Heaps { heaps: 2, tokens: 3 });
        assert_eq!(params.to_json().to_string(), r#"{"game":"counters","heaps":2,"tokens":3}"#);
        assert_eq!(params.fields::<Heaps>("counters").unwrap(), Some(Heaps { heaps: 2, tokens: 3 }));
        assert_eq!(params.fields::<Heaps>("chess").unwrap(), None);
        assert_eq!(GameParams::from_json(&params.to_json()).unwrap(), params);
    }

    #[test]
    fn parameters_without_a_game_or_of_the_wrong_form_are_refused() {
        let untagged = serde_json::json!({ "heaps": 2 });
        assert!(matches!(GameParams::from_json(&untagged), Err(Error::UnknownGame(_))));
        assert!(matches!(GameParams::from_json(&serde_json::json!(3)), Err(Error::UnknownGame(_))));
        let wrong =
            GameParams::from_json(&serde_json::json!({ "game": "counters", "heaps": "two", "tokens": 3 })).unwrap();
        assert!(matches!(wrong.fields::<Heaps>("counters"), Err(Error::BadParameters(_))));
    }
}
