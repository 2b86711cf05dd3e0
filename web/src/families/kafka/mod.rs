//! The consumer-group family: the partitions, rebalances and delivery lessons, on the core's
//! consumer-group world (`streamlab_sim::kafka`). Its picture is the topic's partitions and
//! each group's members (the diagram) with its counters; below it, the member timelines and
//! the group protocol (rebalances lesson), the delivery panel (delivery lesson), and the lag
//! chart.

pub mod benches;
pub mod compare;
pub mod components;
pub mod export;
pub mod knobs;
pub mod lessons;
pub mod panels;
pub mod real_config;
pub mod view;
pub mod view_model;

use crate::shell::components::timeline_scrubber::TimelineMark;
use crate::shell::family::Lesson;
use crate::shell::family::{CompareChange, Edit, LessonFamily, Picture, RealConfig, StageContext};
use crate::widgets::lesson_thumbnail::Thumbnail;
use components::client_metrics::client_metrics;
use components::counters::{counters, CountersProps};
use components::diagram::Diagram;
use components::lag_chart::LagChart;
use panels::MembershipPanel;
use std::sync::Arc;
use streamlab_sim::kafka::events::{Event, EventKind};
use streamlab_sim::kafka::scenario::MemberAction;
use streamlab_sim::kafka::{Scenario, World};
use view::KafkaView;
use yew::prelude::*;
/// The family's own style rules (`static/families/kafka.css`), added to the page by the
/// bundles that draw its components.
pub const STYLE: &str = crate::minified_css!("../../../../static/families/kafka.css");
/// The delivery panel's style rules (`static/families/kafka-delivery.css`), which only the
/// delivery lesson draws.
pub const DELIVERY_STYLE: &str =
    crate::minified_css!("../../../../static/families/kafka-delivery.css");

/// The consumer-group family.
pub struct KafkaFamily;

/// Which of the family's panels a lesson shows (`panels`), each as its code so that a bundle
/// carries only the panels of its lessons.
pub struct KafkaOptions {
    /// The group protocol: state machine, member timelines, lifecycle buttons and the
    /// eager/cooperative comparison.
    pub membership: Option<&'static MembershipPanel>,
    /// The delivery picture: exact tallies, the sink, the dead-letter topic, crash and reset
    /// buttons.
    pub delivery: Option<panels::Draw>,
}

impl LessonFamily for KafkaFamily {
    type Sim = World;
    type Options = KafkaOptions;
    type View = KafkaView;

    fn new_view(_lesson: &'static Lesson<Self>, world: &World) -> KafkaView {
        KafkaView::new(world)
    }

    fn refresh(view: &mut KafkaView, lesson: &'static Lesson<Self>, world: &World, force: bool) {
        view.refresh(
            world,
            force,
            lesson.options.membership.map(|panel| panel.timelines),
        );
    }

    fn picture(
        lesson: &'static Lesson<Self>,
        view: &KafkaView,
        ctx: &StageContext<Scenario>,
    ) -> Html {
        html! {
            <div class="run">
                <Diagram snapshot={view.snapshot.clone()} view_ms={ctx.view_ms} speed={ctx.speed}
                    reduced_motion={ctx.reduced_motion} hover_details={!ctx.playing} />
                { counters(&CountersProps {
                    produced: view.snapshot.producer.sent_total,
                    groups: view.counters.clone(),
                    membership: lesson.options.membership.is_some(),
                }) }
            </div>
        }
    }

    fn panels(
        lesson: &'static Lesson<Self>,
        view: &KafkaView,
        ctx: &StageContext<Scenario>,
    ) -> Html {
        let options = &lesson.options;
        html! {
            <>
                { legend() }
                if let Some(panel) = options.membership {
                    { (panel.draw)(view, ctx) }
                }
                if let Some(draw) = options.delivery {
                    { draw(view, ctx) }
                }
                <LagChart data={view.chart.clone()} />
                { client_metrics(&view.client_metrics) }
            </>
        }
    }

    fn knobs(
        lesson: &'static Lesson<Self>,
        scenario: &Scenario,
        on_edit: &Callback<Edit<Scenario>>,
    ) -> Html {
        knobs::knob_panel(lesson, scenario, on_edit)
    }

