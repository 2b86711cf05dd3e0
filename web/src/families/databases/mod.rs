//! The databases family: the "Dual writes and change data capture" and "Compaction,
//! snapshots and bootstrapping" lessons, on the core's databases world
//! (`streamlab_sim::databases`). Its picture follows the run's mode: the four ways of keeping
//! a search index in step with a database side by side, or a compacted topic beside an
//! event-sourced log, or a new store bootstrapped from a snapshot; under it, a time chart.

pub mod components;
pub mod export;
pub mod lessons;
pub mod view;

use crate::shell::compare::table_differences;
use crate::shell::components::timeline_scrubber::TimelineMark;
use crate::shell::family::{
    CompareChange, Edit, Lesson, LessonFamily, Picture, RealConfig, StageContext,
};
use crate::widgets::knob_rows::knob_panel;
use crate::widgets::lesson_thumbnail::Thumbnail;
use crate::widgets::time_chart::TimeChart;
use components::bootstrap::Bootstrap;
use components::compaction::Compaction;
use components::sync::Sync;
use streamlab_sim::databases::knobs::KNOBS;
use streamlab_sim::databases::{
    DatabasesEvent, DatabasesEventKind, DatabasesScenario, DatabasesWorld, Mode,
};
use streamlab_sim::family::knob::settings_text;
use view::DatabasesView;
use yew::prelude::*;
/// The family's own style rules (`static/families/databases.css`), added to the page by the
/// bundles that draw its components.
pub const STYLE: &str = crate::minified_css!("../../../../static/families/databases.css");

/// The databases family.
pub struct DatabasesFamily;

impl LessonFamily for DatabasesFamily {
    type Sim = DatabasesWorld;
    /// The picture follows the run's mode, so a lesson needs no options of its own.
    type Options = ();
    type View = DatabasesView;

    /// A minute of writes at 1× would be slow to watch; 4× shows it in about 15 s.
    const INITIAL_SPEED_EXPONENT: i32 = 2;
    /// Writes stop and what is in flight lands; the picture stops at the settled end.
    const STOPS_AT_END: bool = true;

    fn new_view(_lesson: &'static Lesson<Self>, world: &DatabasesWorld) -> DatabasesView {
        DatabasesView::new(world)
    }

    fn refresh(
        view: &mut DatabasesView,
        _lesson: &'static Lesson<Self>,
        world: &DatabasesWorld,
        force: bool,
    ) {
        view.refresh(world, force);
    }

    fn picture(
        _lesson: &'static Lesson<Self>,
        view: &DatabasesView,
        _ctx: &StageContext<DatabasesScenario>,
    ) -> Html {
        let snapshot = view.snapshot.clone();
        let figures = view.figures.clone();
        match view.snapshot.mode {
            Mode::DualWrites => html! { <Sync {snapshot} {figures} /> },
            Mode::Compaction => html! { <Compaction {snapshot} {figures} /> },
            Mode::Snapshot => html! { <Bootstrap {snapshot} {figures} /> },
        }
    }

    fn panels(
        _lesson: &'static Lesson<Self>,
        view: &DatabasesView,
        _ctx: &StageContext<DatabasesScenario>,
    ) -> Html {
        html! {
            <>
                <TimeChart data={view.chart.clone()} class="db-chart" />
                if let Some(lag) = &view.lag {
                    <TimeChart data={lag.clone()} class="db-lag-chart" />
                }
            </>
        }
    }

    fn knobs(
        lesson: &'static Lesson<Self>,
        scenario: &DatabasesScenario,
        on_edit: &Callback<Edit<DatabasesScenario>>,
    ) -> Html {
        knob_panel(
            KNOBS,
            lesson.knob_sections,
            scenario,
            "db-knobs",
            "db-",
            on_edit,
        )
    }

    fn scheduled_marks(world: &DatabasesWorld) -> Vec<TimelineMark> {
        let s = world.scenario();
        let mut marks = vec![TimelineMark {
            at_ms: s.duration_ms,
            kind: "action",
            label: "writes stop".into(),
        }];
        match s.mode {
            Mode::DualWrites if s.outage.enabled => marks.push(TimelineMark {
                at_ms: s.outage.at_ms,
                kind: "action",
                label: format!("connectors down for {} s", s.outage.for_ms / 1000),
            }),
            Mode::Compaction => marks.push(TimelineMark {
                at_ms: s.bootstrap.at_ms,
                kind: "action",
                label: "a new consumer reads from offset 0".into(),
            }),
            Mode::Snapshot => marks.push(TimelineMark {
                at_ms: s.snapshot.start_ms,
                kind: "action",
                label: "the bootstrap starts".into(),
            }),
            Mode::DualWrites => {}
        }
        marks
    }

