//! The event-time playground: owns one `EventTimeWorld`, the clock and the scenario, and lays
//! out an event-time lesson page (strip, chart, counters, narration, knobs, words). The lesson's
//! `view` picks the pictures: "Which clock?" draws the arrivals strip and counts per window;
//! the watermarks lesson draws records on event time × processing time with the watermark,
//! the panes as they fire, and what became of late records; the Windows lesson draws the
//! four window types over the same records (`eventtime_windows_view`).
//!
//! Like the consumer-group playground, the [`SimClock`] turns wall time into processing time,
//! each animation frame (or the scrubber) seeks the world's [`Timeline`], and a knob change
//! rebuilds the world from the new scenario and re-simulates it up to the current time, so
//! the link reproduces the picture. The world decides everything; this module only reads it and turns it into the
//! components' data. At the end of the input the clock stops by itself.

use crate::families::eventtime::components::clocks_chart::{
    EventTimeChart, WindowCount, WindowCounts,
};
use crate::families::eventtime::components::clocks_counters::EventTimeCounters;
use crate::families::eventtime::components::knobs::{EventTimeEdit, EventTimeKnobs};
use crate::families::eventtime::components::strip::{EventTimeStrip, StripData, StripDot};
use crate::families::eventtime::components::watermark_chart::{WatermarkChart, WatermarkChartData};
use crate::families::eventtime::components::watermark_counters::{
    WatermarkCounters, WatermarkFigures,
};
use crate::families::eventtime::components::watermark_knobs::WatermarkKnobs;
use crate::families::eventtime::components::watermark_panes::{self, PaneEvent, WatermarkPanes};
use crate::families::eventtime::components::watermark_presets::WatermarkPresets;
use crate::families::eventtime::components::windows_chart::WindowsChart;
use crate::families::eventtime::components::windows_knobs::WindowsKnobs;
use crate::families::eventtime::link::{fragment_for, EventTimeLinkState};
use crate::families::eventtime::windows_view::WindowsView;
use crate::lessons::{EventTimeLesson, EventTimeView};
use crate::platform::browser::{prefers_reduced_motion, KeyListener};
use crate::platform::shared::Shared;
use crate::shell::address_bar::{url_with, AddressBar, Write};
use crate::shell::clock::{shortcut_msg, transport_msg_for, SimClock};
use crate::shell::components::embed_challenge::EmbedChallenge;
use crate::shell::components::error_banner::ErrorBanner;
use crate::shell::components::lesson_text::LessonText;
use crate::shell::components::lesson_tools::{LessonTools, ToolsFor};
use crate::shell::components::narration::{Narration, NarrationLine};
use crate::shell::components::share_bar::ShareBar;
use crate::shell::components::site_header::SiteHeader;
use crate::shell::components::timeline_scrubber::{TimelineMark, TimelineScrubber};
use crate::shell::components::transport::Transport;
use crate::shell::page::page_of;
use crate::shell::test_hooks::publish_frame;
use streamlab_sim::eventtime::{EventTimeScenario, EventTimeSnapshot, EventTimeWorld};
use streamlab_sim::family::Simulation;
use streamlab_sim::replay::timeline::Timeline;
use wasm_bindgen::prelude::*;
use web_sys::KeyboardEvent;
use yew::prelude::*;

/// Processing time a read record takes to drop into the lower lane of the strip.
const LAND_MS: f64 = 1_500.0;
/// A three-minute run at 1× would take three minutes; 8× shows it in about 20 s.
const INITIAL_SPEED_EXPONENT: i32 = 3;

pub enum Msg {
    Frame(f64),
    TogglePlay,
    Step,
    Reset,
    Speed(i32),
    Seek(u64),
    Edit(EventTimeEdit),
    DismissError,
    Key(KeyboardEvent),
}

transport_msg_for!(Msg);

#[derive(Properties, PartialEq)]
pub struct EventTimePlaygroundProps {
    pub initial: EventTimeLinkState,
}

