//! The playground: owns the World, the clock and the scenario, and lays out the lesson page.
//!
//! Wall time becomes simulated time through one speed factor; each animation frame advances
//! the World to the new time and builds one Snapshot for every component to draw. A frame gap
//! longer than [`MAX_FRAME_GAP_MS`] (a background tab) is ignored rather than simulated. A knob
//! change builds a new World from the new Scenario and re-simulates it up to the current time,
//! so the picture always shows "this scenario, run to now".

use crate::components::counters::{Counters, GroupCounters};
use crate::components::diagram::{Diagram, CELLS};
use crate::components::error_banner::ErrorBanner;
use crate::components::knob_panel::KnobPanel;
use crate::components::lag_chart::{ChartData, LagChart};
use crate::components::lesson_text::LessonText;
use crate::components::narration::{Narration, NarrationLine};
use crate::components::share_bar::ShareBar;
use crate::components::transport::{
    speed_factor, Transport, SPEED_EXPONENT_MAX, SPEED_EXPONENT_MIN,
};
use crate::lessons::partitions::LESSON;
use crate::link::{replace_fragment, LinkState};
use crate::shared::Shared;
use crate::test_hooks::{now_ms, publish_frame, publish_knob_latency};
use streamlab_sim::events::narrate;
use streamlab_sim::metrics::SAMPLE_INTERVAL_MS;
use streamlab_sim::snapshot::{MemberState, Snapshot};
use streamlab_sim::{Scenario, World};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

/// Longest wall-clock gap between frames that is simulated; longer gaps count as this much.
const MAX_FRAME_GAP_MS: f64 = 100.0;
/// Simulated time one press of "Step" advances.
const STEP_MS: f64 = 100.0;
/// Simulated time the charts show.
const CHART_WINDOW_MS: u64 = 60_000;
/// Least wall time between two chart redraws.
const CHART_REDRAW_WALL_MS: f64 = 200.0;
/// Simulated time the throughput counter averages over.
const THROUGHPUT_WINDOW_MS: u64 = 5_000;
/// Narration lines kept on screen.
const NARRATION_KEPT: usize = 60;

pub enum Msg {
    Frame(f64),
    TogglePlay,
    Step,
    Reset,
    Speed(i32),
    Edit(Scenario),
    DismissError,
    Key(KeyboardEvent),
}

#[derive(Properties, PartialEq)]
pub struct PlaygroundProps {
    pub initial: LinkState,
}

pub struct Playground {
    scenario: Scenario,
    world: World,
    snapshot: Shared<Snapshot>,
    playing: bool,
    speed_exponent: i32,
    view_ms: f64,
    last_frame_ts: Option<f64>,
    frame_request: Option<(Closure<dyn FnMut(f64)>, i32)>,
    keydown: Option<Closure<dyn FnMut(KeyboardEvent)>>,
    error: Option<String>,
    narration: Shared<Vec<NarrationLine>>,
    narrated_events: usize,
    chart: Shared<ChartData>,
    chart_samples: usize,
    chart_drawn_at: f64,
    counters: Vec<GroupCounters>,
    /// Wall time a knob change started, until its picture is on screen.
    knob_started_at: Option<f64>,
    frame_started_at: Option<f64>,
    reduced_motion: bool,
}

impl Component for Playground {
    type Message = Msg;
    type Properties = PlaygroundProps;

