//! The playground: owns the runs, the clock and the scenario, and lays out a lesson page.
//!
//! Wall time becomes simulated time through one speed factor; each animation frame advances
//! every run to the new time and builds one Snapshot per run for the components to draw. A
//! frame gap longer than [`crate::browser::MAX_FRAME_GAP_MS`] (a background tab) is ignored rather than
//! simulated. A knob change, a preset or a member action builds a new Scenario, and the runs
//! are rebuilt from it and re-simulated up to the current time, so the picture always shows
//! "this scenario, run to now" and the link reproduces it.

use crate::browser::{
    frame_gap_ms, prefers_reduced_motion, shortcut, FrameLoop, KeyListener, Shortcut,
};
use crate::components::counters::{Counters, GroupCounters};
use crate::components::delivery_knobs::DeliveryKnobs;
use crate::components::delivery_panel::DeliveryPanel;
use crate::components::diagram::{Diagram, CELLS};
use crate::components::error_banner::ErrorBanner;
use crate::components::knob_panel::{Edit, KnobPanel};
use crate::components::lag_chart::{ChartData, LagChart};
use crate::components::lesson_text::LessonText;
use crate::components::membership::Membership;
use crate::components::narration::{Narration, NarrationLine};
use crate::components::presets_bar::PresetsBar;
use crate::components::share_bar::ShareBar;
use crate::components::site_header::SiteHeader;
use crate::components::timelines::{TimelineData, Timelines};
use crate::components::transport::{
    speed_factor, Transport, SPEED_EXPONENT_MAX, SPEED_EXPONENT_MIN,
};
use crate::derive::{chart_data, group_counters, narration_lines, timeline_data};
use crate::lessons::Lesson;
use crate::link::{replace_fragment, share_url, LinkState};
use crate::shared::Shared;
use crate::test_hooks::{now_ms, publish_frame, publish_knob_latency};
use streamlab_sim::assignor::Strategy;
use streamlab_sim::scenario::{MemberAction, ScenarioError, ScheduledAction};
use streamlab_sim::snapshot::Snapshot;
use streamlab_sim::{presets, Scenario, World};
use web_sys::KeyboardEvent;
use yew::prelude::*;

/// Simulated time one press of "Step" advances.
const STEP_MS: f64 = 100.0;
/// Least wall time between two chart redraws.
const CHART_REDRAW_WALL_MS: f64 = 200.0;
/// Narration lines kept on screen.
const NARRATION_KEPT: usize = 60;

pub enum Msg {
    Frame(f64),
    TogglePlay,
    Step,
    Reset,
    Speed(i32),
    Edit(Edit),
    Preset(&'static str),
    Act(String, MemberAction),
    ToggleCompare,
    /// Redraw the charts now (sent right after a rebuilt picture is on screen).
    RefreshCharts,
    DismissError,
    Key(KeyboardEvent),
}

#[derive(Properties, PartialEq)]
pub struct PlaygroundProps {
    pub initial: LinkState,
}

/// One simulated run and what is drawn from it.
struct Run {
    world: World,
    snapshot: Shared<Snapshot>,
    counters: Vec<GroupCounters>,
}

impl Run {
    fn new(scenario: &Scenario, view_ms: f64) -> Result<Self, ScenarioError> {
        let mut world = World::new(scenario)?;
        world.advance_to(view_ms.floor() as u64);
        let snapshot = Shared::new(world.snapshot(CELLS as usize));
        let counters = group_counters(&world, &snapshot);
        Ok(Self {
            world,
            snapshot,
            counters,
        })
    }

