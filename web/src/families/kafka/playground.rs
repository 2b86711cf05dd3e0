//! The playground: owns the runs, the clock and the scenario, and lays out a lesson page.
//!
//! Each animation frame moves the [`SimClock`] on, seeks every run's [`Timeline`] to the new
//! time and builds one Snapshot per run for the components to draw. The scrubber seeks the
//! same way, backwards too (a checkpoint and at most one spacing of replay). A knob change or
//! a preset builds a new Scenario, and the runs are rebuilt from it and re-simulated up to the
//! current time, so the picture always shows "this scenario, run to now" and the link
//! reproduces it; a member action only adds to the future, so the runs continue from now
//! (`Timeline::fork`), which gives the same run without the replay. Acting after a seek back forks: the scheduled actions the
//! learner had already seen after that time are dropped. Every change is a history entry
//! ([`AddressBar`]).

use crate::families::kafka::components::counters::{Counters, GroupCounters};
use crate::families::kafka::components::delivery_knobs::DeliveryKnobs;
use crate::families::kafka::components::delivery_panel::DeliveryPanel;
use crate::families::kafka::components::diagram::{Diagram, CELLS};
use crate::families::kafka::components::knob_panel::{Edit, KnobPanel};
use crate::families::kafka::components::lag_chart::{ChartData, LagChart};
use crate::families::kafka::components::membership::Membership;
use crate::families::kafka::components::timelines::{TimelineData, Timelines};
use crate::families::kafka::view_model::{
    chart_data, group_counters, narration_lines, timeline_data,
};
use crate::lessons::Lesson;
use crate::platform::browser::{prefers_reduced_motion, KeyListener};
use crate::platform::shared::Shared;
use crate::shell::address_bar::{url_with, AddressBar, Write};
use crate::shell::clock::{shortcut_msg, transport_msg_for, SimClock};
use crate::shell::components::embed_challenge::EmbedChallenge;
use crate::shell::components::error_banner::ErrorBanner;
use crate::shell::components::lesson_text::LessonText;
use crate::shell::components::lesson_tools::{LessonTools, ToolsFor};
use crate::shell::components::narration::{Narration, NarrationLine};
use crate::shell::components::presets_bar::PresetsBar;
use crate::shell::components::share_bar::ShareBar;
use crate::shell::components::site_header::SiteHeader;
use crate::shell::components::timeline_scrubber::{TimelineMark, TimelineScrubber};
use crate::shell::components::transport::{speed_factor, Transport};
use crate::shell::link::{fragment_for, LinkState};
use crate::shell::page::page_of;
use crate::shell::test_hooks::{now_ms, publish_frame, publish_knob_latency};
use streamlab_sim::assignor::Strategy;
use streamlab_sim::kafka::scenario::{MemberAction, ScenarioError, ScheduledAction};
use streamlab_sim::kafka::snapshot::Snapshot;
use streamlab_sim::kafka::{presets, EventKind, Scenario, World};
use streamlab_sim::replay::timeline::{forked, Timeline};
use web_sys::KeyboardEvent;
use yew::prelude::*;

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
    Seek(u64),
    Edit(Edit),
    Preset(&'static str),
    Act(String, MemberAction),
    /// (group id, member id, action) to schedule now for a named group.
    ActIn(String, String, MemberAction),
    ToggleCompare,
    /// Redraw the charts now (sent right after a rebuilt picture is on screen).
    RefreshCharts,
    DismissError,
    Key(KeyboardEvent),
}

transport_msg_for!(Msg);

#[derive(Properties, PartialEq)]
pub struct PlaygroundProps {
    pub initial: LinkState,
}

/// One simulated run, seekable, and what is drawn from it.
struct Run {
    timeline: Timeline<World>,
    snapshot: Shared<Snapshot>,
    counters: Vec<GroupCounters>,
    /// The furthest time the run has been to, and the rebalances it met on the way (they stay
    /// on the scrubber after a seek back).
    furthest_ms: u64,
    rebalances_ms: Vec<u64>,
    events_marked: usize,
}

impl Run {
    fn new(scenario: &Scenario, at_ms: u64) -> Result<Self, ScenarioError> {
        let timeline = Timeline::new(World::new(scenario)?);
        let mut run = Self {
            snapshot: Shared::new(timeline.world().snapshot(CELLS as usize)),
            timeline,
            counters: Vec::new(),
            furthest_ms: 0,
            rebalances_ms: Vec::new(),
            events_marked: 0,
        };
        run.seek(at_ms);
        Ok(run)
    }

    fn world(&self) -> &World {
        self.timeline.world()
    }

    fn seek(&mut self, at_ms: u64) {
        self.timeline.seek(at_ms);
        let world = self.timeline.world();
        if world.now_ms() >= self.furthest_ms {
            let new_events = &world.events()[self.events_marked.min(world.events().len())..];
            self.rebalances_ms.extend(
                new_events
                    .iter()
                    .filter(|e| matches!(e.kind, EventKind::RebalanceStarted { .. }))
                    .map(|e| e.at_ms),
            );
            self.events_marked = world.events().len();
            self.furthest_ms = world.now_ms();
        }
        self.snapshot = Shared::new(world.snapshot(CELLS as usize));
        self.counters = group_counters(world, &self.snapshot);
    }