    fn create(ctx: &Context<Self>) -> Self {
        let initial = &ctx.props().initial;
        let world = World::new(&initial.scenario)
            .unwrap_or_else(|_| World::new(&Scenario::default()).expect("default is valid"));
        let mut playground = Self {
            scenario: world.scenario().clone(),
            snapshot: Shared::new(world.snapshot(CELLS as usize)),
            world,
            playing: true,
            speed_exponent: 0,
            view_ms: 0.0,
            last_frame_ts: None,
            frame_request: None,
            keydown: None,
            error: initial.error.clone(),
            narration: Shared::new(Vec::new()),
            narrated_events: 0,
            chart: Shared::new(ChartData::default()),
            chart_samples: 0,
            chart_drawn_at: f64::NEG_INFINITY,
            counters: Vec::new(),
            knob_started_at: None,
            frame_started_at: None,
            reduced_motion: prefers_reduced_motion(),
        };
        playground.refresh(true);
        playground.listen_for_keys(ctx);
        playground.schedule_frame(ctx);
        playground
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Frame(timestamp) => return self.on_frame(ctx, timestamp),
            Msg::TogglePlay => {
                self.playing = !self.playing;
                self.last_frame_ts = None;
                self.schedule_frame(ctx);
            }
            Msg::Step => {
                self.view_ms = self.view_ms.floor() + STEP_MS;
                self.advance();
            }
            Msg::Reset => {
                self.view_ms = 0.0;
                self.rebuild_world();
            }
            Msg::Speed(exponent) => {
                self.speed_exponent = exponent.clamp(SPEED_EXPONENT_MIN, SPEED_EXPONENT_MAX);
            }
            Msg::Edit(scenario) => {
                self.knob_started_at = Some(now_ms());
                self.scenario = scenario;
                replace_fragment(&self.scenario);
                self.rebuild_world();
            }
            Msg::DismissError => self.error = None,
            Msg::Key(event) => return self.on_key(ctx, &event),
        }
        true
    }

    fn rendered(&mut self, _ctx: &Context<Self>, _first_render: bool) {
        let work_ms = self.frame_started_at.take().map(|t| now_ms() - t);
        publish_frame(self.world.trace_hash().hex(), self.world.now_ms(), work_ms);
        if let Some(started) = self.knob_started_at.take() {
            publish_knob_latency(now_ms() - started);
        }
    }

    fn destroy(&mut self, _ctx: &Context<Self>) {
        if let Some(window) = web_sys::window() {
            if let Some((_, id)) = self.frame_request.take() {
                let _ = window.cancel_animation_frame(id);
            }
            if let (Some(listener), Some(document)) = (self.keydown.take(), window.document()) {
                let _ = document.remove_event_listener_with_callback(
                    "keydown",
                    listener.as_ref().unchecked_ref(),
                );
            }
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let on_edit = link.callback(Msg::Edit);
        html! {
            <div class="page">
                <header class="site-header">
                    <span class="brand">{ "Streamlab" }</span>
                    <span class="lesson-title">{ LESSON.title }</span>
                </header>
                if let Some(message) = &self.error {
                    <ErrorBanner message={message.clone()} on_dismiss={link.callback(|_| Msg::DismissError)} />
                }
                <main class="lesson">
                    <h1 class="question">{ LESSON.question }</h1>
                    <div class="workbench">
                        <div class="stage">
                            <Transport playing={self.playing} speed_exponent={self.speed_exponent}
                                sim_ms={self.world.now_ms()}
                                on_toggle={link.callback(|_| Msg::TogglePlay)}
                                on_step={link.callback(|_| Msg::Step)}
                                on_reset={link.callback(|_| Msg::Reset)}
                                on_speed={link.callback(Msg::Speed)} />
                            <Diagram snapshot={self.snapshot.clone()} view_ms={self.view_ms}
                                speed={speed_factor(self.speed_exponent)} reduced_motion={self.reduced_motion} />
                            { legend() }
                            <Counters produced={self.snapshot.producer.sent_total} groups={self.counters.clone()} />
                            <LagChart data={self.chart.clone()} />
                            <Narration lines={self.narration.clone()} />
                        </div>
                        <aside class="side">
                            <ShareBar scenario={self.scenario.clone()} />
                            <KnobPanel scenario={self.scenario.clone()} on_change={on_edit.clone()} />
                        </aside>
                    </div>
                    <LessonText lesson={&LESSON} scenario={self.scenario.clone()} on_try={on_edit} />
                </main>
            </div>
        }
    }
}

