//! Share links: a scenario packed into a short, versioned, URL-safe string and back.
//!
//! Format: `<version>.<payload>`, the payload raw-DEFLATEd and written in unpadded base64url.
//!
//! * Version 1 (the first release) carries the whole scenario as JSON.
//! * Version 2 (written now) carries only what differs from a base scenario, the lesson's
//!   default, as a JSON merge patch ([`patch`]), DEFLATEd with a frozen preset dictionary of
//!   the scenarios' field names and values (`dictionary`): a lesson link with a few knobs
//!   turned and a crash stays well under 200 characters. JSON rather than postcard because a
//!   patch must say which fields it holds, which a self-describing format does and postcard
//!   cannot; the dictionary takes the field names' cost back, and a field added later does
//!   not disturb old links (a patch that does not name it leaves the default).
//!
//! Every released version keeps decoding (`tests/fixtures/links-v<N>.txt`). Decoding never
//! panics: every malformed link (unknown version, bad base64, bad compression, bad JSON,
//! out-of-range values) becomes a [`ShareError`] with a sentence a learner can read, and the
//! caller falls back to the lesson's default. [`query`] reads a whole `?s=…&t=…` query.

mod base64url;
mod dictionary;
mod fixed_deflate;
mod inflate;
pub mod json_tree;
pub mod patch;
pub mod query;
pub mod typed_tree;

pub use json_tree::{nearest_double, ReadDecimal};

use crate::invariant::{plain_json, Surely};
use crate::quote::{quote, shorten};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use std::fmt;
use typed_tree::{from_tree, TreeError};

/// The link format this build writes.
pub const LINK_FORMAT_VERSION: u32 = 2;

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

/// Packs `value` as what changed from `base` (format 2). Should the patch not reproduce
/// `value` exactly (a `null` merge patch cannot express), the whole value travels instead, in
/// format 1, so a link never shows something other than what its sender saw.
pub fn encode_against<T>(base: &T, value: &T) -> String
where
    T: Serialize + DeserializeOwned + PartialEq,
{
    let (base_json, value_json) = (plain_json(base), plain_json(value));
    let changes = patch::diff(&base_json, &value_json).unwrap_or(Value::Object(Default::default()));
    // What a reader of the link will rebuild: the base's tree with the changes applied.
    let mut rebuilt = base_json;
    let reproduces = patch::apply(&mut rebuilt, &changes).is_ok()
        && from_tree::<T>(rebuilt).is_ok_and(|decoded| decoded == *value);
    if reproduces {
        pack_changes(&changes)
    } else {
        encode_value(value)
    }
}

/// Packs a merge patch as a format 2 link, as it is (the fuzz tests feed it damaged ones).
pub fn pack_changes(changes: &Value) -> String {
    pack(
        2,
        &serde_json::to_vec(changes).surely("a JSON value serializes"),
    )
}

/// Reads a link of any released version: format 2 applies its changes to `base`, format 1
/// ignores `base`. Its decimals are read by `read_decimal` ([`json_tree::nearest_double`]
/// natively). The caller validates what the value means.
pub fn decode_against<T>(base: &T, link: &str, read_decimal: ReadDecimal) -> Result<T, ShareError>
where
    T: Serialize + DeserializeOwned,
{
    let (version, json) = unpack(link)?;
    let tree = read_tree(&json, read_decimal)?;
    let tree = match version {
        1 => tree,
        _ => {
            if !tree.is_object() {
                return Err(unreadable("its changes are not a list of fields"));
            }
            let mut value = plain_json(base);
            patch::apply(&mut value, &tree).map_err(|why| unreadable(&why))?;
            value
        }
    };
    from_tree(tree).map_err(malformed)
}

fn read_tree(json: &[u8], read_decimal: ReadDecimal) -> Result<Value, ShareError> {
    json_tree::read(json, read_decimal)
        .map_err(|why| unreadable(&format!("its scenario is malformed ({})", shorten(&why))))
}