    /// The schedule as the world runs it: a restart is a leave and a start.
    fn scheduled_marks(world: &World) -> Vec<TimelineMark> {
        world
            .schedule()
            .iter()
            .map(|a| TimelineMark {
                at_ms: a.at_ms,
                kind: "action",
                label: match a.action {
                    // A reset acts on the whole group; the member id it carries means nothing.
                    MemberAction::ResetOffsets { .. } => format!("{}: offsets reset", a.group_id),
                    MemberAction::DeleteRecords => {
                        format!("{}: records deleted up to its commits", a.group_id)
                    }
                    action => format!("{} {}", a.member_id, action_name(action)),
                },
            })
            .collect()
    }

    fn event_mark(event: &Arc<Event>) -> Option<TimelineMark> {
        matches!(event.kind, EventKind::RebalanceStarted { .. }).then(|| TimelineMark {
            at_ms: event.at_ms,
            kind: "rebalance",
            label: "rebalance".into(),
        })
    }

    fn tone(event: &Arc<Event>) -> &'static str {
        event.kind.category()
    }

    fn real_config(scenario: &Scenario) -> RealConfig {
        RealConfig {
            title: "Real config: Kafka consumer properties",
            text: real_config::kafka_consumer_properties(scenario),
            note: "The exported JSON runs headless with `streamlab simulate --scenario FILE`.",
        }
    }

    fn csv(scenario: &Scenario, at_ms: u64) -> String {
        export::group_csv_at::<World>(scenario, at_ms, |world| world)
    }

    fn pictures(lesson: &'static Lesson<Self>) -> Vec<Picture> {
        let mut pictures = vec![("Chart (PNG)", ".charts canvas", "chart")];
        if lesson.options.delivery.is_some() {
            pictures.push(("Log (PNG)", ".delivery-log", "log"));
        }
        pictures
    }

    fn compare_changes(lesson: &'static Lesson<Self>) -> &'static [CompareChange<Scenario>] {
        if lesson.options.membership.is_some() {
            compare::PROTOCOLS
        } else if lesson.options.delivery.is_some() {
            compare::DELIVERY
        } else {
            &[]
        }
    }

    fn differences(a: &Scenario, b: &Scenario) -> (String, String) {
        compare::differences(a, b)
    }

    fn thumbnail(lesson: &'static Lesson<Self>) -> Thumbnail {
        let scenario = lesson.default_scenario();
        let members = scenario.groups.first().map_or(0, |g| g.members);
        if lesson.options.delivery.is_some() {
            Thumbnail::Delivery
        } else if lesson.options.membership.is_some() {
            Thumbnail::Rebalance { members }
        } else {
            Thumbnail::Log {
                partitions: scenario.topic.partitions,
                members,
            }
        }
    }
}

fn action_name(action: MemberAction) -> &'static str {
    match action {
        MemberAction::Start => "starts",
        MemberAction::Leave => "leaves",
        MemberAction::Crash => "crashes",
        MemberAction::Restart { .. } => "restarts",
        MemberAction::Pause { .. } => "pauses",
        MemberAction::SlowDown { .. } => "slows down",
        MemberAction::ResetOffsets { .. } => "resets offsets",
        MemberAction::DeleteRecords => "deletes records",
    }
}

/// What the diagram's marks mean: fixed markup, handed to Yew whole.
const LEGEND: &str = concat!(
    r##"<p class="legend">"##,
    r##"<span><svg width="14" height="10" aria-hidden="true"><polygon points="7,1 1,9 13,9" fill="white" stroke="#0072B2" stroke-width="1.5"/></svg> position: next offset poll() returns</span>"##,
    r##"<span><svg width="14" height="10" aria-hidden="true"><polygon points="7,1 1,9 13,9" fill="#0072B2"/></svg> committed offset: where a new owner resumes</span>"##,
    r##"<span><svg width="6" height="10" aria-hidden="true"><line x1="3" x2="3" y1="0" y2="10" stroke="#0072B2" stroke-width="2"/></svg> processed up to here</span>"##,
    "<span>Cells are records, coloured by key; dashed members are idle. Pause, then hover a record or a marker for its details.</span>",
    "</p>"
);

fn legend() -> Html {
    Html::from_html_unchecked(LEGEND.into())
}
