//! The compact JSON of an `OffsetsCommitted` event, written field by field for the trace
//! hash. A consumer that commits after every poll tells one of these per poll: tens of
//! thousands in a ten-minute delivery run, most of its events. serde writes an [`Event`]
//! through its path for a flattened, internally tagged enum, which builds the object as a map
//! and escapes every key; writing the fixed parts as bytes gives the same JSON several times
//! faster, and the trace folds the fixed parts in one step each ([`Literal`]). The bytes must
//! be exactly serde's, or every run's trace hash would change: the tests hold them equal for
//! any commit event, and the trace's fold equal to the fold of those bytes.

use crate::invariant::Surely;
use crate::kafka::events::{CommitCause, Event, EventKind, PartitionOffset};
use crate::replay::trace::{Literal, TraceHasher};

/// Where a commit's JSON goes: the trace hash, folding the bytes as they come (the fixed runs
/// in one step each); or, in the tests, a buffer to hold them to serde's bytes.
pub(crate) trait JsonOut {
    fn literal(&mut self, literal: &'static Literal);
    fn bytes(&mut self, bytes: &[u8]);
}

#[cfg(test)]
impl JsonOut for Vec<u8> {
    fn literal(&mut self, literal: &'static Literal) {
        self.extend_from_slice(literal.bytes());
    }

