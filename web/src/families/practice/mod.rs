//! The practice family: the Inkwell challenge, on the core's practice world
//! (`streamlab_sim::practice`), which runs the consumer-group world under the challenge's
//! fixed load and measures each service's goal. Its picture is the consumer-group family's
//! diagram of the topic and the three services' groups, beside the goals with pass or fail
//! and the cost meter; below it, hints behind a button, the lag chart and the verdict as the
//! `streamlab grade` command prints it. A learner changes only the challenge's knobs.

pub mod components;
pub mod lessons;
pub mod view;

use crate::families::kafka::components::counters::{counters, CountersProps};
use crate::families::kafka::components::diagram::Diagram;
use crate::families::kafka::components::lag_chart::LagChart;
use crate::families::kafka::export::group_csv_at;
use crate::shell::compare::table_differences;
use crate::shell::components::timeline_scrubber::TimelineMark;
use crate::shell::family::{Edit, Lesson, LessonFamily, Picture, RealConfig, StageContext};
use crate::widgets::knob_rows::knob_panel;
use crate::widgets::lesson_thumbnail::Thumbnail;
use components::cost_meter::{cost_meter, CostMeterProps};
use components::goals::{goals, GoalsProps};
use components::hints::Hints;
use components::verdict_json::VerdictJson;
use std::sync::Arc;
use streamlab_sim::family::knob::settings_text;
use streamlab_sim::kafka::events::Event;
use streamlab_sim::practice::knobs::{section, KNOBS};
use streamlab_sim::practice::{
    InkwellScenario, InkwellWorld, DEPLOY_AT_MS, DEPLOY_DOWN_MS, RECOMMENDER_CATCH_UP_MS_MAX,
    WAREHOUSE_SLOW_AT_MS, WAREHOUSE_SLOW_FOR_MS,
};
use view::PracticeView;
use yew::prelude::*;
/// The family's own style rules (`static/families/practice.css`), added to the page by the
/// bundles that draw its components.
pub const STYLE: &str = crate::minified_css!("../../../../static/families/practice.css");

/// The practice family.
pub struct PracticeFamily;

/// What a practice page offers beyond its knobs.
pub struct PracticeOptions {
    /// Hints, shown one at a time when asked for.
    pub hints: &'static [&'static str],
}

impl LessonFamily for PracticeFamily {
    type Sim = InkwellWorld;
    type Options = PracticeOptions;
    type View = PracticeView;

    /// Three minutes at 1× would be slow to watch; 4× plays an attempt in 45 s.
    const INITIAL_SPEED_EXPONENT: i32 = 2;
    /// The goals are judged at the attempt's end; the clock stops there.
    const STOPS_AT_END: bool = true;

    fn new_view(_lesson: &'static Lesson<Self>, world: &InkwellWorld) -> PracticeView {
        PracticeView::new(world)
    }

    fn refresh(
        view: &mut PracticeView,
        _lesson: &'static Lesson<Self>,
        world: &InkwellWorld,
        force: bool,
    ) {
        view.refresh(world, force);
    }

    fn picture(
        _lesson: &'static Lesson<Self>,
        view: &PracticeView,
        ctx: &StageContext<InkwellScenario>,
    ) -> Html {
        let kafka = &view.kafka;
        html! {
            <div class="run p-run">
                { goals(&GoalsProps { verdict: view.verdict.clone() }) }
                { cost_meter(&CostMeterProps { verdict: view.verdict.clone() }) }
                <Diagram snapshot={kafka.snapshot.clone()} view_ms={ctx.view_ms} speed={ctx.speed}
                    reduced_motion={ctx.reduced_motion} hover_details={!ctx.playing} />
                { counters(&CountersProps {
                    produced: kafka.snapshot.producer.sent_total,
                    groups: kafka.counters.clone(),
                    membership: false,
                }) }
            </div>
        }
    }