pub struct EventTimePlayground {
    lesson: &'static EventTimeLesson,
    /// The link that reproduces the current scenario (and, while paused, the time), rebuilt
    /// only when one of them changes.
    share_url: AttrValue,
    address: AddressBar,
    /// Made once, so the knobs are not re-rendered on every frame while the learner types.
    on_edit: Callback<EventTimeEdit>,
    scenario: EventTimeScenario,
    timeline: Timeline<EventTimeWorld>,
    clock: SimClock,
    /// Held for its Drop, which removes the listener.
    _keys: Option<KeyListener>,
    error: Option<String>,
    counts: Shared<WindowCounts>,
    strip: Shared<StripData>,
    narration: Shared<Vec<NarrationLine>>,
    backlog: u64,
    /// Panes emitted when the chart and narration were last rebuilt; they change only then.
    panes_seen: usize,
    reduced_motion: bool,
    /// The watermarks view's data; `None` for lessons with the other view.
    watermarks: Option<WatermarkPanels>,
    /// The Windows view's run and data; `None` for lessons with another view.
    windows: Option<WindowsView>,
}

/// What the watermarks view draws, rebuilt from each snapshot.
struct WatermarkPanels {
    chart: Shared<WatermarkChartData>,
    figures: WatermarkFigures,
    /// Panes, drops and idleness changes; rebuilt only when one of them was added.
    events: Shared<Vec<PaneEvent>>,
    /// The scenario `events` were derived from: a knob change (say the late policy) can
    /// change their words without changing how many there are.
    events_for: EventTimeScenario,
}

impl Component for EventTimePlayground {
    type Message = Msg;
    type Properties = EventTimePlaygroundProps;