    fn advance(&mut self, view_ms: f64) {
        self.world.advance_to(view_ms.floor() as u64);
        self.snapshot = Shared::new(self.world.snapshot(CELLS as usize));
        self.counters = group_counters(&self.world, &self.snapshot);
    }
}

pub struct Playground {
    lesson: &'static Lesson,
    /// The link that reproduces the current scenario, rebuilt only when it changes.
    share_url: AttrValue,
    /// Made once: a new callback on every frame would re-render the knobs on every frame,
    /// resetting a number box while the learner types in it.
    on_edit: Callback<Edit>,
    scenario: Scenario,
    run: Run,
    /// The same scenario with the other rebalance protocol, when comparing side by side.
    comparison: Option<Run>,
    playing: bool,
    speed_exponent: i32,
    view_ms: f64,
    last_frame_ts: Option<f64>,
    frames: FrameLoop,
    /// Held for its Drop, which removes the listener.
    _keys: Option<KeyListener>,
    error: Option<String>,
    narration: Shared<Vec<NarrationLine>>,
    narrated_events: usize,
    chart: Shared<ChartData>,
    timelines: Shared<TimelineData>,
    chart_samples: usize,
    chart_drawn_at: f64,
    /// Wall time a knob change started, until its picture is on screen.
    knob_started_at: Option<f64>,
    frame_started_at: Option<f64>,
    reduced_motion: bool,
    /// The runs were rebuilt and the charts still show the old ones: redraw them right after
    /// the new diagram is on screen, so the diagram answers a knob within the frame.
    charts_stale: bool,
}

impl Component for Playground {
    type Message = Msg;
    type Properties = PlaygroundProps;

    fn create(ctx: &Context<Self>) -> Self {
        let initial = &ctx.props().initial;
        let (scenario, run) = match Run::new(&initial.scenario, 0.0) {
            Ok(run) => (initial.scenario.clone(), run),
            Err(_) => {
                let fallback = (initial.lesson.default_scenario)();
                let run = Run::new(&fallback, 0.0).expect("a lesson's default is valid");
                (fallback, run)
            }
        };
        let mut playground = Self {
            lesson: initial.lesson,
            share_url: share_url(initial.lesson, &scenario).into(),
            on_edit: ctx.link().callback(Msg::Edit),
            scenario,
            run,
            comparison: None,
            playing: true,
            speed_exponent: 0,
            view_ms: 0.0,
            last_frame_ts: None,
            frames: FrameLoop::default(),
            _keys: KeyListener::new({
                let link = ctx.link().clone();
                move |e| link.send_message(Msg::Key(e))
            }),
            error: initial.error.clone(),
            narration: Shared::new(Vec::new()),
            narrated_events: 0,
            chart: Shared::new(ChartData::default()),
            timelines: Shared::new(TimelineData::default()),
            chart_samples: 0,
            chart_drawn_at: f64::NEG_INFINITY,
            knob_started_at: None,
            frame_started_at: None,
            reduced_motion: prefers_reduced_motion(),
            charts_stale: false,
        };
        playground.refresh(true);
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
                self.rebuild();
            }
            Msg::Speed(exponent) => {
                self.speed_exponent = exponent.clamp(SPEED_EXPONENT_MIN, SPEED_EXPONENT_MAX);
            }
            Msg::Edit(edit) => {
                let mut next = self.scenario.clone();
                edit(&mut next);
                self.set_scenario(next);
            }
            Msg::Preset(slug) => {
                if let Some(preset) = presets::find(slug) {
                    self.view_ms = 0.0;
                    self.set_scenario((preset.build)());
                }
            }
            Msg::Act(member_id, action) => {
                let mut next = self.scenario.clone();
                next.schedule.push(ScheduledAction {
                    at_ms: self.run.world.now_ms() + 1,
                    group_id: next.groups[0].group_id.clone(),
                    member_id,
                    action,
                });
                self.set_scenario(next);
            }
            Msg::ToggleCompare => {
                self.comparison = match self.comparison {
                    Some(_) => None,
                    None => Run::new(&compared(&self.scenario), self.view_ms).ok(),
                };
            }
            Msg::RefreshCharts => self.refresh(true),
            Msg::DismissError => self.error = None,
            Msg::Key(event) => return self.on_key(ctx, &event),
        }
        true
    }

    fn rendered(&mut self, ctx: &Context<Self>, _first_render: bool) {
        if std::mem::take(&mut self.charts_stale) {
            ctx.link().send_message(Msg::RefreshCharts);
        }
        let work_ms = self.frame_started_at.take().map(|t| now_ms() - t);
        let world = &self.run.world;
        publish_frame(world.trace_hash().hex(), world.now_ms(), work_ms);
        if let Some(started) = self.knob_started_at.take() {
            publish_knob_latency(now_ms() - started);
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let on_edit = self.on_edit.clone();
        let lesson = self.lesson;
        html! {
            <div class="page">
                <SiteHeader current={lesson.slug} />
                if let Some(message) = &self.error {
                    <ErrorBanner message={message.clone()} on_dismiss={link.callback(|_| Msg::DismissError)} />
                }
                <main class="lesson">
                    <h1 class="question">{ lesson.question }</h1>
                    <div class="workbench">
                        <div class="stage">
                            <Transport playing={self.playing} speed_exponent={self.speed_exponent}
                                sim_ms={self.run.world.now_ms()}
                                on_toggle={link.callback(|_| Msg::TogglePlay)}
                                on_step={link.callback(|_| Msg::Step)}
                                on_reset={link.callback(|_| Msg::Reset)}
                                on_speed={link.callback(Msg::Speed)} />
                            { self.view_runs(ctx) }
                            { legend() }
                            if lesson.shows_membership {
                                <Timelines data={self.timelines.clone()} />
                                <Membership group={self.run.snapshot.groups[0].clone()}
                                    now_ms={self.run.world.now_ms()}
                                    on_act={link.callback(|(member, action)| Msg::Act(member, action))} />
                            }
                            if lesson.shows_delivery {
                                <DeliveryPanel snapshot={self.run.snapshot.0.clone()} now_ms={self.run.world.now_ms()}
                                    on_act={link.callback(|(member, action)| Msg::Act(member, action))}
                                    on_edit={on_edit.clone()} />
                            }
                            <LagChart data={self.chart.clone()} />
                            <Narration lines={self.narration.clone()} />
                        </div>
                        <aside class="side">
                            <ShareBar url={self.share_url.clone()} />
                            if !lesson.presets.is_empty() {
                                <PresetsBar slugs={lesson.presets} on_pick={link.callback(Msg::Preset)} />
                            }
                            <KnobPanel scenario={self.scenario.clone()} on_change={on_edit.clone()}
                                protocol_knobs={lesson.shows_membership} />
                            if lesson.shows_delivery {
                                <DeliveryKnobs scenario={self.scenario.clone()} on_change={on_edit.clone()} />
                            }
                        </aside>
                    </div>
                    <LessonText<Scenario> explanation={lesson.explanation} guarantee={lesson.guarantee}
                        knowledge={lesson.knowledge} failure={lesson.failure} try_this={lesson.try_this}
                        simplifications={lesson.simplifications} simpler_than="Kafka" on_try={on_edit} />
                </main>
            </div>
        }
    }
}