    fn panels(
        lesson: &'static Lesson<Self>,
        view: &PracticeView,
        _ctx: &StageContext<InkwellScenario>,
    ) -> Html {
        html! {
            <>
                <Hints hints={lesson.options.hints} />
                <LagChart data={view.kafka.chart.clone()} />
                <VerdictJson verdict={view.verdict.clone()} />
            </>
        }
    }

    fn knobs(
        lesson: &'static Lesson<Self>,
        scenario: &InkwellScenario,
        on_edit: &Callback<Edit<InkwellScenario>>,
    ) -> Html {
        knob_panel(
            KNOBS,
            lesson.knob_sections,
            scenario,
            "p-knobs",
            "p-",
            on_edit,
        )
    }

    /// What the challenge does to the services, once each (the core schedules it per
    /// consumer), and the recommender's deadline.
    fn scheduled_marks(_world: &InkwellWorld) -> Vec<TimelineMark> {
        let mark = |at_ms, label: &str| TimelineMark {
            at_ms,
            kind: "action",
            label: label.into(),
        };
        vec![
            mark(WAREHOUSE_SLOW_AT_MS, "analytics: the warehouse slows down"),
            mark(
                WAREHOUSE_SLOW_AT_MS + WAREHOUSE_SLOW_FOR_MS,
                "analytics: the warehouse recovers",
            ),
            mark(DEPLOY_AT_MS, "recommender: deploy, every consumer stops"),
            mark(DEPLOY_AT_MS + DEPLOY_DOWN_MS, "recommender: back up"),
            mark(
                DEPLOY_AT_MS + RECOMMENDER_CATCH_UP_MS_MAX,
                "recommender: deadline to be caught up",
            ),
        ]
    }

    fn tone(event: &Arc<Event>) -> &'static str {
        event.kind.category()
    }

    fn real_config(scenario: &InkwellScenario) -> RealConfig {
        let topic = settings_text(KNOBS, scenario, &[section::TOPIC]);
        let consumers = streamlab_sim::practice::SERVICES
            .iter()
            .map(|s| {
                format!(
                    "group.id = {}: {} consumer processes",
                    s.name(),
                    scenario.consumers.of(*s)
                )
            })
            .collect::<Vec<_>>()
            .join("\n");
        RealConfig {
            title: "Real config: the topic's settings and each service's consumers",
            text: format!("{topic}\n\n# consumers\n{consumers}"),
            note: "The exported JSON is graded headless with `streamlab grade --scenario FILE`.",
        }
    }

    fn csv(scenario: &InkwellScenario, at_ms: u64) -> String {
        group_csv_at(scenario, at_ms, InkwellWorld::kafka)
    }

    fn pictures(_lesson: &'static Lesson<Self>) -> Vec<Picture> {
        vec![("Chart (PNG)", ".charts canvas", "chart")]
    }

    fn differences(a: &InkwellScenario, b: &InkwellScenario) -> (String, String) {
        table_differences(KNOBS, a, b)
    }

    fn thumbnail(_lesson: &'static Lesson<Self>) -> Thumbnail {
        Thumbnail::Practice
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use streamlab_sim::practice::SERVICES;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn the_metrics_csv_has_a_row_per_service_at_every_sample_of_the_attempt() {
        let csv = <PracticeFamily as LessonFamily>::csv(&InkwellScenario::default(), 10_000);
        let rows: Vec<Vec<&str>> = csv
            .lines()
            .skip(1)
            .map(|row| row.split(',').collect())
            .collect();
        assert!(rows.len() >= 2 * SERVICES.len(), "{csv}");
        assert_eq!(rows.len() % SERVICES.len(), 0, "{csv}");
        for (row, service) in rows.iter().zip(SERVICES.iter().cycle()) {
            assert_eq!(row[1], service.name(), "{csv}");
        }
        let produced = |row: &Vec<&str>| row[2].parse::<u64>().unwrap();
        let last = rows.last().unwrap();
        assert!(produced(last) > produced(&rows[0]), "{csv}");
    }
}