    fn tone(event: &DatabasesEvent) -> &'static str {
        use DatabasesEventKind as K;
        match &event.kind {
            K::ConnectorCaughtUp { .. }
            | K::ConnectorRestarted { .. }
            | K::StreamCaughtUp { .. }
            | K::Bootstrapped { .. }
            | K::LogCleaned { .. }
            | K::StreamStarted { .. } => "commit",
            K::LaneSettled { divergent_keys, .. } if *divergent_keys == 0 => "commit",
            K::BootstrapSettled {
                missed, duplicated, ..
            } if *missed + *duplicated == 0 => "commit",
            _ => "lag",
        }
    }

    fn real_config(scenario: &DatabasesScenario) -> RealConfig {
        let mut text = settings_text(KNOBS, scenario, &SETTING_SECTIONS);
        if scenario.mode == Mode::DualWrites {
            text.push_str(OUTBOX_TABLE);
        }
        RealConfig {
            title: "Real config: Kafka topic, Debezium and retry settings",
            text,
            note: "The exported JSON runs headless with `streamlab simulate --scenario FILE`.",
        }
    }

    fn csv(scenario: &DatabasesScenario, at_ms: u64) -> String {
        export::csv_at(scenario, at_ms)
    }

    fn pictures(lesson: &'static Lesson<Self>) -> Vec<Picture> {
        let mut pictures = vec![("Chart (PNG)", ".db-chart canvas", "chart")];
        // Only the dual-writes runs have connectors, and so a lag chart.
        if lesson.words.slug == "dual-writes" {
            pictures.push(("Lag chart (PNG)", ".db-lag-chart canvas", "lag-chart"));
        }
        pictures
    }

    fn compare_changes(
        lesson: &'static Lesson<Self>,
    ) -> &'static [CompareChange<DatabasesScenario>] {
        if lesson.words.slug == "dual-writes" {
            SYNC_COMPARISONS
        } else {
            &[]
        }
    }

    fn differences(a: &DatabasesScenario, b: &DatabasesScenario) -> (String, String) {
        table_differences(KNOBS, a, b)
    }

    fn thumbnail(lesson: &'static Lesson<Self>) -> Thumbnail {
        if lesson.words.slug == "dual-writes" {
            Thumbnail::DualWrites
        } else {
            Thumbnail::Compaction
        }
    }
}

/// The sections whose knobs are real settings, in the order the panel lists them.
const SETTING_SECTIONS: [&str; 4] = {
    use streamlab_sim::databases::knobs::section::*;
    [RETRY, CONNECTOR, TOPIC, SNAPSHOT]
};

/// The outbox table the outbox lane writes, in the columns Debezium's outbox event router
/// reads by default (`id`, `aggregatetype`, `aggregateid`, `type`, `payload`).
const OUTBOX_TABLE: &str =
    "\n# The outbox lane's table, as Debezium's outbox event router reads it by default:\n\
# CREATE TABLE outbox (id uuid PRIMARY KEY, aggregatetype varchar(255) NOT NULL,\n\
#   aggregateid varchar(255) NOT NULL, type varchar(255) NOT NULL, payload jsonb);\n\
transforms = outbox\n\
transforms.outbox.type = io.debezium.transforms.outbox.EventRouter\n\
transforms.outbox.table.field.event.id = id\n\
transforms.outbox.table.field.event.key = aggregateid\n\
transforms.outbox.table.field.event.payload = payload\n\
transforms.outbox.route.by.field = aggregatetype\n";

/// The dual-writes lesson's one-click comparison: the same writes with one index write in ten
/// failing, so the try/catch's retries and the connectors' ordered retries show beside the
/// race.
const SYNC_COMPARISONS: &[CompareChange<DatabasesScenario>] = &[CompareChange {
    label: "with one index write in ten failing",
    apply: |s, _| s.network.index_failure_rate = 0.1,
}];
