//! The three timestamps of one selected mobile record: when it occurred and when it was sent,
//! both by the device's clock, and when the server received it, by the server's; and what
//! they allow: `occurred + (received - sent)` puts the event on the server's clock, so a
//! device clock that is off cancels out, and only the network delay is left as error. The
//! numbers come from the core's [`three_timestamps`]; this only writes them out.

use streamlab_sim::eventtime::events::clock_time as clock;
use streamlab_sim::eventtime::views::three_timestamps;
use streamlab_sim::eventtime::{Record, TimestampSource};
use yew::prelude::*;

#[derive(PartialEq)]
pub struct RecordTimestampsProps {
    /// The selected record, if any.
    pub record: Option<Record>,
    /// Which timestamp the pipeline uses as event time.
    pub source: TimestampSource,
}

/// "0:12.300": minutes, seconds and milliseconds, since the differences are often small.
fn precise(ms: i64) -> String {
    format!("{}.{:03}", clock(ms), ms.rem_euclid(1000))
}

/// "+20.0 s", "−250 ms".
fn signed(ms: i64) -> String {
    let sign = if ms < 0 { "−" } else { "+" };
    let size = ms.unsigned_abs();
    if size >= 1000 {
        format!("{sign}{:.1} s", size as f64 / 1000.0)
    } else {
        format!("{sign}{size} ms")
    }
}

pub fn record_timestamps(props: &RecordTimestampsProps) -> Html {
    let Some(record) = props.record else {
        return html! {
            <section class="record-timestamps empty" aria-label="A record's timestamps">
                <p>{ "Click a dot to see the record's three timestamps and the clock correction they allow." }</p>
            </section>
        };
    };
    let t = three_timestamps(&record);
    let used = match props.source {
        TimestampSource::Device => "The pipeline uses the device's occurred time as event time.",
        TimestampSource::Corrected => "The pipeline uses the corrected time as event time.",
    };
    html! {
        <section class="record-timestamps" aria-label="A record's timestamps">
            <h2>{ format!("Record {} from device {}", record.index, record.key) }</h2>
            <dl>
                <dt>{ "occurred" }</dt><dd class="ts-occurred">{ precise(t.occurred_ms) }<span>{ " device clock" }</span></dd>
                <dt>{ "sent" }</dt><dd class="ts-sent">{ precise(t.sent_ms) }<span>{ format!(" device clock · held {}", signed(t.held_ms)) }</span></dd>
                <dt>{ "received" }</dt><dd class="ts-received">{ precise(t.received_ms) }<span>{ " server clock" }</span></dd>
                <dt>{ "corrected" }</dt><dd class="ts-corrected">{ precise(t.corrected_ms) }
                    <span>{ " = occurred + (received − sent), on the server clock" }</span></dd>
            </dl>
            <p>{ format!("The device's clock is off by {}; both device timestamps carry that error, so it cancels \
                in received − sent. The corrected time is still {} from when the event really happened: the network \
                delay, which no timestamp measures (only the simulation knows the true time). {used}",
                signed(t.device_clock_error_ms), signed(t.corrected_error_ms)) }</p>
        </section>
    }
}