/// Packs any serializable value whole, in format 1 (the event-time lessons wrote theirs this
/// way too; kept as the fallback of [`encode_against`] and to write the released fixture).
pub fn encode_value<T: Serialize>(value: &T) -> String {
    pack(
        1,
        &serde_json::to_vec(value).surely("plain data always serializes"),
    )
}

fn pack(version: u32, json: &[u8]) -> String {
    let compressed = match version {
        1 => fixed_deflate::deflate(&[], json),
        _ => dictionary::deflate(dictionary::DICTIONARY_V2, json),
    };
    format!("{version}.{}", base64url::encode(&compressed))
}

/// The version and the inflated JSON of a link.
fn unpack(link: &str) -> Result<(u32, Vec<u8>), ShareError> {
    if link.len() > MAX_LINK_CHARS {
        return Err(unreadable("it is too long"));
    }
    let Some((version, payload)) = link.split_once('.') else {
        return Err(unreadable("it has no version prefix"));
    };
    let version = match version.parse::<u32>() {
        Ok(v @ 1..=LINK_FORMAT_VERSION) => v,
        Ok(v) if v > LINK_FORMAT_VERSION => {
            return Err(unreadable(&format!(
                "it was made by a newer Streamlab (format {v})"
            )))
        }
        _ => {
            return Err(unreadable(&format!(
                "{} is not a link format this Streamlab knows",
                quote(version)
            )))
        }
    };
    let compressed =
        base64url::decode(payload).map_err(|_| unreadable("it is not valid base64url"))?;
    // Format 1 is plain DEFLATE; later formats are primed with the frozen dictionary.
    let dictionary = if version == 1 {
        &[][..]
    } else {
        dictionary::DICTIONARY_V2
    };
    let json = dictionary::inflate(dictionary, &compressed, MAX_INFLATED_BYTES)
        .ok_or_else(|| unreadable("its compressed data is damaged"))?;
    Ok((version, json))
}

fn malformed(e: TreeError) -> ShareError {
    // serde's message quotes the offending value, which a crafted link can make huge.
    unreadable(&format!("its scenario is malformed ({})", shorten(&e.0)))
}

/// The one sentence every unreadable link gets, with the reason.
pub fn unreadable(why: &str) -> ShareError {
    ShareError(format!("This link could not be read: {why}."))
}

#[cfg(test)]
mod compressor_comparison {
    //! The links the small encoder writes against those the general compressor wrote before
    //! (miniz at level 9, primed the same way), on every preset of every family.
    use super::*;
    use crate::family::preset::Preset;
    use miniz_oxide::deflate::core::{
        compress_to_output, create_comp_flags_from_zip_params, CompressorOxide, TDEFLFlush,
    };

    fn miniz(dictionary: &[u8], data: &[u8]) -> Vec<u8> {
        let mut compressor = CompressorOxide::new(create_comp_flags_from_zip_params(9, -15, 0));
        compress_to_output(&mut compressor, dictionary, TDEFLFlush::Sync, |_| true);
        let mut out = Vec::new();
        compress_to_output(&mut compressor, data, TDEFLFlush::Finish, |chunk| {
            out.extend_from_slice(chunk);
            true
        });
        out
    }

    /// For each preset: (its changes' bytes, ours and miniz's), (its whole value's, the same).
    type Sizes = ((usize, usize), (usize, usize));

    fn sizes<S: Serialize + Default>(presets: &[Preset<S>]) -> Vec<Sizes> {
        let base = plain_json(&S::default());
        let dictionary = dictionary::DICTIONARY_V2;
        presets
            .iter()
            .map(|preset| {
                let value = plain_json(&(preset.build)());
                let changes =
                    patch::diff(&base, &value).unwrap_or(Value::Object(Default::default()));
                let changes = serde_json::to_vec(&changes).unwrap();
                let whole = serde_json::to_vec(&value).unwrap();
                (
                    (
                        fixed_deflate::deflate(dictionary, &changes).len(),
                        miniz(dictionary, &changes).len(),
                    ),
                    (
                        fixed_deflate::deflate(&[], &whole).len(),
                        miniz(&[], &whole).len(),
                    ),
                )
            })
            .collect()
    }