    fn create(ctx: &Context<Self>) -> Self {
        let initial = &ctx.props().initial;
        let (scenario, world) = match EventTimeWorld::new(initial.scenario.clone()) {
            Ok(world) => (initial.scenario.clone(), world),
            Err(_) => {
                let fallback = (initial.lesson.default_scenario)();
                let world = EventTimeWorld::new(fallback.clone())
                    .expect("a lesson's default scenario is valid");
                (fallback, world)
            }
        };
        let mut clock = SimClock::new(INITIAL_SPEED_EXPONENT, initial.at_ms);
        // An embedded lesson waits for the learner unless its host asked it to play.
        clock.playing &= page_of(ctx).embed.autoplay;
        let mut playground = Self {
            lesson: initial.lesson,
            share_url: AttrValue::default(),
            address: AddressBar::default(),
            on_edit: ctx.link().callback(Msg::Edit),
            scenario,
            timeline: Timeline::new(world),
            clock,
            _keys: KeyListener::new({
                let link = ctx.link().clone();
                move |e| link.send_message(Msg::Key(e))
            }),
            error: initial.error.clone(),
            counts: Shared::new(WindowCounts::default()),
            strip: Shared::new(StripData::default()),
            narration: Shared::new(Vec::new()),
            backlog: 0,
            panes_seen: usize::MAX,
            reduced_motion: prefers_reduced_motion(),
            watermarks: None,
            windows: None,
        };
        playground.share_url = url_with(&playground.fragment()).into();
        playground.advance();
        playground.schedule_frame(ctx);
        playground
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Frame(timestamp) => return self.on_frame(ctx, timestamp),
            Msg::TogglePlay => {
                if !self.clock.playing && self.at_end() {
                    // Play at the end starts the run again rather than doing nothing.
                    self.clock.view_ms = 0.0;
                    self.advance();
                }
                self.clock.toggle();
                self.write_position();
                self.schedule_frame(ctx);
            }
            Msg::Step => {
                self.clock.step();
                self.advance();
                self.write_position();
            }
            Msg::Reset => {
                self.clock.view_ms = 0.0;
                self.advance();
                self.write_position();
            }
            Msg::Speed(exponent) => self.clock.set_speed(exponent),
            Msg::Seek(at_ms) => {
                self.clock.seek(at_ms);
                self.advance();
                self.write_position();
            }
            Msg::Edit(edit) => {
                let mut next = self.scenario.clone();
                edit(&mut next);
                self.set_scenario(next);
            }
            Msg::DismissError => self.error = None,
            Msg::Key(event) => return self.on_key(ctx, &event),
        }
        true
    }

    fn rendered(&mut self, _ctx: &Context<Self>, _first_render: bool) {
        let world = self.world();
        // The fingerprint prints the whole snapshot, too much for every frame: it is what a
        // paused picture (the state a link reproduces) is compared by, and empty while playing.
        let fingerprint = if self.clock.playing {
            String::new()
        } else {
            Simulation::trace_hash(world).hex()
        };
        publish_frame(fingerprint, Simulation::now_ms(world), None);
        publish_for_tests(
            self.world(),
            &self.counts,
            self.watermarks.as_ref().map(|w| &w.figures),
        );
        if let Some(windows) = &self.windows {
            windows.publish();
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let lesson = self.lesson;
        let now_ms = self.world().now_ms();
        let watermark = self.world().combined_watermark();
        let locked = page_of(ctx).embed.locked;
        let chart_selector = Some(match lesson.view {
            EventTimeView::Clocks => ".et-chart canvas",
            EventTimeView::Watermarks => ".wm-chart svg",
            EventTimeView::Windows => ".wt-chart svg",
        });
        html! {
            <div class="page">
                <SiteHeader current={lesson.slug} />
                if let Some(message) = &self.error {
                    <ErrorBanner message={message.clone()} on_dismiss={link.callback(|_| Msg::DismissError)} />
                }
                <main class="lesson eventtime">
                    <h1 class="question">{ lesson.question }</h1>
                    <div class="workbench">
                        <div class="stage">
                            <EmbedChallenge playing={self.clock.playing} on_run={link.callback(|_| Msg::TogglePlay)} />
                            <Transport playing={self.clock.playing} speed_exponent={self.clock.speed_exponent}
                                sim_ms={now_ms.max(0) as u64}
                                on_toggle={link.callback(|_| Msg::TogglePlay)}
                                on_step={link.callback(|_| Msg::Step)}
                                on_reset={link.callback(|_| Msg::Reset)}
                                on_speed={link.callback(Msg::Speed)} />
                            <TimelineScrubber position_ms={now_ms.max(0) as u64}
                                end_ms={self.world().input_end_ms().max(0) as u64}
                                marks={self.marks()} in_the_past={false}
                                on_seek={link.callback(Msg::Seek)} />
                            if let Some(view) = &self.windows {
                                <WindowsChart data={view.chart.clone()} />
                                <Narration lines={self.narration.clone()} />
                            } else if let Some(panels) = &self.watermarks {
                                <WatermarkCounters figures={panels.figures} />
                                <div class="wm-stage">
                                    <WatermarkChart data={panels.chart.clone()} />
                                    <WatermarkPanes events={panels.events.clone()} />
                                </div>
                                <Narration lines={self.narration.clone()} />
                            } else {
                            <EventTimeCounters {now_ms} watermark_ms={watermark.as_ms()}
                                input_ended={self.at_end()} backlog={self.backlog}
                                processed={self.world().records_seen().len() as u64}
                                overcount={self.counts.largest_overcount().map(|(_, _, over)| over)} />
                            <EventTimeStrip data={self.strip.clone()} />
                            <EventTimeChart data={self.counts.clone()} />
                            <Narration lines={self.narration.clone()} />
                            }
                        </div>
                        <aside class="side" inert={locked}>
                            <ShareBar url={self.share_url.clone()} />
                            <LessonTools url={self.share_url.clone()} slug={lesson.slug} title={lesson.title}
                                of={ToolsFor::EventTime { scenario: self.scenario.clone(), now_ms, chart_selector }} />
                            if !lesson.presets.is_empty() {
                                <WatermarkPresets presets={lesson.presets} on_change={self.on_edit.clone()} />
                            }
                            if lesson.view == EventTimeView::Watermarks {
                                <WatermarkKnobs scenario={self.scenario.clone()} on_change={self.on_edit.clone()} />
                            }
                            if lesson.view == EventTimeView::Windows {
                                <WindowsKnobs scenario={self.scenario.clone()} on_change={self.on_edit.clone()} />
                            }
                            <EventTimeKnobs scenario={self.scenario.clone()} on_change={self.on_edit.clone()}
                                show_window={lesson.view != EventTimeView::Windows} />
                        </aside>
                    </div>
                    <LessonText<EventTimeScenario> explanation={lesson.explanation} guarantee={lesson.guarantee}
                        knowledge={lesson.knowledge} failure={lesson.failure} try_this={lesson.try_this}
                        simplifications={lesson.simplifications} on_try={self.on_edit.clone()}
                        simpler_than={if lesson.view == EventTimeView::Windows { "Flink and Kafka Streams" } else { "Flink" }} />
                </main>
            </div>
        }
    }
}

