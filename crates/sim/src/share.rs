//! Share links: a Scenario packed into a short, versioned, URL-safe string and back.
//!
//! Format: `<version>.<payload>` where version 1's payload is the scenario's JSON, compressed
//! with raw DEFLATE and written in unpadded base64url. Decoding never panics: every malformed
//! link (unknown version, bad base64, bad compression, bad JSON, out-of-range values) becomes a
//! [`ShareError`] with a sentence a learner can read, and the caller falls back to a default.

use crate::scenario::Scenario;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt;

/// The link format this build writes.
pub const LINK_FORMAT_VERSION: u32 = 1;

/// Longest link payload accepted, and most bytes a payload may inflate to: a guard against
/// links crafted to exhaust memory.
const MAX_LINK_CHARS: usize = 16 * 1024;
const MAX_INFLATED_BYTES: usize = 64 * 1024;

/// Why a link could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShareError(pub String);

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ShareError {}

/// Packs a scenario into a link fragment.
pub fn encode(scenario: &Scenario) -> String {
    encode_value(scenario)
}

/// Reads a link fragment back into a valid scenario.
pub fn decode(link: &str) -> Result<Scenario, ShareError> {
    let scenario: Scenario = decode_value(link)?;
    scenario.validate().map_err(|e| unreadable(&e.0))?;
    Ok(scenario)
}

/// Packs any serializable value in the link format (the event-time lessons' scenarios use it
/// too, so every lesson's links share one format and one set of error messages).
pub fn encode_value<T: Serialize>(value: &T) -> String {
    let json = serde_json::to_vec(value).expect("plain data always serializes");
    let compressed = miniz_oxide::deflate::compress_to_vec(&json, 9);
    format!(
        "{LINK_FORMAT_VERSION}.{}",
        URL_SAFE_NO_PAD.encode(compressed)
    )
}

/// Reads a value packed by [`encode_value`]; the caller validates what it means.
pub fn decode_value<T: DeserializeOwned>(link: &str) -> Result<T, ShareError> {
    if link.len() > MAX_LINK_CHARS {
        return Err(unreadable("it is too long"));
    }
    let Some((version, payload)) = link.split_once('.') else {
        return Err(unreadable("it has no version prefix"));
    };
    match version.parse::<u32>() {
        Ok(1) => {}
        Ok(v) if v > LINK_FORMAT_VERSION => {
            return Err(unreadable(&format!(
                "it was made by a newer Streamlab (format {v})"
            )))
        }
        _ => {
            return Err(unreadable(&format!(
                "{version:?} is not a link format this Streamlab knows"
            )))
        }
    }
    let compressed = URL_SAFE_NO_PAD
        .decode(payload)
        .map_err(|_| unreadable("it is not valid base64url"))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&compressed, MAX_INFLATED_BYTES)
        .map_err(|_| unreadable("its compressed data is damaged"))?;
    serde_json::from_slice(&json)
        .map_err(|e| unreadable(&format!("its scenario is malformed ({e})")))
}

/// The one sentence every unreadable link gets, with the reason.
pub fn unreadable(why: &str) -> ShareError {
    ShareError(format!("This link could not be read: {why}."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_round_trips() {
        let mut scenario = Scenario::default();
        scenario.seed = 12345;
        scenario.producer.key_skew = 1.37;
        let link = encode(&scenario);
        assert!(link.starts_with("1."));
        assert_eq!(decode(&link).unwrap(), scenario);
    }

    #[test]
    fn garbage_gets_a_message_not_a_panic() {
        for bad in ["", "1.", "1.!!!", "x.abc", "99.abc", "1.AAAA", "no-dot"] {
            let error = decode(bad).unwrap_err();
            assert!(
                error.0.starts_with("This link could not be read"),
                "{bad}: {error}"
            );
        }
    }

    #[test]
    fn out_of_range_values_in_a_link_are_refused() {
        let mut scenario = Scenario::default();
        scenario.topic.partitions = 1000;
        let link = encode(&scenario);
        assert!(decode(&link).unwrap_err().0.contains("topic.partitions"));
    }
}
