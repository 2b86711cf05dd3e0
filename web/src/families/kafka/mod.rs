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
pub mod real_config;
pub mod view;
pub mod view_model;

use crate::shell::components::timeline_scrubber::TimelineMark;
use crate::shell::family::Lesson;
use crate::shell::family::{
    Act, CompareChange, Edit, LessonFamily, Picture, RealConfig, StageContext,
};
use crate::widgets::lesson_thumbnail::Thumbnail;
use components::client_metrics::ClientMetrics;
use components::counters::{counters, CountersProps};
use components::delivery_panel::DeliveryPanel;
use components::diagram::Diagram;
use components::lag_chart::LagChart;
use components::membership::{membership, MembershipProps};
use components::timelines::Timelines;
use std::rc::Rc;
use std::sync::Arc;
use streamlab_sim::kafka::events::{Event, EventKind};
use streamlab_sim::kafka::scenario::{MemberAction, ScheduledAction};
use streamlab_sim::kafka::{Scenario, World};
use view::KafkaView;
use yew::prelude::*;
/// The family's own style rules (`static/families/kafka.css`), added to the page by the
/// bundles that draw its components.
pub const STYLE: &str = include_str!("../../../../static/families/kafka.css");

/// The consumer-group family.
pub struct KafkaFamily;

/// Which of the family's panels a lesson shows.
pub struct KafkaOptions {
    /// The group protocol: state machine, member timelines, lifecycle buttons and the
    /// eager/cooperative comparison.
    pub shows_membership: bool,
    /// The delivery picture: exact tallies, the sink, the dead-letter topic, crash and reset
    /// buttons.
    pub shows_delivery: bool,
}

impl LessonFamily for KafkaFamily {
    type Sim = World;
    type Options = KafkaOptions;
    type View = KafkaView;

    fn new_view(_lesson: &'static Lesson<Self>, world: &World) -> KafkaView {
        KafkaView::new(world)
    }

    fn refresh(view: &mut KafkaView, lesson: &'static Lesson<Self>, world: &World, force: bool) {
        view.refresh(world, force, lesson.options.shows_membership);
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
                    membership: lesson.options.shows_membership,
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
        let act_in_first_group = ctx
            .on_act
            .reform(|(member, action): (String, MemberAction)| schedule(None, member, action));
        let act_in =
            ctx.on_act
                .reform(|(group, member, action): (String, String, MemberAction)| {
                    schedule(Some(group), member, action)
                });
        html! {
            <>
                { legend() }
                if options.shows_membership {
                    <Timelines data={view.timelines.clone()} />
                    { membership(&MembershipProps {
                        group: view.snapshot.groups[0].clone(),
                        now_ms: view.now_ms,
                        on_act: act_in_first_group,
                    }) }
                }
                if options.shows_delivery {
                    <DeliveryPanel snapshot={view.snapshot.0.clone()} now_ms={view.now_ms}
                        on_act={act_in} on_edit={ctx.on_edit.clone()} />
                }
                <LagChart data={view.chart.clone()} />
                <ClientMetrics groups={view.client_metrics.clone()} />
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
        if lesson.options.shows_delivery {
            pictures.push(("Log (PNG)", ".delivery-log", "log"));
        }
        pictures
    }

    fn compare_changes(lesson: &'static Lesson<Self>) -> &'static [CompareChange<Scenario>] {
        if lesson.options.shows_membership {
            compare::PROTOCOLS
        } else if lesson.options.shows_delivery {
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
        if lesson.options.shows_delivery {
            Thumbnail::Delivery
        } else if lesson.options.shows_membership {
            Thumbnail::Rebalance { members }
        } else {
            Thumbnail::Log {
                partitions: scenario.topic.partitions,
                members,
            }
        }
    }
}

/// An action on a member, a millisecond after now, in `group` (the first group if `None`).
fn schedule(group: Option<String>, member: String, action: MemberAction) -> Act<Scenario> {
    Rc::new(move |s: &mut Scenario, now_ms: u64| {
        let group_id = group
            .clone()
            .or_else(|| s.groups.first().map(|g| g.group_id.clone()))
            .unwrap_or_default();
        s.schedule.push(ScheduledAction {
            at_ms: now_ms + 1,
            group_id,
            member_id: member.clone(),
            action,
        });
    })
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

fn legend() -> Html {
    html! {
        <p class="legend">
            <span><svg width="14" height="10" aria-hidden="true"><polygon points="7,1 1,9 13,9" fill="white" stroke="#0072B2" stroke-width="1.5" /></svg>{ " position: next offset poll() returns" }</span>
            <span><svg width="14" height="10" aria-hidden="true"><polygon points="7,1 1,9 13,9" fill="#0072B2" /></svg>{ " committed offset: where a new owner resumes" }</span>
            <span><svg width="6" height="10" aria-hidden="true"><line x1="3" x2="3" y1="0" y2="10" stroke="#0072B2" stroke-width="2" /></svg>{ " processed up to here" }</span>
            <span>{ "Cells are records, coloured by key; dashed members are idle. Pause, then hover a record or a marker for its details." }</span>
        </p>
    }
}