fn legend() -> Html {
    html! {
        <p class="legend">
            <span><svg width="14" height="10" aria-hidden="true"><polygon points="7,1 1,9 13,9" fill="white" stroke="#0072B2" stroke-width="1.5" /></svg>{ " position: next offset poll() returns" }</span>
            <span><svg width="14" height="10" aria-hidden="true"><polygon points="7,1 1,9 13,9" fill="#0072B2" /></svg>{ " committed offset: where a new owner resumes" }</span>
            <span><svg width="6" height="10" aria-hidden="true"><line x1="3" x2="3" y1="0" y2="10" stroke="#0072B2" stroke-width="2" /></svg>{ " processed up to here" }</span>
            <span>{ "Cells are records, coloured by key; dashed members are idle." }</span>
        </p>
    }
}

/// The scenario with the first group on the other rebalance protocol.
fn compared(scenario: &Scenario) -> Scenario {
    let mut other = scenario.clone();
    let group = &mut other.groups[0];
    group.partition_assignment_strategy = if group.partition_assignment_strategy.is_cooperative() {
        Strategy::Range
    } else {
        Strategy::CooperativeSticky
    };
    other
}

impl Playground {
    fn schedule_frame(&mut self, ctx: &Context<Self>) {
        if self.playing {
            let link = ctx.link().clone();
            self.frames
                .request(move |timestamp| link.send_message(Msg::Frame(timestamp)));
        }
    }