    #[test]
    fn preset_links_are_no_longer_than_the_general_compressor_made_them() {
        let all = [
            sizes(crate::kafka::presets::PRESETS),
            sizes(crate::queues::PRESETS),
            sizes(crate::replication::PRESETS),
            sizes(crate::databases::PRESETS),
            sizes(crate::exactly_once::PRESETS),
            sizes(crate::joins::PRESETS),
            sizes(crate::eventtime::PRESETS),
        ]
        .concat();
        assert!(all.len() > 40, "{}", all.len());
        // Format 2, what the page writes: usually a few dozen bytes of changes, where fixed
        // codes and the cheapest parse are shorter than miniz's best; on the few changes of
        // some hundred bytes miniz's own Huffman tables start to pay, by a tenth at most.
        for ((ours, theirs), _) in &all {
            assert!(ours * 10 <= theirs * 11, "{ours} against {theirs}");
        }
        let total = |pick: fn(&Sizes) -> usize| all.iter().map(pick).sum::<usize>();
        let (ours, theirs) = (total(|s| s.0 .0), total(|s| s.0 .1));
        assert!(ours * 100 <= theirs * 95, "{ours} against {theirs}");
        // Format 1, the rare fallback of a whole scenario: a few hundred bytes, where miniz's
        // own Huffman tables pay; fixed codes cost at most a third more.
        for (_, (ours, theirs)) in &all {
            assert!(ours * 3 <= theirs * 4, "{ours} against {theirs}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kafka::scenario::{decode_link as decode, encode_link as encode, Scenario};

    #[test]
    fn a_link_round_trips() {
        let mut scenario = Scenario::default();
        scenario.seed = 12345;
        scenario.producer.key_skew = 1.37;
        let link = encode(&scenario);
        assert!(link.starts_with("2."));
        assert_eq!(decode(&link).unwrap(), scenario);
        assert!(
            link.len() < 80,
            "two changed fields make a short link: {link}"
        );
    }

    #[test]
    fn version_1_links_ignore_the_base() {
        let mut scenario = Scenario::default();
        scenario.seed = 7;
        let link = encode_value(&scenario);
        let mut other_base = Scenario::default();
        other_base.seed = 99;
        assert_eq!(
            decode_against(&other_base, &link, nearest_double).unwrap(),
            scenario
        );
    }

    #[test]
    fn a_patch_that_is_not_an_object_is_refused() {
        let link = pack(2, b"[1,2]");
        assert!(decode(&link)
            .unwrap_err()
            .0
            .contains("not a list of fields"));
    }

    #[test]
    fn garbage_gets_a_message_not_a_panic() {
        for bad in [
            "", "1.", "1.!!!", "x.abc", "99.abc", "1.AAAA", "no-dot", "2.", "0.AAAA",
        ] {
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

    #[test]
    fn what_a_crafted_link_names_is_quoted_short() {
        let huge = "x".repeat(30_000);
        let mut group = serde_json::Map::new();
        group.insert(
            "partition_assignment_strategy".into(),
            Value::from(huge.clone()),
        );
        let mut groups = serde_json::Map::new();
        groups.insert("0".into(), Value::Object(group));
        let mut changes = serde_json::Map::new();
        changes.insert("groups".into(), Value::Object(groups));
        let unknown_strategy = pack_changes(&Value::Object(changes));
        let mut missing_item = serde_json::Map::new();
        missing_item.insert(huge.clone(), Value::from(1));
        let mut changes = serde_json::Map::new();
        changes.insert("groups".into(), Value::Object(missing_item));
        let missing_item = pack_changes(&Value::Object(changes));
        let bad_version = format!("{}.AAAA", &huge[..10_000]);
        for link in [unknown_strategy, missing_item, bad_version] {
            let error = decode(&link).unwrap_err().0;
            assert!(error.contains("xxxx") && error.contains('…'), "{error}");
            assert!(error.chars().count() < 200, "{error}");
        }
    }
}
