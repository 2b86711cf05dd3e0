//! The replication family: the "Replication and durability" lesson, on the core's replication
//! world (`streamlab_sim::replication`). Its picture is the cluster (each broker's state, with
//! buttons that crash it, cut it off or slow it down) above each partition's replicas and their
//! logs, aligned by offset, with the ISR and the high watermark; under it, the three `acks`
//! settings on the same faults and a chart of the latency each pays.

pub mod components;
pub mod export;
pub mod lessons;
pub mod view;

use crate::shell::compare::table_differences;
use crate::shell::components::timeline_scrubber::TimelineMark;
use crate::shell::family::{
    Act, CompareChange, Edit, Lesson, LessonFamily, Picture, RealConfig, StageContext,
};
use crate::widgets::knob_rows::knob_panel;
use crate::widgets::lesson_thumbnail::Thumbnail;
use crate::widgets::time_chart::TimeChart;
use components::acks_table::AcksTable;
use components::brokers::Brokers;
use components::partition::{legend, Partition};
use std::rc::Rc;
use streamlab_sim::family::knob::settings_text;
use streamlab_sim::replication::knobs::KNOBS;
use streamlab_sim::replication::{
    Acks, EventKind, Fault, FaultKind, ReplicationEvent, ReplicationScenario, ReplicationWorld,
};
use view::ReplicationView;
use yew::prelude::*;
/// The family's own style rules (`static/families/replication.css`), added to the page by the
/// bundles that draw its components.
pub const STYLE: &str = crate::minified_css!("../../../../static/families/replication.css");

/// The replication family.
pub struct ReplicationFamily;

/// How much later each fetch of a follower slowed down by its button arrives: longer than
/// `replica.lag.time.max.ms`'s default, so it leaves the ISR.
const SLOW_BUTTON_EXTRA_MS: u64 = 60_000;

impl LessonFamily for ReplicationFamily {
    type Sim = ReplicationWorld;
    type Options = ();
    type View = ReplicationView;

    /// A minute at 1× would be slow to watch; 4× shows it in about 15 s.
    const INITIAL_SPEED_EXPONENT: i32 = 2;
    /// The producer stops at the run's end; the picture stops with it.
    const STOPS_AT_END: bool = true;

    fn new_view(_lesson: &'static Lesson<Self>, world: &ReplicationWorld) -> ReplicationView {
        ReplicationView::new(world)
    }

    fn refresh(
        view: &mut ReplicationView,
        _lesson: &'static Lesson<Self>,
        world: &ReplicationWorld,
        force: bool,
    ) {
        view.refresh(world, force);
    }

    fn picture(
        _lesson: &'static Lesson<Self>,
        view: &ReplicationView,
        ctx: &StageContext<ReplicationScenario>,
    ) -> Html {
        let on_fault = ctx
            .on_act
            .reform(|(broker, kind): (u32, FaultKind)| schedule(broker, kind));
        let snapshot = &view.snapshot;
        html! {
            <div class="rp-stage">
                <Brokers snapshot={snapshot.clone()} {on_fault} />
                { for snapshot.partitions.iter().map(|p| html! {
                    <Partition partition={p.clone()} min_insync_replicas={snapshot.min_insync_replicas} />
                }) }
                { legend() }
            </div>
        }
    }

    fn panels(
        _lesson: &'static Lesson<Self>,
        view: &ReplicationView,
        _ctx: &StageContext<ReplicationScenario>,
    ) -> Html {
        html! {
            <>
                <AcksTable snapshot={view.snapshot.clone()} />
                <TimeChart data={view.chart.clone()} class="rp-chart" />
            </>
        }
    }

    fn knobs(
        lesson: &'static Lesson<Self>,
        scenario: &ReplicationScenario,
        on_edit: &Callback<Edit<ReplicationScenario>>,
    ) -> Html {
        knob_panel(
            KNOBS,
            lesson.knob_sections,
            scenario,
            "rp-knobs",
            "rp-",
            on_edit,
        )
    }