    fn view_runs(&self, ctx: &Context<Self>) -> Html {
        let speed = speed_factor(self.speed_exponent);
        let membership = self.lesson.shows_membership;
        let toggle = ctx.link().callback(|_: MouseEvent| Msg::ToggleCompare);
        let panel = |run: &Run| {
            html! {
                <div class="run">
                    <Diagram snapshot={run.snapshot.clone()} view_ms={self.view_ms} {speed}
                        reduced_motion={self.reduced_motion} />
                    <Counters produced={run.snapshot.producer.sent_total} groups={run.counters.clone()} {membership} />
                </div>
            }
        };
        let label = |run: &Run| {
            let group = &run.snapshot.groups[0];
            format!("{}: {}", group.group_id, group.strategy.config_name())
        };
        html! {
            <>
                if membership {
                    <p class="compare-toggle">
                        <button type="button" onclick={toggle} aria-pressed={self.comparison.is_some().to_string()}>
                            { if self.comparison.is_some() { "Hide the comparison" } else { "Compare eager and cooperative side by side" } }
                        </button>
                    </p>
                }
                if let Some(other) = &self.comparison {
                    <div class="side-by-side">
                        <figure><figcaption>{ label(&self.run) }</figcaption>{ panel(&self.run) }</figure>
                        <figure><figcaption>{ label(other) }</figcaption>{ panel(other) }</figure>
                    </div>
                } else {
                    { panel(&self.run) }
                }
            </>
        }
    }

    fn on_frame(&mut self, ctx: &Context<Self>, timestamp: f64) -> bool {
        self.frames.arrived();
        if !self.playing {
            return false;
        }
        let gap_ms = frame_gap_ms(self.last_frame_ts, timestamp);
        self.last_frame_ts = Some(timestamp);
        self.frame_started_at = Some(now_ms());
        self.view_ms += gap_ms * speed_factor(self.speed_exponent);
        self.advance();
        self.schedule_frame(ctx);
        true
    }

    fn on_key(&mut self, ctx: &Context<Self>, event: &KeyboardEvent) -> bool {
        let Some(shortcut) = shortcut(event) else {
            return false;
        };
        let msg = match shortcut {
            Shortcut::TogglePlay => Msg::TogglePlay,
            Shortcut::Step => Msg::Step,
            Shortcut::Faster => Msg::Speed(self.speed_exponent + 1),
            Shortcut::Slower => Msg::Speed(self.speed_exponent - 1),
            Shortcut::Reset => Msg::Reset,
        };
        <Self as Component>::update(self, ctx, msg)
    }

    fn set_scenario(&mut self, scenario: Scenario) {
        self.knob_started_at = Some(now_ms());
        self.scenario = scenario;
        replace_fragment(self.lesson, &self.scenario);
        self.share_url = share_url(self.lesson, &self.scenario).into();
        self.rebuild();
    }

    fn advance(&mut self) {
        self.run.advance(self.view_ms);
        if let Some(other) = &mut self.comparison {
            other.advance(self.view_ms);
        }
        self.refresh(false);
    }

    fn rebuild(&mut self) {
        match Run::new(&self.scenario, self.view_ms) {
            Ok(run) => {
                self.run = run;
                if self.comparison.is_some() {
                    self.comparison = Run::new(&compared(&self.scenario), self.view_ms).ok();
                }
                self.narrated_events = 0;
                self.narration = Shared::new(Vec::new());
                self.refresh(false);
                self.charts_stale = true;
            }
            Err(e) => self.error = Some(format!("This scenario cannot run: {e}")),
        }
    }

    /// Rebuilds the slower-changing view data; `force` redraws the charts now.
    fn refresh(&mut self, force: bool) {
        self.refresh_narration();
        let world = &self.run.world;
        let samples = world.metrics().samples.len();
        let wall = now_ms();
        let due =
            samples != self.chart_samples && wall - self.chart_drawn_at >= CHART_REDRAW_WALL_MS;
        if force || due {
            self.chart = Shared::new(chart_data(world));
            if self.lesson.shows_membership {
                self.timelines = Shared::new(timeline_data(world));
            }
            self.chart_samples = samples;
            self.chart_drawn_at = wall;
        }
    }

    fn refresh_narration(&mut self) {
        let events = self.run.world.events();
        if events.len() == self.narrated_events {
            return;
        }
        // Only the newest lines are kept, so only they are worth narrating.
        let from = self
            .narrated_events
            .max(events.len().saturating_sub(NARRATION_KEPT));
        let mut lines: Vec<NarrationLine> = self.narration.iter().cloned().collect();
        lines.extend(narration_lines(&events[from..]));
        let excess = lines.len().saturating_sub(NARRATION_KEPT);
        lines.drain(..excess);
        self.narrated_events = events.len();
        self.narration = Shared::new(lines);
    }
}