impl EventTimePlayground {
    fn schedule_frame(&mut self, ctx: &Context<Self>) {
        let link = ctx.link().clone();
        self.clock
            .request_frame(move |timestamp| link.send_message(Msg::Frame(timestamp)));
    }

    fn world(&self) -> &EventTimeWorld {
        self.timeline.world()
    }

    /// The address of what is on screen: the scenario, and the time while paused.
    fn fragment(&self) -> String {
        fragment_for(self.lesson, &self.scenario, self.clock.link_time_ms())
    }

    /// The clock moved without the scenario changing: update the link, not the history.
    fn write_position(&mut self) {
        let fragment = self.fragment();
        self.share_url = self.address.write(&fragment, Write::Position);
    }

    /// What the scrubber marks: the processor's outage (the event the scenario injects).
    fn marks(&self) -> Vec<TimelineMark> {
        outage_span_ms(&self.scenario)
            .map(|(from_ms, to_ms)| {
                let mark = |at_ms: i64, label: &str| TimelineMark {
                    at_ms: at_ms.max(0) as u64,
                    kind: "action",
                    label: label.into(),
                };
                vec![
                    mark(from_ms, "the processor stops"),
                    mark(to_ms, "the processor is back"),
                ]
            })
            .unwrap_or_default()
    }

    fn at_end(&self) -> bool {
        self.world().now_ms() >= self.world().input_end_ms()
    }

    fn on_frame(&mut self, ctx: &Context<Self>, timestamp: f64) -> bool {
        let end_ms = self.world().input_end_ms() as f64;
        if !self.clock.on_frame(timestamp, Some(end_ms)) {
            return false;
        }
        self.advance();
        if self.at_end() {
            // Nothing more happens after the input ends; stop the clock rather than spin.
            self.clock.playing = false;
            self.write_position();
        }
        self.schedule_frame(ctx);
        true
    }

    fn on_key(&mut self, ctx: &Context<Self>, event: &KeyboardEvent) -> bool {
        match shortcut_msg(event, &self.clock) {
            Some(msg) => <Self as Component>::update(self, ctx, msg),
            None => false,
        }
    }

    fn set_scenario(&mut self, scenario: EventTimeScenario) {
        match EventTimeWorld::new(scenario.clone()) {
            Ok(world) => {
                self.scenario = scenario;
                self.timeline = Timeline::new(world);
                let fragment = self.fragment();
                self.share_url = self.address.write(&fragment, Write::Change);
                self.error = None;
                self.advance();
            }
            // The knobs clamp to what the core accepts, so this is a combination of values
            // (say a long run at a high rate); keep the running scenario and say why.
            Err(e) => self.error = Some(format!("This scenario cannot run: {e}")),
        }
    }

    fn advance(&mut self) {
        self.timeline.seek(self.clock.now_ms());
        self.refresh();
    }

    fn refresh(&mut self) {
        match self.lesson.view {
            EventTimeView::Clocks => self.refresh_clocks(&self.world().snapshot()),
            EventTimeView::Watermarks => self.refresh_watermarks(&self.world().snapshot()),
            // It reads its own four runs, not this world's snapshot.
            EventTimeView::Windows => self.refresh_windows(),
        }
    }

    /// The Windows view follows the world's clock with its four runs.
    fn refresh_windows(&mut self) {
        let now_ms = self.world().now_ms();
        match &mut self.windows {
            Some(view) => view.sync(&self.scenario, now_ms),
            None => {
                self.windows = WindowsView::new(&self.scenario);
                if let Some(view) = &mut self.windows {
                    view.sync(&self.scenario, now_ms);
                }
            }
        }
        if let Some(view) = &self.windows {
            self.narration = view.narration.clone();
        }
    }