fn legend() -> Html {
    html! {
        <p class="legend">
            <span><svg width="14" height="10" aria-hidden="true"><polygon points="7,1 1,9 13,9" fill="white" stroke="#0072B2" stroke-width="1.5" /></svg>{ " position: next offset poll() returns" }</span>
            <span><svg width="14" height="10" aria-hidden="true"><polygon points="7,1 1,9 13,9" fill="#0072B2" /></svg>{ " committed offset: where a restart resumes" }</span>
            <span><svg width="6" height="10" aria-hidden="true"><line x1="3" x2="3" y1="0" y2="10" stroke="#0072B2" stroke-width="2" /></svg>{ " processed up to here" }</span>
            <span>{ "Cells are records, coloured by key; dashed members are idle." }</span>
        </p>
    }
}

impl Playground {
    fn on_frame(&mut self, ctx: &Context<Self>, timestamp: f64) -> bool {
        self.frame_request = None;
        if !self.playing {
            return false;
        }
        let gap_ms = self
            .last_frame_ts
            .map_or(0.0, |last| (timestamp - last).clamp(0.0, MAX_FRAME_GAP_MS));
        self.last_frame_ts = Some(timestamp);
        self.frame_started_at = Some(now_ms());
        self.view_ms += gap_ms * speed_factor(self.speed_exponent);
        self.advance();
        self.schedule_frame(ctx);
        true
    }

    fn on_key(&mut self, ctx: &Context<Self>, event: &KeyboardEvent) -> bool {
        if typing_into_a_field(event) {
            return false;
        }
        let msg = match event.key().as_str() {
            " " => Msg::TogglePlay,
            "ArrowRight" => Msg::Step,
            "ArrowUp" => Msg::Speed(self.speed_exponent + 1),
            "ArrowDown" => Msg::Speed(self.speed_exponent - 1),
            "r" | "R" => Msg::Reset,
            _ => return false,
        };
        // Space would also scroll the page or press the focused button.
        event.prevent_default();
        <Self as Component>::update(self, ctx, msg)
    }

    fn advance(&mut self) {
        self.world.advance_to(self.view_ms.floor() as u64);
        self.refresh(false);
    }

    fn rebuild_world(&mut self) {
        match World::new(&self.scenario) {
            Ok(world) => {
                self.world = world;
                self.narrated_events = 0;
                self.narration = Shared::new(Vec::new());
                self.world.advance_to(self.view_ms.floor() as u64);
                self.refresh(true);
            }
            Err(e) => self.error = Some(format!("This scenario cannot run: {e}")),
        }
    }

    /// Rebuilds what the components draw from the World; `force` redraws the charts now.
    fn refresh(&mut self, force: bool) {
        self.snapshot = Shared::new(self.world.snapshot(CELLS as usize));
        self.counters = group_counters(&self.world, &self.snapshot);
        self.refresh_narration();
        let samples = self.world.metrics().samples.len();
        let wall = now_ms();
        if force
            || (samples != self.chart_samples && wall - self.chart_drawn_at >= CHART_REDRAW_WALL_MS)
        {
            self.chart = Shared::new(chart_data(&self.world));
            self.chart_samples = samples;
            self.chart_drawn_at = wall;
        }
    }

    fn refresh_narration(&mut self) {
        let events = self.world.events();
        if events.len() == self.narrated_events {
            return;
        }
        let mut lines: Vec<NarrationLine> = self.narration.iter().cloned().collect();
        lines.extend(
            events[self.narrated_events..]
                .iter()
                .map(|event| NarrationLine {
                    at_ms: event.at_ms,
                    text: narrate(event),
                    kind: event.kind.category(),
                }),
        );
        let excess = lines.len().saturating_sub(NARRATION_KEPT);
        lines.drain(..excess);
        self.narrated_events = events.len();
        self.narration = Shared::new(lines);
    }

