//! Counts of positions in reports. Sets count exactly up to `u128::MAX`; JSON numbers are
//! read as 64-bit (or as doubles) by most tools, so a count above `u64::MAX` goes into JSON
//! as an exact decimal string, and a count above `u128::MAX` (not known) as `null`.

use serde::Serializer;

/// The JSON form of a count: a number up to `u64::MAX`, an exact decimal string above.
fn json(n: u128) -> serde_json::Value {
    match u64::try_from(n) {
        Ok(small) => serde_json::Value::from(small),
        Err(_) => serde_json::Value::String(n.to_string()),
    }
}

/// [`json`] of a count that may be unknown (above `u128::MAX`): `null` then.
fn json_opt(n: Option<u128>) -> serde_json::Value {
    n.map_or(serde_json::Value::Null, json)
}

/// Serde `serialize_with` for a `u128` count: a number up to `u64::MAX`, an exact decimal
/// string above.
///
/// # Errors
/// The serializer's.
pub fn serialize<S: Serializer>(n: &u128, s: S) -> Result<S::Ok, S::Error> {
    match u64::try_from(*n) {
        Ok(small) => s.serialize_u64(small),
        Err(_) => s.collect_str(n),
    }
}

/// Serde `serialize_with` for an `Option<u128>` count.
///
/// # Errors
/// The serializer's.
pub fn serialize_opt<S: Serializer>(n: &Option<u128>, s: S) -> Result<S::Ok, S::Error> {
    match n {
        Some(n) => serialize(n, s),
        None => s.serialize_none(),
    }
}

/// Serde `serialize_with` for a list of counts that may be unknown (`null` then).
///
/// # Errors
/// The serializer's.
pub fn serialize_all_opt<S: Serializer>(ns: &[Option<u128>], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeSeq;
    let mut seq = s.serialize_seq(Some(ns.len()))?;
    for n in ns {
        seq.serialize_element(&json_opt(*n))?;
    }
    seq.end()
}

/// `n` followed by the noun that fits it: `1 set`, `2 sets`, `0 plies` (`one` and `many` are
/// the two forms).
pub fn counted(n: impl Into<u128>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// An estimate: with thousands separators up to 10^12, then as a power of ten.
pub fn about(x: f64) -> String {
    if x < 1e12 {
        human(Some(x.round() as u128))
    } else {
        let exponent = x.log10().floor();
        format!("{:.1} x 10^{exponent}", x / 10f64.powf(exponent))
    }
}

/// `n` with thousands separators (`> u128` when not known).
pub fn human(n: Option<u128>) -> String {
    match n {
        None => "> u128".into(),
        Some(n) => {
            let s = n.to_string();
            let mut out = String::new();
            for (i, ch) in s.chars().enumerate() {
                if i > 0 && (s.len() - i) % 3 == 0 {
                    out.push(',');
                }
                out.push(ch);
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize)]
    struct Row {
        #[serde(serialize_with = "serialize")]
        n: u128,
        #[serde(serialize_with = "serialize_opt")]
        m: Option<u128>,
        #[serde(serialize_with = "serialize_all_opt")]
        all: Vec<Option<u128>>,
    }

    #[test]
    fn counts_beyond_u64_are_exact_strings_and_unknown_counts_null() {
        let big = u128::from(u64::MAX) + 1;
        let row = Row { n: big, m: None, all: vec![Some(7), Some(u128::MAX), None] };
        let v = serde_json::to_value(&row).unwrap();
        assert_eq!(v["n"], serde_json::json!("18446744073709551616"));
        assert_eq!(v["m"], serde_json::Value::Null);
        assert_eq!(v["all"], serde_json::json!([7, u128::MAX.to_string(), null]));
        assert_eq!(json(u128::from(u64::MAX)), serde_json::json!(u64::MAX));
        assert_eq!(json_opt(Some(3)), serde_json::json!(3));
    }
}