    /// The watermarks view: chart and counters every time (records appear as they are
    /// read), the pane list and narration only when a pane, drop or idleness change was
    /// added since the last rebuild.
    fn refresh_watermarks(&mut self, snapshot: &EventTimeSnapshot) {
        let chart = WatermarkChartData::from_snapshot(snapshot, &self.scenario);
        let figures = WatermarkFigures::from_snapshot(snapshot, &chart.dots);
        let seen = snapshot.event_time_panes.len()
            + snapshot.side_outputs.len()
            + snapshot.dropped as usize
            + snapshot.idleness_changes.len();
        let events = match self.watermarks.take() {
            Some(panels) if seen == self.panes_seen && panels.events_for == self.scenario => {
                panels.events
            }
            _ => {
                self.panes_seen = seen;
                let events = watermark_panes::pane_events(snapshot, &self.scenario, &chart.dots);
                self.narration = Shared::new(watermark_panes::narrate(&events));
                Shared::new(events)
            }
        };
        self.watermarks = Some(WatermarkPanels {
            chart: Shared::new(chart),
            figures,
            events,
            events_for: self.scenario.clone(),
        });
    }

    /// Rebuilds the components' data from the world: the strip every time (it moves), the
    /// chart and narration only when a window has fired since the last rebuild.
    fn refresh_clocks(&mut self, snapshot: &EventTimeSnapshot) {
        self.backlog = snapshot.backlog;
        let outage = outage_span_ms(&self.scenario);
        let axis_end_ms = self.world().input_end_ms().max(self.scenario.duration_ms);
        let now_ms = self.world().now_ms();
        let timestamp = self.scenario.timestamp;
        let dots = self
            .world()
            .records()
            .iter()
            .filter(|r| r.received_ms <= now_ms)
            .map(|r| StripDot {
                event_ms: r.event_time_ms(timestamp),
                key: r.key,
                index: r.index,
                landed: if r.processed_ms > now_ms {
                    0.0
                } else if self.reduced_motion {
                    1.0
                } else {
                    ((now_ms - r.processed_ms) as f64 / LAND_MS).clamp(0.05, 1.0)
                },
            })
            .collect();
        self.strip = Shared::new(StripData {
            dots,
            now_ms,
            watermark_ms: snapshot.combined_watermark.as_ms(),
            outage_ms: outage,
            axis_end_ms,
            backlog: snapshot.backlog,
        });
        let panes = snapshot.event_time_panes.len() + snapshot.processing_time_panes.len();
        // Empty processing-time windows fire without a pane, so the clock passing a window
        // end also counts as a change.
        let window_ends_passed = match self.scenario.window {
            streamlab_sim::window::WindowSpec::Tumbling { size_ms } => (now_ms / size_ms) as usize,
            _ => 0,
        };
        let seen = panes * 1_000_003 + window_ends_passed;
        if seen != self.panes_seen {
            self.panes_seen = seen;
            let counts = WindowCounts::from_rows(
                &snapshot.windows,
                self.scenario.window,
                now_ms,
                snapshot.combined_watermark,
                snapshot.input_ended,
                self.scenario.duration_ms,
                outage,
            );
            self.narration = Shared::new(narrate(self.world(), &counts, outage));
            self.counts = Shared::new(counts);
        }
    }
}

/// The outage in processing time, if the scenario has one.
fn outage_span_ms(scenario: &EventTimeScenario) -> Option<(i64, i64)> {
    let outage = &scenario.outage;
    (outage.duration_ms > 0).then_some((outage.start_ms, outage.start_ms + outage.duration_ms))
}

use streamlab_sim::eventtime::events::clock_time as clock;

fn span(w: &WindowCount) -> String {
    format!("{}–{}", clock(w.start_ms), clock(w.end_ms))
}

