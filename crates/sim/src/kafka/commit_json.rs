//! The compact JSON of an `OffsetsCommitted` event, written field by field for the trace
//! hash. A consumer that commits after every poll tells one of these per poll: tens of
//! thousands in a ten-minute delivery run, most of its events. serde writes an [`Event`]
//! through its path for a flattened, internally tagged enum, which builds the object as a map
//! and escapes every key; writing the fixed parts as bytes gives the same JSON several times
//! faster. The bytes must be exactly serde's, or every run's trace hash would change: the
//! tests hold them equal for any commit event.

use crate::kafka::events::{CommitCause, Event, EventKind, PartitionOffset};

/// Writes `event`'s compact JSON (the bytes `serde_json::to_vec` makes of it) into `out` and
/// returns true if it is a commit event; leaves `out` alone and returns false otherwise.
pub(crate) fn write_commit_json(event: &Event, out: &mut Vec<u8>) -> bool {
    let EventKind::OffsetsCommitted {
        group_id,
        member_id,
        offsets,
        cause,
    } = &event.kind
    else {
        return false;
    };
    out.extend_from_slice(b"{\"at_ms\":");
    write_integer(out, event.at_ms);
    out.extend_from_slice(b",\"type\":\"offsets_committed\",\"group_id\":");
    write_string(out, group_id);
    out.extend_from_slice(b",\"member_id\":");
    write_string(out, member_id);
    out.extend_from_slice(b",\"offsets\":[");
    write_offsets(out, offsets);
    out.extend_from_slice(b"],\"cause\":");
    write_cause(out, *cause);
    out.push(b'}');
    true
}

fn write_offsets(out: &mut Vec<u8>, offsets: &[PartitionOffset]) {
    for (index, offset) in offsets.iter().enumerate() {
        if index > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"partition\":");
        write_integer(out, offset.partition);
        out.extend_from_slice(b",\"offset\":");
        write_integer(out, offset.offset);
        out.push(b'}');
    }
}

fn write_integer(out: &mut Vec<u8>, value: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
}

/// Ids are the learner's (a group id in a scenario file may hold a quote): serde escapes them.
fn write_string(out: &mut Vec<u8>, text: &str) {
    serde_json::to_writer(out, text).expect("a string always serializes");
}

/// The cause's name as serde spells it, so a renamed variant cannot drift from it.
fn write_cause(out: &mut Vec<u8>, cause: CommitCause) {
    serde_json::to_writer(out, &cause).expect("a unit variant always serializes");
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

    /// Ids as a learner may write them, quotes, backslashes, control and non-ASCII
    /// characters included.
    fn ids() -> impl Strategy<Value = String> {
        prop_oneof!["[a-z0-9-]{1,12}", "[a-z\"\\\\\u{1}\n\t/é€😀]{0,6}",]
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
                    offsets,
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
    }
}
