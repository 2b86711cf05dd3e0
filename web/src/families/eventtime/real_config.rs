//! The real configuration behind the event-time knobs: the Flink DataStream calls (and Beam's
//! names beside them) a scenario stands for. A pure function of the scenario, so a test can
//! check every mapping.

use streamlab_sim::eventtime::{EventTimeScenario, LateRecordPolicy, TimeDomain, TimestampSource};
use streamlab_sim::window::WindowSpec;

/// The Flink DataStream calls an event-time scenario stands for, with Beam's names alongside.
pub fn flink_settings(scenario: &EventTimeScenario) -> String {
    let seconds = |ms: i64| format!("Duration.ofMillis({ms})");
    let window = match scenario.window {
        WindowSpec::Tumbling { size_ms } => match scenario.time_domain {
            TimeDomain::EventTime => format!("TumblingEventTimeWindows.of({})", seconds(size_ms)),
            TimeDomain::ProcessingTime => {
                format!("TumblingProcessingTimeWindows.of({})", seconds(size_ms))
            }
        },
        WindowSpec::Hopping { size_ms, hop_ms } => format!(
            "SlidingEventTimeWindows.of({}, {})",
            seconds(size_ms),
            seconds(hop_ms)
        ),
        WindowSpec::Session { gap_ms } => {
            format!("EventTimeSessionWindows.withGap({})", seconds(gap_ms))
        }
        // Flink has no window defined by the records themselves; Kafka Streams does.
        WindowSpec::Sliding { time_difference_ms } => format!(
            "/* no Flink equivalent; Kafka Streams: */ SlidingWindows.ofTimeDifferenceWithNoGrace({})",
            seconds(time_difference_ms)
        ),
    };
    let mut strategy = format!(
        "WatermarkStrategy.forBoundedOutOfOrderness({})",
        seconds(scenario.max_out_of_orderness_ms)
    );
    if scenario.idleness_ms > 0 {
        strategy.push_str(&format!(
            "\n    .withIdleness({})",
            seconds(scenario.idleness_ms)
        ));
    }
    strategy.push_str(match scenario.timestamp {
        TimestampSource::Device => {
            "\n    .withTimestampAssigner((event, ts) -> event.occurredAt())"
        }
        TimestampSource::Corrected => {
            "\n    .withTimestampAssigner((event, ts) -> event.occurredAt() + (event.receivedAt() - event.sentAt()))"
        }
    });
    let late = match scenario.late_policy {
        LateRecordPolicy::Drop => "// too-late records are dropped (Flink's default)",
        LateRecordPolicy::Restate => {
            "// Beam: .accumulatingAndRetractingFiredPanes() restates each late result"
        }
        LateRecordPolicy::SideOutput => ".sideOutputLateData(lateTag)",
    };
    format!(
        "// Kafka source: {} partitions, one source split each\n\
         env.fromSource(kafkaSource, {strategy},\n    \"devices\")\n\
         .keyBy(event -> event.deviceId())\n\
         .window({window})\n\
         .allowedLateness({})\n\
         {late}\n\
         .aggregate(new CountPerWindow());\n\
         // Beam: Window.into(...).withAllowedLateness({}), watermark from the source",
        scenario.partitions,
        seconds(scenario.allowed_lateness_ms),
        seconds(scenario.allowed_lateness_ms),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use streamlab_sim::eventtime::outage_spike;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn flink_settings_follow_the_watermark_knobs() {
        let mut scenario = outage_spike();
        scenario.max_out_of_orderness_ms = 5_000;
        scenario.idleness_ms = 0;
        scenario.late_policy = LateRecordPolicy::SideOutput;
        let settings = flink_settings(&scenario);
        assert!(settings.contains("forBoundedOutOfOrderness(Duration.ofMillis(5000))"));
        assert!(!settings.contains("withIdleness"));
        assert!(settings.contains(".sideOutputLateData(lateTag)"));
        scenario.idleness_ms = 10_000;
        assert!(flink_settings(&scenario).contains(".withIdleness(Duration.ofMillis(10000))"));
    }
}