    /// Continues under `scenario` from now if it changes only the future; the future already
    /// seen (and its rebalances) is forgotten.
    fn fork(&mut self, scenario: &Scenario) -> bool {
        if !self.timeline.fork(scenario) {
            return false;
        }
        let world = self.timeline.world();
        self.furthest_ms = world.now_ms();
        self.rebalances_ms
            .retain(|&at_ms| at_ms <= self.furthest_ms);
        self.events_marked = world.events().len();
        true
    }

    /// What the scrubber marks: every scheduled action, and every rebalance met so far.
    fn marks(&self) -> Vec<TimelineMark> {
        let actions = self.world().schedule().iter().map(|a| TimelineMark {
            at_ms: a.at_ms,
            kind: "action",
            label: match a.action {
                // A reset acts on the whole group; the member id it carries means nothing.
                MemberAction::ResetOffsets { .. } => format!("{}: offsets reset", a.group_id),
                action => format!("{} {}", a.member_id, action_name(action)),
            },
        });
        let rebalances = self.rebalances_ms.iter().map(|&at_ms| TimelineMark {
            at_ms,
            kind: "rebalance",
            label: "rebalance".into(),
        });
        actions.chain(rebalances).collect()
    }
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
    }
}

pub struct Playground {
    lesson: &'static Lesson,
    /// The link that reproduces the current scenario (and, while paused, the time), rebuilt
    /// only when one of them changes.
    share_url: AttrValue,
    address: AddressBar,
    /// Made once: a new callback on every frame would re-render the knobs on every frame,
    /// resetting a number box while the learner types in it.
    on_edit: Callback<Edit>,
    scenario: Scenario,
    run: Run,
    /// The same scenario with the other rebalance protocol, when comparing side by side.
    comparison: Option<Run>,
    clock: SimClock,
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
        let mut clock = SimClock::new(0, initial.at_ms);
        // An embedded lesson waits for the learner unless its host asked it to play.
        clock.playing &= page_of(ctx).embed.autoplay;
        let (scenario, run) = match Run::new(&initial.scenario, clock.now_ms()) {
            Ok(run) => (initial.scenario.clone(), run),
            Err(_) => {
                let fallback = (initial.lesson.default_scenario)();
                let run = Run::new(&fallback, clock.now_ms()).expect("a lesson's default is valid");
                (fallback, run)
            }
        };
        let mut playground = Self {
            lesson: initial.lesson,
            share_url: AttrValue::default(),
            address: AddressBar::default(),
            on_edit: ctx.link().callback(Msg::Edit),
            scenario,
            run,
            comparison: None,
            clock,
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
        playground.share_url = url_with(&playground.fragment()).into();
        playground.refresh(true);
        playground.schedule_frame(ctx);
        playground
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Frame(timestamp) => return self.on_frame(ctx, timestamp),
            Msg::TogglePlay => {
                self.clock.toggle();
                if !self.clock.playing {
                    // The paused picture is the one a link reopens: bring the charts and
                    // timelines, redrawn only a few times a second while playing, up to now.
                    self.advance();
                    self.refresh(true);
                }
                self.write_position();
                self.schedule_frame(ctx);
            }
            Msg::Step => {
                self.clock.step();
                self.advance();
                self.refresh(true);
                self.write_position();
            }
            Msg::Reset => {
                self.clock.view_ms = 0.0;
                self.advance();
                self.refresh(true);
                self.write_position();
            }
            Msg::Speed(exponent) => self.clock.set_speed(exponent),
            Msg::Seek(at_ms) => {
                self.clock.seek(at_ms);
                self.advance();
                self.refresh(true);
                self.write_position();
            }
            Msg::Edit(edit) => {
                let mut next = self.forked();
                edit(&mut next);
                self.set_scenario(next);
            }
            Msg::Preset(slug) => {
                if let Some(preset) = presets::find(slug) {
                    self.clock.view_ms = 0.0;
                    self.set_scenario((preset.build)());
                }
            }
            Msg::Act(member_id, action) => {
                let group_id = self.scenario.groups[0].group_id.clone();
                return Component::update(self, ctx, Msg::ActIn(group_id, member_id, action));
            }
            Msg::ActIn(group_id, member_id, action) => {
                let mut next = self.forked();
                next.schedule.push(ScheduledAction {
                    at_ms: self.run.world().now_ms() + 1,
                    group_id,
                    member_id,
                    action,
                });
                self.act(next);
            }
            Msg::ToggleCompare => {
                self.comparison = match self.comparison {
                    Some(_) => None,
                    None => Run::new(&compared(&self.scenario), self.clock.now_ms()).ok(),
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
        let world = self.run.world();
        publish_frame(world.trace_hash().hex(), world.now_ms(), work_ms);
        if let Some(started) = self.knob_started_at.take() {
            publish_knob_latency(now_ms() - started);
        }
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let on_edit = self.on_edit.clone();
        let lesson = self.lesson;
        let locked = page_of(ctx).embed.locked;
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
                            <EmbedChallenge playing={self.clock.playing} on_run={link.callback(|_| Msg::TogglePlay)} />
                            <Transport playing={self.clock.playing} speed_exponent={self.clock.speed_exponent}
                                sim_ms={self.run.world().now_ms()}
                                on_toggle={link.callback(|_| Msg::TogglePlay)}
                                on_step={link.callback(|_| Msg::Step)}
                                on_reset={link.callback(|_| Msg::Reset)}
                                on_speed={link.callback(Msg::Speed)} />
                            <TimelineScrubber position_ms={self.run.world().now_ms()}
                                end_ms={self.run.furthest_ms.max(self.scenario.duration_ms)}
                                marks={self.run.marks()} in_the_past={self.in_the_past()}
                                on_seek={link.callback(Msg::Seek)} />
                            { self.view_runs(ctx) }
                            { legend() }
                            if lesson.shows_membership {
                                <Timelines data={self.timelines.clone()} />
                                <Membership group={self.run.snapshot.groups[0].clone()}
                                    now_ms={self.run.world().now_ms()}
                                    on_act={link.callback(|(member, action)| Msg::Act(member, action))} />
                            }
                            if lesson.shows_delivery {
                                <DeliveryPanel snapshot={self.run.snapshot.0.clone()} now_ms={self.run.world().now_ms()}
                                    on_act={link.callback(|(group, member, action)| Msg::ActIn(group, member, action))}
                                    on_edit={on_edit.clone()} />
                            }
                            <LagChart data={self.chart.clone()} />
                            <Narration lines={self.narration.clone()} />
                        </div>
                        <aside class="side" inert={locked}>
                            <ShareBar url={self.share_url.clone()} />
                            <LessonTools url={self.share_url.clone()} slug={lesson.slug} title={lesson.title}
                                of={ToolsFor::Group { scenario: self.scenario.clone(), now_ms: self.run.world().now_ms(), delivery_log: lesson.shows_delivery }} />
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
        let link = ctx.link().clone();
        self.clock
            .request_frame(move |timestamp| link.send_message(Msg::Frame(timestamp)));
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

    /// The run is showing an earlier time than it has been to.
    fn in_the_past(&self) -> bool {
        self.run.world().now_ms() < self.run.furthest_ms
    }

    /// The scenario to change: the current one, without the future already seen if the
    /// learner is acting in the past.
    fn forked(&self) -> Scenario {
        forked(
            &self.scenario,
            self.run.world().now_ms(),
            self.run.furthest_ms,
        )
    }

    fn view_runs(&self, ctx: &Context<Self>) -> Html {
        let speed = speed_factor(self.clock.speed_exponent);
        let membership = self.lesson.shows_membership;
        let toggle = ctx.link().callback(|_: MouseEvent| Msg::ToggleCompare);
        let panel = |run: &Run| {
            html! {
                <div class="run">
                    <Diagram snapshot={run.snapshot.clone()} view_ms={self.clock.view_ms} {speed}
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
        if !self.clock.on_frame(timestamp, None) {
            return false;
        }
        self.frame_started_at = Some(now_ms());
        self.advance();
        self.schedule_frame(ctx);
        true
    }

    fn on_key(&mut self, ctx: &Context<Self>, event: &KeyboardEvent) -> bool {
        match shortcut_msg(event, &self.clock) {
            Some(msg) => <Self as Component>::update(self, ctx, msg),
            None => false,
        }
    }

    fn set_scenario(&mut self, scenario: Scenario) {
        self.record_scenario(scenario);
        self.rebuild();
    }

    /// A member action: it changes only the future, so the runs continue from now (their
    /// checkpoints up to now kept) instead of being re-simulated from zero.
    fn act(&mut self, scenario: Scenario) {
        let main = self.run.fork(&scenario);
        let comparison = main
            && match &mut self.comparison {
                Some(other) => other.fork(&compared(&scenario)),
                None => true,
            };
        if comparison {
            self.record_scenario(scenario);
            self.refresh(true);
        } else {
            self.set_scenario(scenario);
        }
    }

    /// The scenario changed: remember it, and write it into the address bar as a history step.
    fn record_scenario(&mut self, scenario: Scenario) {
        self.knob_started_at = Some(now_ms());
        self.scenario = scenario;
        let fragment = self.fragment();
        self.share_url = self.address.write(&fragment, Write::Change);
    }

    fn advance(&mut self) {
        let at_ms = self.clock.now_ms();
        self.run.seek(at_ms);
        if let Some(other) = &mut self.comparison {
            other.seek(at_ms);
        }
        self.refresh(false);
    }

    fn rebuild(&mut self) {
        let at_ms = self.clock.now_ms();
        match Run::new(&self.scenario, at_ms) {
            Ok(run) => {
                self.run = run;
                if self.comparison.is_some() {
                    self.comparison = Run::new(&compared(&self.scenario), at_ms).ok();
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
        let world = self.run.world();
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
        let events = self.run.world().events();
        if events.len() < self.narrated_events {
            // A seek back: narrate again from the restored run.
            self.narrated_events = 0;
            self.narration = Shared::new(Vec::new());
        }
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
