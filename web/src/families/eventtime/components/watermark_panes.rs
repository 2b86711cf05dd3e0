//! The pane list of the watermarks lesson: every answer the event-time windows gave, newest
//! first, tagged on time, late, restated (with the retracted value), side output or dropped,
//! and the idleness changes that let the watermark move. [`pane_events`] derives the entries
//! from a snapshot once; the list shows their short form and the narration their sentence,
//! so the two cannot disagree.

use crate::families::eventtime::components::watermark_chart::ChartDot;
use crate::platform::shared::Shared;
use streamlab_sim::eventtime::events::clock_time as clock;
use streamlab_sim::eventtime::views::Lateness;
use streamlab_sim::eventtime::{EventTimeScenario, EventTimeSnapshot, LateRecordPolicy};
use streamlab_sim::replay::sorted_map::SortedMap;
use streamlab_sim::window::Timing;
use yew::prelude::*;

/// What an entry reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaneKind {
    OnTime,
    Late,
    /// A late pane that carries the value it replaces.
    Restated,
    SideOutput,
    Dropped,
    /// A partition declared idle or waking up: not a pane, but why the watermark moved.
    Idleness,
}

impl PaneKind {
    fn label(self) -> &'static str {
        match self {
            Self::OnTime => "on time",
            Self::Late => "late",
            Self::Restated => "retraction",
            Self::SideOutput => "side output",
            Self::Dropped => "dropped",
            Self::Idleness => "idleness",
        }
    }

    fn class(self) -> &'static str {
        match self {
            Self::OnTime => "on-time",
            Self::Late => "late",
            Self::Restated => "restated",
            Self::SideOutput => "side",
            Self::Dropped => "dropped",
            Self::Idleness => "idle",
        }
    }
}

/// One thing the windows did, in two lengths.
#[derive(Clone, Debug, PartialEq)]
pub struct PaneEvent {
    pub at_ms: i64,
    pub kind: PaneKind,
    /// For the list: "0:30–0:40 · 163".
    pub summary: String,
    /// For the narration: what happened and why.
    pub sentence: String,
}

fn span(start_ms: i64, end_ms: i64) -> String {
    format!("{}–{}", clock(start_ms), clock(end_ms))
}

/// "5 s", "12.3 s".
fn seconds(ms: i64) -> String {
    if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
}

