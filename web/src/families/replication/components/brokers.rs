//! The cluster's brokers: each one's state (up, crashed, cut off, slow, fenced), the
//! partitions the controller has it leading, and buttons that do something to it now (crash
//! or restart it, cut it off from the others or heal the partition, slow its fetches down).
//!
//! A button does not poke the running world: it adds a fault at the current time to the
//! scenario, which continues from now, so the share link reproduces what was done.

use crate::platform::shared::Shared;
use streamlab_sim::replication::{BrokerPicture, FaultKind, ReplicationSnapshot};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct BrokersProps {
    pub snapshot: Shared<ReplicationSnapshot>,
    /// (broker id, fault) to schedule now.
    pub on_fault: Callback<(u32, FaultKind)>,
}

#[function_component(Brokers)]
pub fn brokers(props: &BrokersProps) -> Html {
    html! {
        <ul class="rp-brokers" aria-label="Brokers">
            { for props.snapshot.brokers.iter().map(|b| broker(b, &props.on_fault)) }
        </ul>
    }
}

/// What a broker is, in words (never colour alone).
fn state_words(b: &BrokerPicture) -> String {
    let mut words = vec![if b.up { "up" } else { "✕ crashed" }.to_string()];
    if b.isolated {
        words.push("cut off".into());
    }
    if b.fenced {
        words.push("fenced".into());
    }
    if b.slow_extra_ms > 0 {
        words.push(format!("slow: fetches {} s late", b.slow_extra_ms / 1000));
    }
    words.join(", ")
}

fn broker(b: &BrokerPicture, on_fault: &Callback<(u32, FaultKind)>) -> Html {
    let button = |label: &'static str, kind: FaultKind| {
        let on_fault = on_fault.clone();
        let id = b.id;
        html! {
            <button type="button" onclick={Callback::from(move |_: MouseEvent| on_fault.emit((id, kind)))}>
                { label }
            </button>
        }
    };
    let leads = if b.leads.is_empty() {
        "leads nothing".to_string()
    } else {
        let list: Vec<String> = b.leads.iter().map(|p| format!("p{p}")).collect();
        format!("leads {}", list.join(", "))
    };
    let trouble = !b.up || b.isolated || b.fenced || b.slow_extra_ms > 0;
    html! {
        <li class={classes!("rp-broker", (!b.up).then_some("down"), trouble.then_some("trouble"))} data-broker={b.id.to_string()}>
            <h3>{ format!("broker {}", b.id) }</h3>
            <p class="rp-state">{ state_words(b) }</p>
            <p class="rp-leads">{ leads }</p>
            <p class="rp-actions">
                { if b.up { button("crash", FaultKind::Crash) } else { button("restart", FaultKind::Restart) } }
                { if b.isolated { button("heal", FaultKind::Heal) } else { button("cut off", FaultKind::Isolate) } }
                { if b.slow_extra_ms > 0 { button("normal pace", FaultKind::Normal) } else { button("slow down", FaultKind::Slow) } }
            </p>
        </li>
    }
}