    fn bytes(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

impl JsonOut for TraceHasher {
    fn literal(&mut self, literal: &'static Literal) {
        self.write_literal(literal);
    }

    fn bytes(&mut self, bytes: &[u8]) {
        self.write_bytes(bytes);
    }
}

static AT_MS: Literal = Literal::new(b"{\"at_ms\":");
static GROUP_ID: Literal = Literal::new(b",\"type\":\"offsets_committed\",\"group_id\":\"");
static MEMBER_ID: Literal = Literal::new(b"\",\"member_id\":\"");
static OFFSETS: Literal = Literal::new(b"\",\"offsets\":[");
static PARTITION: Literal = Literal::new(b"{\"partition\":");
static OFFSET: Literal = Literal::new(b",\"offset\":");

/// Writes `event`'s compact JSON (the bytes `serde_json::to_vec` makes of it) into `out` and
/// returns true if it is a commit event; leaves `out` alone and returns false otherwise.
pub(crate) fn write_commit_json(event: &Event, out: &mut impl JsonOut) -> bool {
    let EventKind::OffsetsCommitted {
        group_id,
        member_id,
        offsets,
        cause,
    } = &event.kind
    else {
        return false;
    };
    out.literal(&AT_MS);
    write_integer(out, event.at_ms);
    out.literal(&GROUP_ID);
    write_string_content(out, group_id);
    out.literal(&MEMBER_ID);
    write_string_content(out, member_id);
    out.literal(&OFFSETS);
    write_offsets(out, offsets);
    out.literal(cause_and_end(*cause));
    true
}

fn write_offsets(out: &mut impl JsonOut, offsets: &[PartitionOffset]) {
    for (index, offset) in offsets.iter().enumerate() {
        if index > 0 {
            out.bytes(b",");
        }
        out.literal(&PARTITION);
        write_integer(out, offset.partition);
        out.literal(&OFFSET);
        write_integer(out, offset.offset);
        out.bytes(b"}");
    }
}

fn write_integer(out: &mut impl JsonOut, value: impl itoa::Integer) {
    out.bytes(itoa::Buffer::new().format(value).as_bytes());
}

/// A string's content between its quotes, as serde writes it. Ids are the learner's (a group
/// id in a scenario file may hold a quote): those that need escaping go through serde.
fn write_string_content(out: &mut impl JsonOut, text: &str) {
    let plain = |byte: &u8| *byte >= 0x20 && *byte != b'"' && *byte != b'\\';
    if text.as_bytes().iter().all(plain) {
        out.bytes(text.as_bytes());
    } else {
        let quoted = serde_json::to_vec(text).surely("a string always serializes");
        out.bytes(&quoted[1..quoted.len() - 1]);
    }
}

/// The end of a commit's JSON: the list's close, the cause as serde names it, the object's
/// close. Spelled out so it folds in one step; the tests hold each name to serde's.
fn cause_and_end(cause: CommitCause) -> &'static Literal {
    static AUTO_COMMIT: Literal = Literal::new(b"],\"cause\":\"auto_commit\"}");
    static BEFORE_REVOKE: Literal = Literal::new(b"],\"cause\":\"before_revoke\"}");
    static ON_CLOSE: Literal = Literal::new(b"],\"cause\":\"on_close\"}");
    static BEFORE_PROCESSING: Literal = Literal::new(b"],\"cause\":\"before_processing\"}");
    static AFTER_BATCH: Literal = Literal::new(b"],\"cause\":\"after_batch\"}");
    match cause {
        CommitCause::AutoCommit => &AUTO_COMMIT,
        CommitCause::BeforeRevoke => &BEFORE_REVOKE,
        CommitCause::OnClose => &ON_CLOSE,
        CommitCause::BeforeProcessing => &BEFORE_PROCESSING,
        CommitCause::AfterBatch => &AFTER_BATCH,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignor::Strategy as Assignor;
    use crate::kafka::events::RebalanceReason;
    use proptest::prelude::*;

    fn causes() -> impl Strategy<Value = CommitCause> {
        prop_oneof![
            Just(CommitCause::AutoCommit),
            Just(CommitCause::BeforeRevoke),
            Just(CommitCause::OnClose),
            Just(CommitCause::BeforeProcessing),
            Just(CommitCause::AfterBatch),
        ]
    }

    /// Ids as a learner may write them, quotes, backslashes, control (DEL too) and non-ASCII
    /// characters included.
    fn ids() -> impl Strategy<Value = String> {
        prop_oneof!["[a-z0-9-]{1,12}", "[a-z\"\\\\\u{1}\u{7f}\n\t/é€😀]{0,6}",]
    }

    fn commits() -> impl Strategy<Value = Event> {
        let offset = (any::<u32>(), any::<u64>())
            .prop_map(|(partition, offset)| PartitionOffset { partition, offset });
        (
            any::<u64>(),
            ids(),
            ids(),
            prop::collection::vec(offset, 0..5),
            causes(),
        )
            .prop_map(|(at_ms, group_id, member_id, offsets, cause)| Event {
                at_ms,
                kind: EventKind::OffsetsCommitted {
                    group_id: group_id.into(),
                    member_id: member_id.into(),
                    offsets: offsets.into(),
                    cause,
                },
            })
    }

    proptest! {
        #[test]
        fn a_commit_is_written_as_serde_writes_it(event in commits()) {
            let mut written = b"left alone".to_vec();
            prop_assert!(write_commit_json(&event, &mut written));
            let expected = [&b"left alone"[..], &serde_json::to_vec(&event).unwrap()].concat();
            prop_assert_eq!(String::from_utf8(written).unwrap(), String::from_utf8(expected).unwrap());
        }

        #[test]
        fn a_commit_folds_into_the_trace_as_serde_bytes_do(event in commits(), before: u64) {
            let mut folded = TraceHasher::default();
            folded.write_u64(before);
            let mut expected = folded;
            prop_assert!(write_commit_json(&event, &mut folded));
            expected.write_bytes(&serde_json::to_vec(&event).unwrap());
            prop_assert_eq!(folded, expected);
        }
    }

    #[test]
    fn any_other_event_is_left_to_serde() {
        let event = Event {
            at_ms: 5,
            kind: EventKind::RebalanceStarted {
                group_id: "g".into(),
                generation: 1,
                strategy: Assignor::Range,
                reason: RebalanceReason::MemberJoined {
                    member_id: "c1".into(),
                },
            },
        };
        let mut written = Vec::new();
        assert!(!write_commit_json(&event, &mut written));
        assert!(written.is_empty());
        let mut trace = TraceHasher::default();
        assert!(!write_commit_json(&event, &mut trace));
        assert_eq!(trace, TraceHasher::default());
    }
}
