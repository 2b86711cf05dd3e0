//! Results that cannot be errors, unwrapped without printing the error.
//!
//! `Result::expect` prints the error in its `Debug` form, so every browser bundle that calls it
//! downloads that printer (a struct's field names, a string's escaping, serde_json's error) for
//! a message no valid input can produce: about 0.8 KiB gzipped of each consumer-group lesson.
//! [`Surely::surely`] panics with the invariant's words alone; the panic overlay still shows
//! where.
//! [`plain_json`] is the commonest case: a report or a scenario as a JSON tree.

/// A result's value where an invariant says it is never an error.
pub trait Surely<T> {
    /// The value; a panic naming `invariant` (and not the error) if there is none.
    fn surely(self, invariant: &str) -> T;
}

impl<T, E> Surely<T> for Result<T, E> {
    #[track_caller]
    fn surely(self, invariant: &str) -> T {
        match self {
            Ok(value) => value,
            Err(_) => panic!("{invariant}"),
        }
    }
}

/// Plain data (structs, enums, numbers, strings, maps keyed by strings) as a JSON tree, which
/// cannot fail for such data.
pub fn plain_json(value: &impl serde::Serialize) -> serde_json::Value {
    serde_json::to_value(value).surely("plain data always serializes")
}

#[cfg(test)]
mod tests {
    use super::{plain_json, Surely};
    use crate::replay::sorted_map::SortedMap;

    #[test]
    fn the_value_comes_through() {
        assert_eq!(Ok::<u32, String>(7).surely("seven"), 7);
    }

    #[test]
    #[should_panic(expected = "plain data always serializes")]
    fn an_error_panics_with_the_invariant_alone() {
        Err::<u32, _>("the error's own text").surely("plain data always serializes");
    }

    #[test]
    fn plain_data_becomes_the_tree_its_json_text_reads_back_as() {
        let mut lag = SortedMap::new();
        lag.insert("search".to_string(), 12u64);
        assert_eq!(
            plain_json(&(lag, [0.5, 2.0], "p0")),
            serde_json::json!([{ "search": 12 }, [0.5, 2.0], "p0"])
        );
    }
}
