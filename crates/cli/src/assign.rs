//! `streamlab assign --strategy range|roundrobin|sticky|cooperative-sticky`: the assignment a
//! Kafka assignor computes for the group read from stdin.
//!
//! Input is one JSON object, `{"topics": {"orders": 6}, "members": [{"id": "c1", "topics":
//! ["orders"], "owned": [["orders", 0]]}]}` (`owned` optional). Output is one JSON object on one
//! line mapping every member id, in byte order, to its sorted `[topic, partition]` pairs. Any
//! problem with the input is one line on stderr and exit status 2 (see `main`).

use crate::args::Flags;
use crate::CliError;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fmt;
use std::io::{Read, Write};
use streamlab_sim::assignor::{
    assign, Assignment, GroupSubscription, MemberSubscription, Strategy, TopicPartition,
};

pub const HELP: &str = "\
usage: streamlab assign --strategy range|roundrobin|sticky|cooperative-sticky

Reads a group from stdin, {\"topics\": {\"orders\": 6}, \"members\": [{\"id\": \"c1\", \"topics\":
[\"orders\"], \"owned\": [[\"orders\", 0]]}]} (\"owned\" optional), and prints one JSON object
mapping every member id to its [topic, partition] pairs, as Kafka's assignor would.";

pub fn run(args: &[OsString]) -> Result<(), CliError> {
    let flags = Flags::parse(args, &["strategy"])?;
    let strategy = parse_strategy(flags.required("strategy")?)?;
    let mut input = Vec::new();
    std::io::stdin().lock().read_to_end(&mut input)?;
    let group = parse_group(&input)?;
    let assignment = assign(strategy, &group).map_err(|error| CliError::new(error.to_string()))?;
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{}", render(&assignment))?;
    stdout.flush()?;
    Ok(())
}

fn parse_strategy(name: &str) -> Result<Strategy, CliError> {
    Strategy::parse(name).ok_or_else(|| {
        let known: Vec<&str> = Strategy::ALL.iter().map(|s| s.config_name()).collect();
        CliError::new(format!(
            "unknown strategy {name:?}; expected one of {}",
            known.join(", ")
        ))
    })
}

/// The group as the CLI contract spells it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GroupInput {
    #[serde(deserialize_with = "topics_without_duplicates")]
    topics: BTreeMap<String, i64>,
    members: Vec<MemberInput>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MemberInput {
    id: String,
    topics: Vec<String>,
    #[serde(default)]
    owned: Vec<(String, i64)>,
}

fn parse_group(input: &[u8]) -> Result<GroupSubscription, CliError> {
    let group: GroupInput = serde_json::from_slice(input)
        .map_err(|error| CliError::new(format!("malformed group JSON: {error}")))?;
    let topics = (group.topics.into_iter())
        .map(|(topic, count)| partition_count(&topic, count).map(|count| (topic, count)))
        .collect::<Result<_, _>>()?;
    let members = group
        .members
        .into_iter()
        .map(|member| MemberSubscription {
            id: member.id,
            topics: member.topics,
            owned: member
                .owned
                .into_iter()
                // A negative or huge partition number does not exist; the contract says such
                // owned partitions are ignored, and the assignor ignores numbers past the count.
                .filter_map(|(topic, partition)| {
                    u32::try_from(partition)
                        .ok()
                        .map(|partition| TopicPartition { topic, partition })
                })
                .collect(),
        })
        .collect();
    Ok(GroupSubscription { topics, members })
}

/// A topic's partition count: at least 1, and at most what Kafka's `int` holds.
fn partition_count(topic: &str, count: i64) -> Result<u32, CliError> {
    if count < 1 {
        return Err(CliError::new(format!(
            "topic {topic:?} has {count} partitions; a topic needs at least 1"
        )));
    }
    u32::try_from(count)
        .ok()
        .filter(|&count| count <= i32::MAX as u32)
        .ok_or_else(|| {
            CliError::new(format!(
                "topic {topic:?} has {count} partitions; at most {} are possible",
                i32::MAX
            ))
        })
}

/// serde_json keeps the last of two equal keys; a topic listed twice is a mistake worth naming.
fn topics_without_duplicates<'de, D>(deserializer: D) -> Result<BTreeMap<String, i64>, D::Error>
where
    D: Deserializer<'de>,
{
    struct TopicsVisitor;

    impl<'de> Visitor<'de> for TopicsVisitor {
        type Value = BTreeMap<String, i64>;

        fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
            formatter.write_str("an object mapping topic names to partition counts")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut topics = BTreeMap::new();
            while let Some((topic, count)) = map.next_entry::<String, i64>()? {
                if topics.contains_key(&topic) {
                    return Err(de::Error::custom(format!(
                        "topic {topic:?} is listed twice"
                    )));
                }
                topics.insert(topic, count);
            }
            Ok(topics)
        }
    }

    deserializer.deserialize_map(TopicsVisitor)
}

/// `{"c1":[["orders",0]],"c2":[]}`: `[topic, partition]` pairs, as the contract prints them.
fn render(assignment: &Assignment) -> String {
    let pairs: BTreeMap<&str, Vec<(&str, u32)>> = assignment
        .iter()
        .map(|(member, partitions)| {
            let pairs = partitions
                .iter()
                .map(|tp| (tp.topic.as_str(), tp.partition))
                .collect();
            (member.as_str(), pairs)
        })
        .collect();
    serde_json::to_string(&pairs).unwrap_or_else(|_| String::from("{}"))
}
