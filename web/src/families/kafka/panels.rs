//! The panels below the picture that only some of the family's lessons show: the group
//! protocol (rebalances lesson) and the delivery picture (delivery lesson).
//!
//! A lesson names its panels as function pointers in its options rather than as flags, so a
//! bundle whose lessons leave a panel out never references the panel's components and the
//! linker drops their code (`crate::bundles`: one bundle per Kafka lesson).

use super::components::delivery_panel::DeliveryPanel;
use super::components::membership::{membership, MembershipProps};
use super::components::timelines::{TimelineData, Timelines};
use super::view::KafkaView;
use super::view_model::timeline_data;
use crate::shell::family::{Act, StageContext};
use std::rc::Rc;
use streamlab_sim::kafka::scenario::{MemberAction, ScheduledAction};
use streamlab_sim::kafka::{Scenario, World};
use yew::prelude::*;

/// Draws one optional panel from the view.
pub type Draw = fn(&KafkaView, &StageContext<Scenario>) -> Html;

/// The group protocol: state machine, member timelines, lifecycle buttons. The timelines are
/// derived from the run with the charts, only in lessons that show them.
pub struct MembershipPanel {
    pub draw: Draw,
    pub timelines: fn(&World) -> TimelineData,
}

/// The rebalances lesson's group protocol panel.
pub static MEMBERSHIP: MembershipPanel = MembershipPanel {
    draw: draw_membership,
    timelines: timeline_data,
};

fn draw_membership(view: &KafkaView, ctx: &StageContext<Scenario>) -> Html {
    let on_act = ctx
        .on_act
        .reform(|(member, action): (String, MemberAction)| schedule(None, member, action));
    html! {
        <>
            <Timelines data={view.timelines.clone()} />
            { membership(&MembershipProps {
                group: view.snapshot.groups[0].clone(),
                now_ms: view.now_ms,
                on_act,
            }) }
        </>
    }
}

/// The delivery lesson's panel: exact tallies, the sink, the dead-letter topic, crash and reset
/// buttons.
pub fn draw_delivery(view: &KafkaView, ctx: &StageContext<Scenario>) -> Html {
    let on_act = ctx
        .on_act
        .reform(|(group, member, action): (String, String, MemberAction)| {
            schedule(Some(group), member, action)
        });
    html! {
        <DeliveryPanel snapshot={view.snapshot.clone()} now_ms={view.now_ms}
            on_act={on_act} on_edit={ctx.on_edit.clone()} />
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
