//! The compaction comparison: the compacted topic's records by offset (the clean tail, the
//! dirty head, the active segment; a tombstone drawn as ∅), the cleaner's dirty ratio against
//! `min.cleanable.dirty.ratio`, the watched tombstone's story, and a few accounts rebuilt two
//! ways: from every event of the event-sourced log, and from its last event alone (what a
//! compacted event log would leave). The figures carry the names `streamlab simulate` prints.

use crate::platform::shared::Shared;
use crate::widgets::figure_counters::counters;
use streamlab_sim::databases::accounts::AccountEvent;
use streamlab_sim::databases::{CompactionPicture, DatabasesSnapshot};
use streamlab_sim::family::Figures;
use yew::prelude::*;

/// Records drawn in the strip; older ones are summarised.
const STRIP: usize = 160;

const ROWS: &[(&str, &str)] = &[
    ("total_writes", "writes ever made"),
    ("live_keys", "accounts open"),
    ("log_records", "records in the compacted topic"),
    ("dirty_ratio", "dirty ratio now"),
    ("cleanings", "cleanings"),
    ("tombstones_in_log", "tombstones in the log"),
    ("bootstrap_records_read", "records the new consumer read"),
    ("bootstrap_wrong_keys", "accounts it got wrong"),
    ("event_sourced.events", "events in the event-sourced log"),
    (
        "event_sourced.wrong_if_compacted",
        "balances wrong from the last event alone",
    ),
];

#[derive(Properties, PartialEq)]
pub struct CompactionProps {
    pub snapshot: Shared<DatabasesSnapshot>,
    pub figures: Shared<Figures>,
}

#[function_component(Compaction)]
pub fn compaction(props: &CompactionProps) -> Html {
    let Some(c) = &props.snapshot.compaction else {
        return Html::default();
    };
    html! {
        <div class="db-compaction">
            <section class="db-log" aria-label="The compacted topic">
                <h3>{ "CDC topic, cleanup.policy=compact" }</h3>
                { strip(c) }
                <p class="q-key">
                    { format!(
                        "Clean up to offset {} · dirty ratio {:.2}, cleaned when above {:.2} · next offset {}",
                        c.cleaned_upto,
                        c.dirty_permille as f64 / 1000.0,
                        c.threshold_permille as f64 / 1000.0,
                        c.next_offset
                    ) }
                </p>
                { tombstone(c) }
            </section>
            { counters(&props.figures, ROWS, &["bootstrap_wrong_keys", "event_sourced.wrong_if_compacted"][..], None) }
            { accounts(c) }
        </div>
    }
}

/// The newest records by offset, each with its region and its key; a tombstone as ∅.
fn strip(c: &CompactionPicture) -> Html {
    let active_base = c.segments.last().map_or(0, |s| s.base_offset);
    let skip = c.records.len().saturating_sub(STRIP);
    let older = c.log_records as usize - (c.records.len() - skip);
    html! {
        <>
            <ol class="db-strip" aria-label="records by offset">
                if older > 0 {
                    <li class="db-older">{ format!("… {older} older") }</li>
                }
                { for c.records[skip..].iter().map(|r| {
                    let region = if r.offset >= active_base {
                        "active"
                    } else if r.offset < c.cleaned_upto {
                        "clean"
                    } else {
                        "dirty"
                    };
                    let value = r.value.map_or("tombstone".to_string(), |v| format!("balance {v}"));
                    html! {
                        <li class={classes!("db-record", region, r.value.is_none().then_some("tombstone"))}
                            title={format!("offset {}: account-{}, {value} ({region})", r.offset, r.key)}>
                            { if r.value.is_none() { "∅".to_string() } else { r.key.to_string() } }
                        </li>
                    }
                }) }
            </ol>
            <p class="db-legend">
                <span class="db-record clean">{ "clean tail" }</span>
                <span class="db-record dirty">{ "dirty head" }</span>
                <span class="db-record active">{ "active segment" }</span>
                <span class="db-record tombstone">{ "∅ tombstone" }</span>
                { " · each cell is one record, labelled by its account" }
            </p>
        </>
    }
}

/// The first closed account's tombstone: written, kept, removed.
fn tombstone(c: &CompactionPicture) -> Html {
    let Some(w) = c.watched else {
        return Html::default();
    };
    let fate = match w.removed_at_ms {
        Some(at) => format!(
            "removed by the cleaner at {:.1} s: no record of account-{} is left.",
            at as f64 / 1000.0,
            w.key
        ),
        None => {
            "still in the log: a reader from offset 0 learns that the account closed.".to_string()
        }
    };
    html! {
        <p class="db-tombstone">
            { format!(
                "account-{} closed at {:.1} s: its tombstone (offset {}) is {fate}",
                w.key,
                w.written_at_ms as f64 / 1000.0,
                w.offset
            ) }
        </p>
    }
}

/// A few open accounts: the balance from every event, and from the last event alone.
fn accounts(c: &CompactionPicture) -> Html {
    html! {
        <table class="db-table db-accounts">
            <caption>{ "Accounts rebuilt from the event-sourced log: every event, or the last one alone (≠ wrong)" }</caption>
            <thead>
                <tr>
                    <th scope="col">{ "account" }</th>
                    <th scope="col">{ "balance (all events)" }</th>
                    <th scope="col">{ "last event" }</th>
                    <th scope="col">{ "from the last event alone" }</th>
                </tr>
            </thead>
            <tbody>
                { for c.accounts.iter().map(|a| {
                    let wrong = a.alone != Some(a.balance);
                    html! {
                        <tr>
                            <th scope="row">{ format!("account-{}", a.key) }</th>
                            <td>{ a.balance }</td>
                            <td>{ event_words(a.last_event) }</td>
                            <td class={classes!(wrong.then_some("db-differs"))}>
                                if wrong { <span class="db-mark" aria-label="wrong">{ "≠ " }</span> }
                                { a.alone.map_or("—".to_string(), |v| v.to_string()) }
                            </td>
                        </tr>
                    }
                }) }
            </tbody>
        </table>
    }
}

fn event_words(event: AccountEvent) -> String {
    match event {
        AccountEvent::Opened { deposit } => format!("opened with {deposit}"),
        AccountEvent::Deposited { amount } => format!("deposited {amount}"),
        AccountEvent::Withdrew { amount } => format!("withdrew {amount}"),
        AccountEvent::Closed => "closed".to_string(),
    }
}