    fn scheduled_marks(world: &ReplicationWorld) -> Vec<TimelineMark> {
        world
            .scenario()
            .faults
            .iter()
            .map(|f| TimelineMark {
                at_ms: f.at_ms,
                kind: "action",
                label: format!("broker {} {}", f.broker, fault_words(f.kind)),
            })
            .collect()
    }

    fn tone(event: &ReplicationEvent) -> &'static str {
        use EventKind::*;
        match event.kind {
            BrokerRestarted { .. }
            | BrokerHealed { .. }
            | FollowerNormal { .. }
            | IsrExpanded { .. }
            | DuplicateIgnored { .. } => "caught-up",
            BrokerCrashed { .. }
            | BrokerIsolated { .. }
            | FollowerSlowed { .. }
            | PartitionOffline { .. }
            | IsrShrunk { .. }
            | NotEnoughReplicas { .. }
            | RequestTimedOut { .. }
            | DuplicateWritten { .. }
            | AckedByDeposedLeader { .. }
            | DeliveryFailed { .. } => "lag",
            Truncated { acknowledged, .. } if acknowledged > 0 => "lag",
            LeaderElected {
                unclean,
                newly_lost,
                ..
            } if unclean || newly_lost > 0 => "lag",
            _ => "commit",
        }
    }

    fn real_config(scenario: &ReplicationScenario) -> RealConfig {
        RealConfig {
            title: "Real config: Kafka producer, topic and broker settings",
            text: settings_text(KNOBS, scenario, &SETTING_SECTIONS),
            note: "The exported JSON runs headless with `streamlab simulate --scenario FILE`.",
        }
    }

    fn csv(scenario: &ReplicationScenario, at_ms: u64) -> String {
        export::csv_at(scenario, at_ms)
    }

    fn pictures(_lesson: &'static Lesson<Self>) -> Vec<Picture> {
        vec![("Latency chart (PNG)", ".rp-chart canvas", "latency")]
    }

    fn compare_changes(
        _lesson: &'static Lesson<Self>,
    ) -> &'static [CompareChange<ReplicationScenario>] {
        COMPARISONS
    }

    fn differences(a: &ReplicationScenario, b: &ReplicationScenario) -> (String, String) {
        table_differences(KNOBS, a, b)
    }

    fn thumbnail(_lesson: &'static Lesson<Self>) -> Thumbnail {
        Thumbnail::Replication
    }
}

/// A fault on `broker` a millisecond from now (now itself has been drawn already).
fn schedule(broker: u32, kind: FaultKind) -> Act<ReplicationScenario> {
    Rc::new(move |s: &mut ReplicationScenario, now_ms: u64| {
        let mut fault = Fault::new(now_ms + 1, broker, kind);
        if kind == FaultKind::Slow {
            fault.extra_ms = SLOW_BUTTON_EXTRA_MS;
        }
        s.faults.push(fault);
    })
}

fn fault_words(kind: FaultKind) -> &'static str {
    match kind {
        FaultKind::Crash => "crashes",
        FaultKind::Restart => "restarts",
        FaultKind::Isolate => "is cut off",
        FaultKind::Heal => "reconnects",
        FaultKind::Slow => "slows down",
        FaultKind::Normal => "fetches at its normal pace",
    }
}

/// The sections whose knobs are real settings, in the order the panel lists them.
const SETTING_SECTIONS: [&str; 3] = {
    use streamlab_sim::replication::knobs::section::*;
    [PRODUCER, TOPIC, BROKERS]
};

/// One-click comparisons: the same faults with the setting that decides what is lost.
const COMPARISONS: &[CompareChange<ReplicationScenario>] = &[
    CompareChange {
        label: "with acks=1",
        apply: |s, _| {
            s.producer.acks = Acks::One;
            s.producer.enable_idempotence = false;
        },
    },
    CompareChange {
        label: "with min.insync.replicas=2",
        apply: |s, _| {
            s.producer.acks = Acks::All;
            s.topic.min_insync_replicas = 2;
        },
    },
];
