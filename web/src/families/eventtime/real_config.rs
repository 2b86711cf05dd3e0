//! The real configuration behind the event-time knobs: the Flink DataStream calls (and Beam's
//! names beside them) a scenario stands for. A pure function of the scenario, so a test can
//! check every mapping.

use streamlab_sim::eventtime::{EventTimeScenario, LateRecordPolicy, TimeDomain, TimestampSource};
use streamlab_sim::window::WindowSpec;

/// The Flink DataStream calls an event-time scenario stands for, with Beam's names alongside.
pub fn flink_settings(scenario: &EventTimeScenario) -> String {
    let seconds = |ms: i64| format!("Duration.ofMillis({ms})");
    let processing = scenario.time_domain == TimeDomain::ProcessingTime;
    // Flink names each assigner by the clock it counts by.
    let clock = if processing {
        "ProcessingTime"
    } else {
        "EventTime"
    };
    let window = match scenario.window {
        WindowSpec::Tumbling { size_ms } => format!("Tumbling{clock}Windows.of({})", seconds(size_ms)),
        WindowSpec::Hopping { size_ms, hop_ms } => format!(
            "Sliding{clock}Windows.of({}, {})",
            seconds(size_ms),
            seconds(hop_ms)
        ),
        WindowSpec::Session { gap_ms } => {
            format!("{clock}SessionWindows.withGap({})", seconds(gap_ms))
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
        LateRecordPolicy::Drop => "// too-late records are dropped (Flink's default)".to_string(),
        // Neither the DataStream API nor Beam retracts: Beam's panes discard or accumulate.
        // Retractions are the Dataflow model's idea; Flink SQL's changelogs carry them.
        LateRecordPolicy::Restate => "// a late pane replaces the earlier result: downstream retracts the old value\n\
             // (Flink SQL emits it as a changelog: -U old row, +U new row; a Kafka Streams KTable\n\
             // forwards the old and new values; Beam has discarding and accumulating panes only)"
            .to_string(),
        LateRecordPolicy::SideOutput => ".sideOutputLateData(lateTag)".to_string(),
    };
    // Lateness is measured against the watermark: processing-time windows have none.
    let lateness = if processing {
        "// processing-time windows fire on the clock: no watermark, no allowed lateness, nothing late".to_string()
    } else {
        format!(
            ".allowedLateness({})\n{late}",
            seconds(scenario.allowed_lateness_ms)
        )
    };
    let beam = if processing {
        "// Beam: Window.into(...).triggering(AfterProcessingTime...)".to_string()
    } else {
        format!(
            "// Beam: Window.into(...).withAllowedLateness({}), watermark from the source",
            seconds(scenario.allowed_lateness_ms)
        )
    };
    format!(
        "// Kafka source: {} partitions, one source split each\n\
         env.fromSource(kafkaSource, {strategy},\n    \"devices\")\n\
         .keyBy(event -> event.deviceId())\n\
         .window({window})\n\
         {lateness}\n\
         .aggregate(new CountPerWindow());\n\
         {beam}",
        scenario.partitions,
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
        scenario.time_domain = TimeDomain::EventTime;
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

    #[wasm_bindgen_test]
    fn processing_time_windows_are_named_so_and_take_no_lateness() {
        let mut scenario = outage_spike();
        scenario.time_domain = TimeDomain::ProcessingTime;
        scenario.allowed_lateness_ms = 5_000;
        let settings = flink_settings(&scenario);
        assert!(
            settings.contains("TumblingProcessingTimeWindows.of("),
            "{settings}"
        );
        assert!(!settings.contains("EventTimeWindows"), "{settings}");
        assert!(!settings.contains("allowedLateness"), "{settings}");
        scenario.window = WindowSpec::Session { gap_ms: 2_000 };
        assert!(flink_settings(&scenario).contains("ProcessingTimeSessionWindows.withGap("));
    }

    #[wasm_bindgen_test]
    fn a_restating_policy_is_not_presented_as_a_beam_api() {
        let mut scenario = outage_spike();
        scenario.time_domain = TimeDomain::EventTime;
        scenario.late_policy = LateRecordPolicy::Restate;
        let settings = flink_settings(&scenario);
        assert!(
            !settings.contains("accumulatingAndRetracting"),
            "{settings}"
        );
        assert!(settings.contains("-U old row, +U new row"), "{settings}");
    }
}
