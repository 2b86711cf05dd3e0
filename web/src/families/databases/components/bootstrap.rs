//! The snapshot comparison: a new store bootstrapped from a snapshot of the table and then the
//! change log. Each row of the table is a cell: not read yet, read, or differing from the
//! table now (marked by a sign as well as a colour); beside them, how the bootstrap was done
//! (tied to a log position or not) and what it cost, under the names `streamlab simulate`
//! prints.

use crate::platform::shared::Shared;
use crate::widgets::figure_counters::counters;
use streamlab_sim::databases::bootstrap::Phase;
use streamlab_sim::databases::{BootstrapMethod, BootstrapPicture, DatabasesSnapshot};
use streamlab_sim::family::Figures;
use yew::prelude::*;

const ROWS: &[(&str, &str)] = &[
    ("missed_or_duplicated", "changes missed or applied twice"),
    ("missed", "missed"),
    ("duplicated", "applied twice"),
    ("divergent_keys", "rows differing from the table now"),
    ("rows_copied", "rows copied"),
    ("changes_during_snapshot", "writes while the snapshot read"),
    ("max_connector_lag_ms", "longest lag (ms)"),
];

#[derive(Properties, PartialEq)]
pub struct BootstrapProps {
    pub snapshot: Shared<DatabasesSnapshot>,
    pub figures: Shared<Figures>,
}

/// How the bootstrap reads, in a line.
fn method_words(method: BootstrapMethod) -> &'static str {
    match method {
        BootstrapMethod::Initial => "Debezium snapshot.mode=initial: one consistent read as of a log position, then the change stream from that very position.",
        BootstrapMethod::InitialOnly => "Debezium snapshot.mode=initial_only: one consistent read, and no stream after it.",
        BootstrapMethod::NoData => "Debezium snapshot.mode=no_data: no read of the table, only the changes from where the connector starts.",
        BootstrapMethod::ScanThenLatest => "A hand-rolled copy: SELECT * of the live table with no log position, then a consumer from the topic's end (latest).",
        BootstrapMethod::ScanThenEarliest => "A hand-rolled copy: SELECT * of the live table with no log position, then a consumer from the topic's start (earliest).",
    }
}

fn phase_words(b: &BootstrapPicture) -> String {
    match b.phase {
        Phase::Waiting => "Waiting to start.".to_string(),
        Phase::Reading { next_row } => {
            format!("Reading the table: row {next_row} of {}.", b.row_count)
        }
        Phase::Streaming => match (b.stream_from, b.applied_upto) {
            (Some(from), Some(applied)) => format!(
                "Streaming: from position {from}, applied up to {applied} of {}.",
                b.log_end
            ),
            _ => "Streaming.".to_string(),
        },
        Phase::Stopped => {
            "Stopped after the snapshot: later writes never reach the store.".to_string()
        }
    }
}

#[function_component(Bootstrap)]
pub fn bootstrap(props: &BootstrapProps) -> Html {
    let Some(b) = &props.snapshot.bootstrap else {
        return Html::default();
    };
    html! {
        <div class="db-bootstrap">
            <section class="db-rows-box" aria-label="The table's rows in the new store">
                <h3>{ "The new store, row by row" }</h3>
                <p class="q-system">{ method_words(b.method) }</p>
                <p class="db-phase">{ phase_words(b) }</p>
                <ol class="db-rows">
                    { for b.rows.iter().map(|r| {
                        let state = if r.read_at.is_none() && r.store_version.is_none() {
                            "unread"
                        } else if r.store_version != Some(r.db_version) {
                            "differs"
                        } else {
                            "same"
                        };
                        let held = r.store_version.map_or("nothing".to_string(), |v| format!("v{v}"));
                        html! {
                            <li class={classes!("db-row", state)}
                                title={format!("row {}: table v{}, store {held}", r.key, r.db_version)}>
                                { if state == "differs" { "≠" } else { "" } }
                            </li>
                        }
                    }) }
                </ol>
                <p class="db-legend">
                    <span class="db-row unread"></span>{ " not in the store yet " }
                    <span class="db-row same"></span>{ " equal to the table " }
                    <span class="db-row differs">{ "≠" }</span>{ " differs from the table" }
                </p>
            </section>
            { counters(&props.figures, ROWS, &["missed_or_duplicated", "missed", "duplicated", "divergent_keys"][..], None) }
        </div>
    }
}