/// What happened and why, in processing-time order: the outage, then each window's answer by
/// each clock measured against the truth.
fn narrate(
    world: &EventTimeWorld,
    counts: &WindowCounts,
    outage: Option<(i64, i64)>,
) -> Vec<NarrationLine> {
    let now_ms = world.now_ms();
    let mut lines: Vec<(i64, String, &'static str)> = Vec::new();
    if let Some((from_ms, to_ms)) = outage {
        if now_ms >= from_ms {
            lines.push((
                from_ms,
                format!(
                    "The processor stopped at {}. Devices keep sending and the topic keeps \
                     storing: the backlog grows.",
                    clock(from_ms)
                ),
                "lag",
            ));
        }
        if now_ms >= to_ms {
            let waiting = world
                .records()
                .iter()
                .filter(|r| r.received_ms <= to_ms && r.processed_ms >= to_ms)
                .count();
            lines.push((
                to_ms,
                format!(
                    "The processor is back at {} with {waiting} records waiting; it reads them \
                     at up to {} records/s.",
                    clock(to_ms),
                    world.scenario().outage.catch_up_records_per_second
                ),
                "",
            ));
        }
    }
    for w in &counts.processing_time {
        let truth = counts.truth_of(w);
        let (text, kind) = if w.count > truth + truth / 5 && w.count >= truth + 5 {
            (
                format!(
                    "Window {} by processing time counted {} records, but only {truth} happened \
                     in it: the backlog from the outage drained into it.",
                    span(w),
                    w.count
                ),
                "lag",
            )
        } else if w.count + truth / 5 < truth {
            (
                format!(
                    "Window {} by processing time counted {} records, but {truth} happened in \
                     it: the processor was not reading them then.",
                    span(w),
                    w.count
                ),
                "lag",
            )
        } else {
            (
                format!(
                    "Window {} by processing time counted {} records; {truth} happened in it.",
                    span(w),
                    w.count
                ),
                "commit",
            )
        };
        lines.push((w.fired_at_ms, text, kind));
    }
    for w in &counts.event_time {
        let truth = counts.truth_of(w);
        let (text, kind) = if w.count == truth {
            (
                format!(
                    "Window {} by event time counted {} records, the same as the truth, once \
                     the watermark passed {}.",
                    span(w),
                    w.count,
                    clock(w.end_ms)
                ),
                "caught-up",
            )
        } else {
            (
                format!(
                    "Window {} by event time counted {} records of {truth}: the others came \
                     after the watermark had passed and were too late.",
                    span(w),
                    w.count
                ),
                "lag",
            )
        };
        lines.push((w.fired_at_ms, text, kind));
    }
    streamlab_sim::replay::sort::sort_by_key(&mut lines, |(at_ms, _, _)| *at_ms);
    lines
        .into_iter()
        .map(|(at_ms, text, kind)| NarrationLine {
            at_ms: at_ms.max(0) as u64,
            text,
            kind,
        })
        .collect()
}

/// `window.__streamlab_eventtime`: read-only figures for the end-to-end tests.
fn publish_for_tests(
    world: &EventTimeWorld,
    counts: &WindowCounts,
    watermarks: Option<&WatermarkFigures>,
) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let hooks = js_sys::Object::new();
    let set = |name: &str, value: JsValue| {
        let _ = js_sys::Reflect::set(&hooks, &JsValue::from_str(name), &value);
    };
    set("simMs", JsValue::from_f64(world.now_ms() as f64));
    set("inputEndMs", JsValue::from_f64(world.input_end_ms() as f64));
    set(
        "maxProcessingOverTruth",
        counts
            .largest_overcount()
            .map_or(JsValue::NULL, |(_, _, over)| JsValue::from_f64(over as f64)),
    );
    let event_time_off = counts
        .event_time
        .iter()
        .map(|w| (w.count as i64 - counts.truth_of(w) as i64).abs())
        .max();
    set(
        "maxEventTimeOffTruth",
        event_time_off.map_or(JsValue::NULL, |off| JsValue::from_f64(off as f64)),
    );
    set(
        "eventTimeWindowsFired",
        JsValue::from_f64(counts.event_time.len() as f64),
    );
    if let Some(f) = watermarks {
        let number = |value: u64| JsValue::from_f64(value as f64);
        set("dropped", number(f.dropped));
        set("sideOutputs", number(f.side_outputs));
        set("latePanes", number(f.late_panes));
        set("retractions", number(f.retractions));
        set("openWindows", number(f.open_windows));
        set(
            "longestWatermarkStallMs",
            JsValue::from_f64(f.longest_stall_ms as f64),
        );
        set(
            "firstIdleAtMs",
            f.first_idle_at_ms
                .map_or(JsValue::NULL, |at_ms| JsValue::from_f64(at_ms as f64)),
        );
    }
    let _ = js_sys::Reflect::set(&window, &JsValue::from_str("__streamlab_eventtime"), &hooks);
}