    fn schedule_frame(&mut self, ctx: &Context<Self>) {
        if self.frame_request.is_some() || !self.playing {
            return;
        }
        let Some(window) = web_sys::window() else {
            return;
        };
        let link = ctx.link().clone();
        let callback =
            Closure::once(move |timestamp: f64| link.send_message(Msg::Frame(timestamp)));
        if let Ok(id) = window.request_animation_frame(callback.as_ref().unchecked_ref()) {
            self.frame_request = Some((callback, id));
        }
    }

    fn listen_for_keys(&mut self, ctx: &Context<Self>) {
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let link = ctx.link().clone();
        let listener = Closure::<dyn FnMut(KeyboardEvent)>::new(move |e: KeyboardEvent| {
            link.send_message(Msg::Key(e));
        });
        if document
            .add_event_listener_with_callback("keydown", listener.as_ref().unchecked_ref())
            .is_ok()
        {
            self.keydown = Some(listener);
        }
    }
}

/// Keys typed into a text box or a select belong to it, not to the shortcuts.
fn typing_into_a_field(event: &KeyboardEvent) -> bool {
    let Some(element) = event
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    let tag = element.tag_name();
    if tag == "SELECT" || tag == "TEXTAREA" {
        return true;
    }
    if tag == "INPUT" {
        // A range slider has no text to type; arrows on it still move the slider, though.
        let kind = element.get_attribute("type").unwrap_or_default();
        return kind != "range" || event.key().starts_with("Arrow");
    }
    false
}

fn prefers_reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches())
}

fn group_counters(world: &World, snapshot: &Snapshot) -> Vec<GroupCounters> {
    let samples = &world.metrics().samples;
    let back = (THROUGHPUT_WINDOW_MS / SAMPLE_INTERVAL_MS) as usize;
    // Early in a run the window is whatever has been sampled so far.
    let earlier = samples.len().saturating_sub(back + 1);
    snapshot
        .groups
        .iter()
        .enumerate()
        .map(|(g, group)| {
            let throughput_per_s = match (samples.get(earlier), samples.last()) {
                (Some(then), Some(now)) if now.at_ms > then.at_ms => {
                    let done = now.groups[g].processed_total - then.groups[g].processed_total;
                    done * 1000 / (now.at_ms - then.at_ms)
                }
                _ => 0,
            };
            GroupCounters {
                group_id: group.group_id.clone(),
                processed: group.processed_total,
                throughput_per_s,
                lag: group.partitions.iter().map(|p| p.lag).sum(),
                members: group.members.len(),
                idle_members: group
                    .members
                    .iter()
                    .filter(|m| m.state == MemberState::Idle)
                    .count(),
            }
        })
        .collect()
}

fn chart_data(world: &World) -> ChartData {
    let samples = &world.metrics().samples;
    let to_ms = world.now_ms();
    let from_ms = to_ms.saturating_sub(CHART_WINDOW_MS);
    let start = samples.partition_point(|s| s.at_ms < from_ms);
    let shown = &samples[start..];
    let partitions = world.topic().partitions.len();
    let lag = (0..partitions)
        .map(|p| {
            shown
                .iter()
                .map(|s| (s.at_ms, s.groups[0].lag[p]))
                .collect()
        })
        .collect();
    // Throughput over one-second windows, so the line is readable rather than jagged.
    let per_second = (1_000 / SAMPLE_INTERVAL_MS) as usize;
    let throughput = world
        .groups()
        .iter()
        .enumerate()
        .map(|(g, group)| {
            let points = (start.max(per_second)..samples.len())
                .map(|i| {
                    let (now, then) = (&samples[i], &samples[i - per_second]);
                    let done = now.groups[g].processed_total - then.groups[g].processed_total;
                    (
                        now.at_ms,
                        done as f64 * 1000.0 / (now.at_ms - then.at_ms) as f64,
                    )
                })
                .collect();
            (group.group_id().to_string(), points)
        })
        .collect();
    ChartData {
        from_ms,
        to_ms,
        lag_group_id: world.groups()[0].group_id().to_string(),
        lag,
        throughput,
    }
}
