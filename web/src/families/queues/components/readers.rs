//! The three readers of one topic, side by side: for each, its consumers (alive or dead, what
//! each holds, which partitions it reads) and its headline figures; under them, what each
//! reader keeps of the topic: the log's partitions with the consumer group's committed offsets,
//! each share-partition's in-flight window between SPSO and SPEO (every record's state, by a
//! letter as well as a colour), and the queue's ready head and dead letters.

use crate::platform::shared::Shared;
use streamlab_sim::family::{Figure, Figures};
use streamlab_sim::queues::share_partition::RecordState;
use streamlab_sim::queues::{
    ConsumerPicture, QueuesSnapshot, Reader, ReaderPicture, SharePartitionPicture,
};
use yew::prelude::*;

/// Records of a share-partition's window, or of the queue's head, drawn as cells.
const CELLS: usize = 60;

/// The words a learner reads for each reader.
pub fn reader_name(reader: Reader) -> &'static str {
    match reader {
        Reader::ConsumerGroup => "Consumer group",
        Reader::ShareGroup => "Share group",
        Reader::Queue => "Queue",
    }
}

/// Which system each reader is.
fn reader_system(reader: Reader) -> &'static str {
    match reader {
        Reader::ConsumerGroup => "Kafka: one member per partition",
        Reader::ShareGroup => "Kafka 4 (KIP-932): records of a partition to many members",
        Reader::Queue => "AMQP (RabbitMQ): messages pushed up to each consumer's prefetch",
    }
}

#[derive(Properties, PartialEq)]
pub struct ReadersProps {
    pub snapshot: Shared<QueuesSnapshot>,
    pub figures: Shared<Figures>,
}

#[function_component(Readers)]
pub fn readers(props: &ReadersProps) -> Html {
    let snapshot = &props.snapshot;
    html! {
        <div class="q-readers">
            { for snapshot.readers.iter().map(|reader| html! {
                <section class={classes!("q-reader", reader.reader.name())} aria-label={reader_name(reader.reader)}>
                    <h3>{ reader_name(reader.reader) }</h3>
                    <p class="q-system">{ reader_system(reader.reader) }</p>
                    { consumers(reader) }
                    { counters(reader, props.figures.get(reader.reader.name())) }
                    { holdings(snapshot, reader.reader) }
                </section>
            }) }
        </div>
    }
}

/// One chip per consumer: its id, whether it is alive, what it holds.
fn consumers(reader: &ReaderPicture) -> Html {
    html! {
        <ul class="q-consumers">
            { for reader.consumers.iter().map(|c| {
                let state = consumer_state(c);
                let reads = if c.partitions.is_empty() {
                    String::new()
                } else {
                    let ps: Vec<String> = c.partitions.iter().map(|p| format!("p{p}")).collect();
                    format!(" · {}", ps.join(" "))
                };
                html! {
                    <li class={classes!("q-consumer", state)} title={format!("c{}: {state}, holds {}", c.id + 1, c.holding)}>
                        <span class="id">{ format!("c{}", c.id + 1) }</span>
                        if !c.alive { <span class="mark" aria-label="dead">{ "✕" }</span> }
                        <span class="holds">{ format!("{}{reads}", c.holding) }</span>
                    </li>
                }
            }) }
        </ul>
    }
}

fn consumer_state(c: &ConsumerPicture) -> &'static str {
    match (c.alive, c.in_group, c.working_on.is_some()) {
        (false, _, _) => "dead",
        (true, false, _) => "out",
        (true, true, true) => "busy",
        (true, true, false) => "idle",
    }
}

/// The reader's figures, by the names the CLI prints.
fn counters(reader: &ReaderPicture, figures: Option<&Figure>) -> Html {
    let value = |name: &str| match figures {
        Some(Figure::Group(group)) => match group.get(name) {
            Some(Figure::Count(v)) => Some(v.to_string()),
            Some(Figure::Ratio(v)) => Some(format!("{v:.1}")),
            _ => None,
        },
        _ => None,
    };
    let rows: Vec<(&str, &str)> = vec![
        ("throughput_per_s", "records/s completed"),
        ("order_inversions", "per-key order inversions"),
        ("redelivered", "redelivered"),
        ("archived", "archived"),
        ("dead_lettered", "dead-lettered"),
        ("readable_history", "past records a late reader can read"),
    ];
    html! {
        <dl class="q-counters">
            <div><dt>{ "completed" }</dt><dd>{ reader.completed }</dd></div>
            <div><dt>{ "waiting" }</dt><dd>{ reader.backlog }</dd></div>
            { for rows.into_iter().filter_map(|(name, words)| value(name).map(|v| html! {
                <div class={classes!((name == "order_inversions" && v != "0").then_some("warn"))}>
                    <dt>{ words }</dt><dd data-figure={name}>{ v }</dd>
                </div>
            })) }
        </dl>
    }
}

/// What the reader keeps of the topic.
fn holdings(snapshot: &QueuesSnapshot, reader: Reader) -> Html {
    match reader {
        Reader::ConsumerGroup => html! {
            <ul class="q-partitions">
                { for snapshot.partitions.iter().map(|p| {
                    let committed = p.committed.unwrap_or(0);
                    let owner = p.owner.map_or("no owner".to_string(), |o| format!("c{}", o + 1));
                    html! {
                        <li>{ format!("p{}: log end {}, committed {committed} ({} waiting), {owner}",
                            p.partition, p.log_end, p.log_end.saturating_sub(committed)) }</li>
                    }
                }) }
            </ul>
        },
        Reader::ShareGroup => html! {
            <div class="q-share-partitions">
                { for snapshot.share_partitions.iter().map(share_partition) }
                <p class="q-key">{ "A available · Q acquired · ✓ acknowledged · ✕ archived" }</p>
            </div>
        },
        Reader::Queue => match &snapshot.queue {
            Some(queue) => html! {
                <div class="q-queue">
                    <p>{ format!("{} ready, {} unacknowledged, {} acknowledged (deleted), {} dead-lettered",
                        queue.ready, queue.unacked.iter().sum::<u64>(), queue.acked, queue.dead_lettered) }</p>
                    <ol class="q-cells" aria-label="The queue's head, oldest first">
                        { for queue.ready_head.iter().take(CELLS).map(|seq| html! {
                            <li class="q-cell available" title={format!("message #{seq}")}>{ "·" }</li>
                        }) }
                    </ol>
                </div>
            },
            None => html! {},
        },
    }
}

/// One share-partition: its window from the SPSO, each record's state.
fn share_partition(p: &SharePartitionPicture) -> Html {
    html! {
        <div class="q-share-partition">
            <p>{ format!("p{}: SPSO {} · SPEO {} · {} acquired", p.partition, p.spso, p.speo, p.acquired) }</p>
            <ol class="q-cells" aria-label={format!("share-partition {} from the SPSO", p.partition)}>
                { for p.window.iter().take(CELLS).enumerate().map(|(i, state)| {
                    let (class, letter) = match state {
                        RecordState::Available => ("available", "A"),
                        RecordState::Acquired => ("acquired", "Q"),
                        RecordState::Acknowledged => ("acknowledged", "✓"),
                        RecordState::Archived => ("archived", "✕"),
                    };
                    html! {
                        <li class={classes!("q-cell", class)} title={format!("offset {}: {class}", p.spso + i as u64)}>{ letter }</li>
                    }
                }) }
            </ol>
        </div>
    }
}