/// Every pane, side output, drop and idleness change so far, in processing-time order. `dots`
/// are the chart's records with their lateness, which name the record behind a late pane or a
/// drop.
pub fn pane_events(
    snapshot: &EventTimeSnapshot,
    scenario: &EventTimeScenario,
    dots: &[ChartDot],
) -> Vec<PaneEvent> {
    let lateness_ms = scenario.allowed_lateness_ms;
    let mut events = Vec::new();
    // When each window's on-time pane came out (the watermark passed its end), all devices.
    let mut fired: SortedMap<(i64, i64), (i64, u64)> = SortedMap::new();
    for pane in &snapshot.event_time_panes {
        if pane.timing == Timing::OnTime {
            let entry = fired
                .entry((pane.window.start_ms, pane.window.end_ms))
                .or_insert((pane.emitted_at_ms, 0));
            entry.0 = entry.0.max(pane.emitted_at_ms);
            entry.1 += pane.count;
        }
    }
    let mut truth: SortedMap<(i64, i64), u64> = SortedMap::new();
    for row in &snapshot.windows {
        *truth
            .entry((row.window.start_ms, row.window.end_ms))
            .or_default() += row.truth;
    }
    for (&(start_ms, end_ms), &(at_ms, count)) in &fired {
        let truth = truth.get(&(start_ms, end_ms)).copied().unwrap_or(0);
        let verdict = if count == truth {
            "the same as the truth".to_string()
        } else {
            format!("the truth is {truth}")
        };
        let when = if snapshot.input_ended && at_ms >= snapshot.input_end_ms {
            "when the input ended".to_string()
        } else {
            format!("when the watermark passed {}", clock(end_ms))
        };
        events.push(PaneEvent {
            at_ms,
            kind: PaneKind::OnTime,
            summary: format!("{} · {count}", span(start_ms, end_ms)),
            sentence: format!(
                "Window {} fired at processing time {} {when}: {count} records, {verdict}.",
                span(start_ms, end_ms),
                clock(at_ms)
            ),
        });
    }
    for pane in snapshot
        .event_time_panes
        .iter()
        .filter(|p| p.timing == Timing::Late)
    {
        let w = pane.window;
        let cause = dots.iter().find(|d| {
            d.processed_ms == pane.emitted_at_ms
                && d.key == w.key
                && (w.start_ms..w.end_ms).contains(&d.event_ms)
        });
        let after = fired
            .get(&(w.start_ms, w.end_ms))
            .map(|&(on_time_ms, _)| pane.emitted_at_ms - on_time_ms);
        let record = match (cause, after) {
            (Some(d), Some(after_ms)) => format!(
                "a record from {} arrived at {}, {}: within the allowed lateness of {}, so",
                clock(d.event_ms),
                clock(d.processed_ms),
                if after_ms == 0 {
                    "in the same instant the window fired".to_string()
                } else {
                    format!("{} after the window fired", seconds(after_ms))
                },
                seconds(lateness_ms)
            ),
            _ => format!(
                "a late record arrived within the allowed lateness of {}, so",
                seconds(lateness_ms)
            ),
        };
        let (kind, change, summary) = match pane.retracted {
            Some(old) => (
                PaneKind::Restated,
                format!(
                    "{old} → {} (restate: retract {old}, emit {})",
                    pane.count, pane.count
                ),
                format!(
                    "{} device {} · {old} → {}",
                    span(w.start_ms, w.end_ms),
                    w.key,
                    pane.count
                ),
            ),
            None => (
                PaneKind::Late,
                format!(
                    "now {} (an update; the old answer stands unless consumers overwrite it)",
                    pane.count
                ),
                format!(
                    "{} device {} · {}",
                    span(w.start_ms, w.end_ms),
                    w.key,
                    pane.count
                ),
            ),
        };
        events.push(PaneEvent {
            at_ms: pane.emitted_at_ms,
            kind,
            summary,
            sentence: format!(
                "Window {} of device {}: {record} the window fired again: {change}.",
                span(w.start_ms, w.end_ms),
                w.key
            ),
        });
    }
    for side in &snapshot.side_outputs {
        events.push(PaneEvent {
            at_ms: side.emitted_at_ms,
            kind: PaneKind::SideOutput,
            summary: format!("device {} · event at {}", side.key, clock(side.event_ms)),
            sentence: format!(
                "A record from {} (device {}) arrived at {}, after its window's allowed lateness \
                 of {} ran out: the window's answer stays as it was and the record goes to the \
                 side output, for somebody else to reconcile.",
                clock(side.event_ms),
                side.key,
                clock(side.emitted_at_ms),
                seconds(lateness_ms)
            ),
        });
    }
    if scenario.late_policy != LateRecordPolicy::SideOutput {
        for dot in dots.iter().filter(|d| d.lateness == Lateness::TooLate) {
            events.push(PaneEvent {
                at_ms: dot.processed_ms,
                kind: PaneKind::Dropped,
                summary: format!("device {} · event at {}", dot.key, clock(dot.event_ms)),
                sentence: format!(
                    "A record from {} (device {}) arrived at {}, after its window's allowed \
                     lateness of {} ran out: dropped. Its window's answer stays one short, and \
                     nobody is told.",
                    clock(dot.event_ms),
                    dot.key,
                    clock(dot.processed_ms),
                    seconds(lateness_ms)
                ),
            });
        }
    }
    for change in &snapshot.idleness_changes {
        let (summary, sentence) = if change.idle {
            (
                format!("partition {} idle", change.partition),
                format!(
                    "Partition {} had no record for {} and was declared idle at {}: the \
                     watermark stops waiting for it and moves on with the others.",
                    change.partition,
                    seconds(scenario.idleness_ms),
                    clock(change.at_ms)
                ),
            )
        } else {
            (
                format!("partition {} active", change.partition),
                format!(
                    "Partition {} delivered a record again at {} and holds the watermark \
                     again; the watermark never goes back, so what it held while silent is \
                     now late.",
                    change.partition,
                    clock(change.at_ms)
                ),
            )
        };
        events.push(PaneEvent {
            at_ms: change.at_ms,
            kind: PaneKind::Idleness,
            summary,
            sentence,
        });
    }
    // Stable: at one instant, on-time panes come before the late news they explain.
    streamlab_sim::replay::sort::sort_by_key(&mut events, |e| e.at_ms);
    events
}

/// Entries shown at once; older ones are in the narration.
const SHOWN: usize = 60;

#[derive(Properties, PartialEq)]
pub struct WatermarkPanesProps {
    pub events: Shared<Vec<PaneEvent>>,
}

#[function_component(WatermarkPanes)]
pub fn watermark_panes(props: &WatermarkPanesProps) -> Html {
    let panes = props.events.iter().filter(|e| e.kind != PaneKind::Idleness);
    html! {
        <section class="wm-panes" aria-label="Panes">
            <h2>{ "Panes, newest first" }</h2>
            <ol>
                { for panes.rev().take(SHOWN).map(|e| html! {
                    <li class={e.kind.class()} title={e.sentence.clone()}>
                        <span class="at">{ clock(e.at_ms) }</span>
                        <span class="badge">{ e.kind.label() }</span>
                        <span class="what">{ &e.summary }</span>
                    </li>
                }) }
            </ol>
        </section>
    }
}
