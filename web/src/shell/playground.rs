//! The playground every lesson runs in, whatever its family: it owns the clock, the run (and
//! in a comparison a second one), the scenario and the address, and lays out the page.
//!
//! Each animation frame moves the [`SimClock`] on and seeks every run to the new time; the
//! scrubber seeks the same way, backwards too. A knob change or a preset builds a new
//! scenario and the runs are rebuilt and re-simulated up to the current time, so the picture
//! always shows "this scenario, run to now" and the link reproduces it; an action taken now
//! (a crash button) changes only the future, so the runs continue from now. Acting after a
//! seek back forks: the future already seen is dropped. After a knob change, the runs of the
//! knob's next steps are built in idle time ([`NearbyRuns`]); before the first change, a page
//! opened paused rehearses one unseen ([`Rehearsal`]). Every change is a history entry
//! ([`AddressBar`]). The family ([`LessonFamily`]) draws the picture, the panels and the
//! knobs; the shell draws the rest.

use super::address_bar::{url_with, AddressBar, Write};
use super::clock::{shortcut_msg, SimClock, TransportMsg};
use super::compare::{Comparison, Side};
use super::components::compare_panel::{compare_panel, ComparePanelProps};
use super::components::embed_challenge::EmbedChallenge;
use super::components::error_banner::{error_banner, ErrorBannerProps};
use super::components::family_knobs::FamilyKnobs;
use super::components::lesson_text::LessonText;
use super::components::lesson_tools::{lesson_tools, LessonToolsProps};
use super::components::misconception_banner::MisconceptionBanner;
use super::components::narration::{newest_lines, Narration, NarrationLine};
use super::components::presets_bar::{presets_bar, PresetButton, PresetsBarProps};
use super::components::rebuild_notice::{rebuild_notice, RebuildNoticeProps};
use super::components::share_bar::ShareBar;
use super::components::site_header::SiteHeader;
use super::components::timeline_scrubber::{
    timeline_scrubber, TimelineMark, TimelineScrubberProps,
};
use super::components::transport::{speed_factor, transport, TransportProps};
use super::family::{Act, Edit, Lesson, LessonFamily, Scenario, StageContext};
use super::host_api::{self, HostCommand};
use super::link::{LessonLink, LinkMemo};
use super::nearby_runs::NearbyRuns;
use super::page::page_of;
use super::rebuild::{Built, Rebuild, FIRST_SLICE_BUDGET_MS};
use super::rehearsal::Rehearsal;
use super::run::Run;
use super::test_hooks::{now_ms, publish_frame, publish_knob_latency};
use crate::platform::browser::{after_next_paint, prefers_reduced_motion, KeyListener};
use crate::platform::shared::Shared;
use streamlab_sim::family::preset;
use streamlab_sim::family::Headless;
use streamlab_sim::family::Simulation;
use streamlab_sim::invariant::Surely;
use streamlab_sim::misconceptions::Misconception;
use web_sys::KeyboardEvent;
use yew::prelude::*;

/// Narration lines kept on screen (a run's whole story at lesson sizes; the list scrolls).
const NARRATION_KEPT: usize = 200;

pub enum Msg<F: LessonFamily> {
    Frame(f64),
    TogglePlay,
    Step,
    Reset,
    Speed(i32),
    Seek(u64),
    Edit(Edit<Scenario<F>>),
    Act(Act<Scenario<F>>),
    Preset(&'static str),
    /// Opens a comparison: with the family's one-click change at this index, or as a plain
    /// copy that the next changes turn into something else.
    OpenComparison(Option<usize>),
    CloseComparison,
    EditSide(Side),
    DismissError,
    Key(KeyboardEvent),
    Host(HostCommand),
    /// A slice of idle work on the runs one knob step either side of the current setting.
    PrepareNearby,
    /// A slice of the knob change's run being rebuilt.
    Rebuild,
    /// Makes the share link and writes the staged address into the address bar, after the
    /// picture they describe.
    WriteAddress,
    /// A slice of the unseen rehearsal of a knob change.
    Rehearse,
}

impl<F: LessonFamily> TransportMsg for Msg<F> {
    fn toggle_play() -> Self {
        Msg::TogglePlay
    }
    fn step() -> Self {
        Msg::Step
    }
    fn reset() -> Self {
        Msg::Reset
    }
    fn speed(exponent: i32) -> Self {
        Msg::Speed(exponent)
    }
}

#[derive(Properties)]
pub struct PlaygroundProps<F: LessonFamily> {
    pub initial: LessonLink<F>,
}

impl<F: LessonFamily> PartialEq for PlaygroundProps<F> {
    fn eq(&self, other: &Self) -> bool {
        self.initial == other.initial
    }
}

pub struct Playground<F: LessonFamily> {
    lesson: &'static Lesson<F>,
    scenario: Scenario<F>,
    run: Run<F>,
    comparison: Option<Comparison<F>>,
    clock: SimClock,
    /// The link that reproduces what is on screen, made after the picture of a change (see
    /// [`Self::write_address_soon`]).
    share_url: AttrValue,
    link: LinkMemo<F>,
    address: AddressBar,
    /// A write of the staged address is asked for (after the next paint); false when nothing
    /// is staged.
    address_write_asked: bool,
    on_write_address: Callback<()>,
    /// Made once: a new callback on every frame would re-render the knobs on every frame,
    /// resetting a number box while the learner types in it.
    on_edit: Callback<Edit<Scenario<F>>>,
    on_act: Callback<Act<Scenario<F>>>,
    /// The runs of the knob's next steps, built in idle time after a knob change.
    nearby: NearbyRuns<F>,
    on_prepare: Callback<()>,
    /// A knob change's run still being built, slice by slice.
    rebuild: Option<Rebuild<F>>,
    on_rebuild: Callback<()>,
    rehearsal: Rehearsal<F>,
    on_rehearse: Callback<()>,
    /// Held for its Drop, which removes the listener.
    _keys: Option<KeyListener>,
    /// Held for its Drop, which stops the course page's messages reaching this playground.
    _host: host_api::Connection,
    error: Option<String>,
    narration: Shared<Vec<NarrationLine>>,
    narrated_events: usize,
    /// Wall time a knob change started, until its picture is on screen.
    knob_started_at: Option<f64>,
    frame_started_at: Option<f64>,
    reduced_motion: bool,
    /// The misconception whose refuting preset is on screen as built, if any.
    misconception: Option<&'static Misconception>,
}

impl<F: LessonFamily> Component for Playground<F> {
    type Message = Msg<F>;
    type Properties = PlaygroundProps<F>;

    fn create(ctx: &Context<Self>) -> Self {
        let initial = &ctx.props().initial;
        let lesson = initial.lesson;
        let mut clock = SimClock::new(F::INITIAL_SPEED_EXPONENT, initial.at_ms);
        // An embedded lesson waits for the learner unless its host asked it to play.
        clock.playing &= page_of(ctx).embed.autoplay;
        let (scenario, run) = match Run::new(lesson, &initial.scenario, clock.now_ms()) {
            Ok(run) => (initial.scenario.clone(), run),
            Err(_) => {
                let fallback = lesson.default_scenario();
                let run = Run::new(lesson, &fallback, clock.now_ms())
                    .surely("a lesson's default is valid");
                (fallback, run)
            }
        };
        let comparison = initial
            .compared
            .as_ref()
            .and_then(|other| Comparison::new(lesson, other.clone(), clock.now_ms(), Side::B));
        let link = ctx.link().clone();
        let on_rehearse = ctx.link().callback(|()| Msg::Rehearse);
        let mut playground = Self {
            lesson,
            scenario,
            run,
            comparison,
            clock,
            share_url: AttrValue::default(),
            link: LinkMemo::default(),
            address: AddressBar::default(),
            address_write_asked: false,
            on_write_address: ctx.link().callback(|()| Msg::WriteAddress),
            on_edit: ctx.link().callback(Msg::Edit),
            on_act: ctx.link().callback(Msg::Act),
            nearby: NearbyRuns::default(),
            on_prepare: ctx.link().callback(|()| Msg::PrepareNearby),
            rebuild: None,
            on_rebuild: ctx.link().callback(|()| Msg::Rebuild),
            rehearsal: Rehearsal::new(&on_rehearse),
            on_rehearse,
            _keys: KeyListener::new({
                let link = link.clone();
                move |e| link.send_message(Msg::Key(e))
            }),
            _host: host_api::connect(move |command| link.send_message(Msg::Host(command))),
            error: initial.error.clone(),
            narration: Shared::new(Vec::new()),
            narrated_events: 0,
            knob_started_at: None,
            frame_started_at: None,
            reduced_motion: prefers_reduced_motion(),
            misconception: None,
        };
        playground.misconception = misconception_of(lesson, &playground.scenario);
        playground.share_url = url_with(&playground.fragment()).into();
        playground.refresh_narration();
        playground.schedule_frame(ctx);
        playground
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg<F>) -> bool {
        if self.rebuild.is_some() && settles_rebuild(&msg) {
            self.finish_rebuild_now();
        }
        if learner_acts(&msg) {
            self.rehearsal.cancel();
        }
        match msg {
            Msg::Frame(timestamp) => return self.on_frame(ctx, timestamp),
            Msg::TogglePlay => self.toggle_play(ctx),
            Msg::Step => {
                self.clock.step();
                self.advance(true);
                self.write_position();
            }
            Msg::Reset => {
                self.clock.view_ms = 0.0;
                self.advance(true);
                self.write_position();
            }
            Msg::Speed(exponent) => self.clock.set_speed(exponent),
            Msg::Seek(at_ms) => self.seek(at_ms),
            Msg::Edit(edit) => {
                // Timed from here, so the figure includes rebuilding and re-simulating the run.
                self.knob_started_at = Some(now_ms());
                if self.comparison.is_none() {
                    return self.edit_run(edit);
                }
                for &side in self.editing().sides() {
                    let mut next = self.forked(side);
                    (edit.apply)(&mut next);
                    self.set_side(side, next);
                }
                self.prepare_nearby(&edit);
            }
            Msg::Act(act) => {
                let now_ms = self.run.now_ms();
                for &side in self.editing().sides() {
                    let mut next = self.forked(side);
                    act(&mut next, now_ms);
                    self.act(side, next);
                }
            }
            Msg::Preset(slug) => {
                if let Some(preset) = preset::find(self.lesson.presets, slug) {
                    // A preset replaces the setting being built: no need to finish it (nor
                    // to time its picture, which will not come).
                    if self.rebuild.take().is_some() {
                        self.knob_started_at = None;
                    }
                    self.clock.view_ms = 0.0;
                    self.set_side(Side::A, (preset.build)());
                }
            }
            Msg::OpenComparison(change) => self.open_comparison(change),
            Msg::CloseComparison => {
                self.comparison = None;
                self.record_change();
            }
            Msg::EditSide(side) => {
                if let Some(comparison) = &mut self.comparison {
                    comparison.editing = side;
                }
            }
            Msg::DismissError => self.error = None,
            Msg::Key(event) => return self.on_key(ctx, &event),
            Msg::Host(command) => return self.on_host(ctx, command),
            Msg::Rebuild => return self.rebuild_slice(),
            Msg::Rehearse => return self.rehearse(),
            Msg::PrepareNearby => {
                let at_ms = self.run.now_ms();
                self.nearby
                    .work(at_ms, self.clock.playing, &self.on_prepare);
                return false;
            }
            Msg::WriteAddress => {
                self.address_write_asked = false;
                self.write_address();
                // The share field shows the new link.
            }
        }
        true
    }

    fn rendered(&mut self, _ctx: &Context<Self>, _first_render: bool) {
        let work_ms = self.frame_started_at.take().map(|t| now_ms() - t);
        let world = self.run.world();
        publish_frame(world.trace_hash().hex(), world.now_ms(), work_ms);
        F::publish_for_tests(&self.run.view, world);
        if self.rebuild.is_some() {
            // The change's picture is not on screen yet: only the progress.
            return;
        }
        if let Some(started) = self.knob_started_at.take() {
            publish_knob_latency(started);
        }
        if !self.address.is_staged() {
            host_api::publish(self.state());
        }
        self.nearby.resume(&self.on_prepare);
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let lesson = self.lesson;
        let words = &lesson.words;
        let locked = page_of(ctx).embed.locked;
        let stage = self.stage_context(false);
        let presets: Vec<PresetButton> = lesson
            .presets()
            .map(|p| PresetButton {
                slug: p.slug,
                title: p.title,
                description: p.description,
            })
            .collect();
        let config = F::real_config(&self.scenario);
        html! {
            <div class="page">
                <SiteHeader current={words.slug} />
                if let Some(message) = &self.error {
                    { error_banner(&ErrorBannerProps {
                        message: message.clone().into(),
                        on_dismiss: link.callback(|_| Msg::DismissError),
                    }) }
                }
                <main class={classes!("lesson", F::Sim::FAMILY)}>
                    <h1 class="question">{ words.question }</h1>
                    { self.view_misconception() }
                    <div class="workbench">
                        <div class={classes!("stage", self.rebuild.is_some().then_some("rebuilding"))}>
                            <EmbedChallenge playing={self.clock.playing} on_run={link.callback(|_| Msg::TogglePlay)} />
                            { transport(&TransportProps {
                                playing: self.clock.playing,
                                speed_exponent: self.clock.speed_exponent,
                                sim_ms: self.run.now_ms(),
                                on_toggle: link.callback(|_| Msg::TogglePlay),
                                on_step: link.callback(|_| Msg::Step),
                                on_reset: link.callback(|_| Msg::Reset),
                                on_speed: link.callback(Msg::Speed),
                            }) }
                            { timeline_scrubber(&TimelineScrubberProps {
                                position_ms: self.run.now_ms(),
                                end_ms: self.run.furthest_ms.max(self.run.world().end_ms()),
                                marks: self.marks(),
                                in_the_past: self.run.in_the_past(),
                                on_seek: link.callback(Msg::Seek),
                            }) }
                            if let Some(rebuild) = &self.rebuild {
                                { rebuild_notice(&RebuildNoticeProps {
                                    from_ms: rebuild.from_ms(),
                                    built_ms: rebuild.progress_ms().0,
                                    target_ms: rebuild.progress_ms().1,
                                }) }
                            }
                            { self.view_runs(ctx) }
                            { F::panels(lesson, &self.run.view, &stage) }
                            <Narration lines={self.narration.clone()} />
                        </div>
                        <aside class="side" inert={locked}>
                            <ShareBar url={self.share_url.clone()} />
                            { lesson_tools(&LessonToolsProps {
                                url: self.share_url.clone(),
                                slug: words.slug,
                                title: words.title,
                                config_title: config.title,
                                config: config.text,
                                config_note: config.note,
                                pictures: F::pictures(lesson),
                                on_csv: self.csv_callback(),
                                on_json: self.json_callback(),
                            }) }
                            if !presets.is_empty() {
                                { presets_bar(&PresetsBarProps { presets, on_pick: link.callback(Msg::Preset) }) }
                            }
                            <FamilyKnobs<F> {lesson} scenario={self.editing_scenario().clone()}
                                on_edit={self.on_edit.clone()} />
                        </aside>
                    </div>
                    <LessonText<Scenario<F>> words={words} text={&lesson.text} try_this={lesson.try_this} on_try={self.on_edit.clone()} />
                </main>
            </div>
        }
    }
}

impl<F: LessonFamily> Playground<F> {
    fn schedule_frame(&mut self, ctx: &Context<Self>) {
        let link = ctx.link().clone();
        self.clock
            .request_frame(move |timestamp| link.send_message(Msg::Frame(timestamp)));
    }

    fn stage_context(&self, compared: bool) -> StageContext<Scenario<F>> {
        StageContext {
            view_ms: self.clock.view_ms,
            speed: speed_factor(self.clock.speed_exponent),
            reduced_motion: self.reduced_motion,
            playing: self.clock.playing,
            on_edit: self.on_edit.clone(),
            on_act: self.on_act.clone(),
            compared,
        }
    }

    /// The address of what is on screen: the scenario, the comparison, and the time while
    /// paused.
    fn fragment(&self) -> String {
        self.link.fragment(
            self.lesson,
            &self.scenario,
            self.comparison.as_ref().map(|c| &c.scenario),
            self.clock.link_time_ms(),
        )
    }

    /// The clock moved without the scenario changing: update the link, not the history.
    fn write_position(&mut self) {
        self.address.stage(Write::Position);
        self.write_address_soon();
    }

    /// The run changed: a new history entry.
    fn record_change(&mut self) {
        self.knob_started_at.get_or_insert_with(now_ms);
        self.address.stage(Write::Change);
        self.write_address_soon();
    }

    /// Makes the share link and writes the staged address in a task after the next paint, so
    /// the picture waits for neither packing the scenario into a link (1 to 3 ms) nor the
    /// write (`replaceState` takes milliseconds) nor a timer that could run before the frame.
    /// The share field shows the link a frame after the picture.
    fn write_address_soon(&mut self) {
        if !self.address_write_asked {
            self.address_write_asked = true;
            let write = self.on_write_address.clone();
            after_next_paint(move || write.emit(()));
        }
    }

    /// The side knobs and actions change: B while a comparison is open and set to it.
    fn editing(&self) -> Side {
        self.comparison.as_ref().map_or(Side::A, |c| c.editing)
    }

    fn editing_scenario(&self) -> &Scenario<F> {
        match (&self.comparison, self.editing(), &self.rebuild) {
            (Some(comparison), Side::B, _) => &comparison.scenario,
            (_, _, Some(rebuild)) => rebuild.scenario(),
            _ => &self.scenario,
        }
    }

    /// The scenario of `side` to change: without the future already seen if the learner is
    /// acting in the past.
    fn forked(&self, side: Side) -> Scenario<F> {
        let scenario = match (&self.comparison, side) {
            (Some(comparison), Side::B) => &comparison.scenario,
            _ => &self.scenario,
        };
        F::Sim::without_future(scenario, self.run.now_ms(), self.run.furthest_ms)
    }

    /// `scenario` becomes `side`'s: its run is rebuilt and re-simulated to now.
    fn set_side(&mut self, side: Side, scenario: Scenario<F>) {
        self.nearby.stop();
        let at_ms = self.clock.now_ms();
        match (side, &mut self.comparison) {
            (Side::B, Some(comparison)) => {
                if let Err(e) = comparison.rebuild(self.lesson, scenario, at_ms) {
                    self.error = Some(format!("This scenario cannot run: {e}"));
                    return;
                }
            }
            _ => match Run::new(self.lesson, &scenario, at_ms) {
                Ok(run) => self.install(scenario, run),
                // The knobs clamp to what the core accepts, so this is a combination of
                // values; keep the running scenario and say why.
                Err(e) => {
                    self.error = Some(format!("This scenario cannot run: {e}"));
                    return;
                }
            },
        }
        self.refresh_narration();
        self.record_change();
    }

    /// `run` (of `scenario`) becomes side A's.
    fn install(&mut self, scenario: Scenario<F>, run: Run<F>) {
        self.run = run;
        self.misconception = misconception_of(self.lesson, &scenario);
        self.scenario = scenario;
        if let Some(comparison) = &mut self.comparison {
            comparison.follow(&self.run);
        }
        self.narrated_events = 0;
        self.narration = Shared::new(Vec::new());
        self.error = None;
    }

    /// A knob change without a comparison: the new setting's run is taken from the kept runs
    /// or built from zero, in slices if that takes longer than one ([`Rebuild`]). A change
    /// while one is still building starts from the setting being built; one that goes back
    /// to the setting on screen simply ends the build, whose part built is kept.
    fn edit_run(&mut self, edit: Edit<Scenario<F>>) -> bool {
        let building = self.rebuild.is_some();
        let mut next = match self.rebuild.take() {
            Some(rebuild) => rebuild.into_scenario(),
            None => self.forked(Side::A),
        };
        (edit.apply)(&mut next);
        if building && next == self.scenario {
            // The run on screen is this setting's already: nothing to build, and the page is
            // as it was before the first change (its nearby steps prepared again).
            self.prepare_nearby(&edit);
            return true;
        }
        self.nearby.stop();
        let Ok(mut rebuild) = Rebuild::start(next.clone(), self.clock.now_ms(), edit) else {
            // Not a scenario the core runs: set_side says why and keeps the running one.
            self.set_side(Side::A, next);
            return true;
        };
        if rebuild.work(FIRST_SLICE_BUDGET_MS) {
            self.finish_rebuild(rebuild.finish_now());
            return true;
        }
        rebuild.build_next_slice(&self.on_rebuild);
        self.rebuild = Some(rebuild);
        // Nothing to draw yet: the notice comes once the build has taken a while.
        false
    }

    /// The next slice of the rebuild; re-renders when it is done or its notice is due.
    fn rebuild_slice(&mut self) -> bool {
        let Some(mut rebuild) = self.rebuild.take() else {
            return false;
        };
        if rebuild.slice(&self.on_rebuild) {
            self.finish_rebuild(rebuild.built());
            return true;
        }
        let due = rebuild.progress_due();
        self.rebuild = Some(rebuild);
        due
    }

    /// Builds what is left of a rebuild at once, for an action that needs the settled run.
    fn finish_rebuild_now(&mut self) {
        if let Some(rebuild) = self.rebuild.take() {
            self.finish_rebuild(rebuild.finish_now());
        }
    }

    /// The built run becomes the one on screen, as a knob change's run does.
    fn finish_rebuild(&mut self, built: Built<F>) {
        let Built {
            scenario,
            mut timeline,
            from_kept,
            edit,
        } = built;
        let at_ms = self.clock.now_ms();
        // A kept run may stand past now: the view is built where it will be shown.
        timeline.seek(at_ms);
        let run = Run::from_timeline(self.lesson, timeline, at_ms, from_kept);
        self.install(scenario, run);
        self.refresh_narration();
        self.record_change();
        self.prepare_nearby(&edit);
    }

    /// An action taken now: it changes only the future, so the run continues from now (its
    /// checkpoints up to now kept) instead of being re-simulated from zero.
    fn act(&mut self, side: Side, scenario: Scenario<F>) {
        self.nearby.stop();
        let continued = match (side, &mut self.comparison) {
            (Side::B, Some(comparison)) => comparison.fork(scenario.clone(), &self.run),
            _ => {
                let forked = self.run.fork(&scenario);
                if forked {
                    self.misconception = misconception_of(self.lesson, &scenario);
                    self.scenario = scenario.clone();
                    if let Some(comparison) = &mut self.comparison {
                        comparison.follow(&self.run);
                    }
                }
                forked
            }
        };
        if continued {
            self.refresh_narration();
            self.record_change();
        } else {
            self.set_side(side, scenario);
        }
    }

    /// A slice of the rehearsal, given up if the page plays or compares two runs; once the run
    /// is built again it takes the place of the one on screen, and the picture is drawn anew
    /// (the same picture).
    fn rehearse(&mut self) -> bool {
        if self.clock.playing || self.comparison.is_some() {
            self.rehearsal.cancel();
            return false;
        }
        let at_ms = self.run.now_ms();
        let Some(timeline) = self
            .rehearsal
            .work(&self.scenario, at_ms, &self.on_rehearse)
        else {
            return false;
        };
        self.run.renew(timeline);
        true
    }

    /// After a knob change that went through, builds the runs of its next steps in idle time.
    /// Not while comparing: the edit applies to a side the kept runs do not follow.
    fn prepare_nearby(&mut self, edit: &Edit<Scenario<F>>) {
        if self.comparison.is_some() || self.error.is_some() || edit.nearby.is_empty() {
            return;
        }
        let scenarios = edit
            .nearby
            .iter()
            .map(|change| {
                let mut scenario = self.scenario.clone();
                change(&mut scenario);
                scenario
            })
            .filter(|scenario| *scenario != self.scenario)
            .collect();
        self.nearby.start(scenarios);
    }

    fn open_comparison(&mut self, change: Option<usize>) {
        self.nearby.stop();
        let mut other = self.scenario.clone();
        let one_click = change.and_then(|i| F::compare_changes(self.lesson).get(i));
        if let Some(change) = one_click {
            (change.apply)(&mut other, self.run.now_ms());
        }
        // A one-click comparison is about its one change, so later changes go to both sides;
        // a comparison of the learner's own takes their next change on side B.
        let editing = if one_click.is_some() {
            Side::Both
        } else {
            Side::B
        };
        self.comparison = Comparison::new(self.lesson, other, self.clock.now_ms(), editing);
        if let Some(comparison) = &mut self.comparison {
            comparison.follow(&self.run);
        }
        self.record_change();
    }

    fn toggle_play(&mut self, ctx: &Context<Self>) {
        if !self.clock.playing && self.stops_at_end() && self.at_end() {
            // Play at the end starts the run again rather than doing nothing.
            self.clock.view_ms = 0.0;
        }
        self.clock.toggle();
        if !self.clock.playing {
            // The paused picture is the one a link reopens: bring the slow parts up to now.
            self.advance(true);
        } else {
            self.advance(false);
        }
        self.write_position();
        self.schedule_frame(ctx);
    }

    fn seek(&mut self, at_ms: u64) {
        self.clock.seek(at_ms);
        self.advance(true);
        self.write_position();
    }

    /// Whether the clock stops at the scenario's end: always for a family whose input ends,
    /// and for a misconception's run, whose verdict is the figure at that end (where
    /// `streamlab simulate` stops too), not whatever an open-ended run reaches later.
    fn stops_at_end(&self) -> bool {
        F::STOPS_AT_END || self.misconception.is_some()
    }

    fn at_end(&self) -> bool {
        self.run.now_ms() >= self.run.world().end_ms()
    }

    fn on_frame(&mut self, ctx: &Context<Self>, timestamp: f64) -> bool {
        if self.rebuild.is_some() {
            // Time stands still while a knob change's run is built, and plays on after.
            self.clock.hold(timestamp);
            self.schedule_frame(ctx);
            return false;
        }
        let end_ms = self
            .stops_at_end()
            .then(|| self.run.world().end_ms() as f64);
        if !self.clock.on_frame(timestamp, end_ms) {
            return false;
        }
        self.frame_started_at = Some(now_ms());
        self.advance(false);
        if self.stops_at_end() && self.at_end() {
            // Nothing more happens after the input ends; stop the clock rather than spin.
            self.clock.playing = false;
            self.advance(true);
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

    /// A course page's command: the same effect as the learner's own control.
    fn on_host(&mut self, ctx: &Context<Self>, command: HostCommand) -> bool {
        match command {
            HostCommand::Play if !self.clock.playing => self.toggle_play(ctx),
            HostCommand::Pause if self.clock.playing => self.toggle_play(ctx),
            HostCommand::Play | HostCommand::Pause => {}
            // No further than a link can reopen (and than the learner's scrubber goes).
            HostCommand::Seek(at_ms) => self.seek(at_ms.min(F::Sim::MAX_AT_MS)),
            HostCommand::Get => {
                // A call resolves with the state after it, and the address bar already holds
                // that state's link: a host page that reads the address next gets the same.
                if self.address.is_staged() {
                    self.write_address();
                }
                host_api::answer(self.state());
            }
        }
        true
    }

    /// Makes the share link and writes the staged address; a course page then learns of the
    /// state, once the address bar holds its link.
    fn write_address(&mut self) {
        let fragment = self.fragment();
        self.share_url = url_with(&fragment).into();
        self.address.flush(&fragment);
        host_api::publish(self.state());
    }

    /// Moves every run to the clock's time; `force` also rebuilds the views' slow parts.
    fn advance(&mut self, force: bool) {
        let at_ms = self.clock.now_ms();
        self.run.seek(at_ms, force);
        if let Some(comparison) = &mut self.comparison {
            comparison.seek(at_ms, force, &self.run);
        }
        self.refresh_narration();
    }

    fn refresh_narration(&mut self) {
        if let Some(own) = F::own_narration(&self.run.view) {
            self.narration = own;
            return;
        }
        let events = self.run.world().events();
        if events.len() < self.narrated_events {
            // A seek back: narrate again from the restored run.
            self.narrated_events = 0;
            self.narration = Shared::new(Vec::new());
        }
        if events.len() == self.narrated_events {
            return;
        }
        // Only the newest lines are kept, so only the newest events are worth narrating: from
        // the newest back, until the feed is full (a new run late in the lesson has thousands).
        let from = self
            .narrated_events
            .max(events.len().saturating_sub(NARRATION_KEPT * 4));
        let lines = newest_lines(&self.narration, from..events.len(), NARRATION_KEPT, |seq| {
            let event = &events[seq];
            F::Sim::narrate(event).map(|text| NarrationLine {
                at_ms: F::Sim::event_at_ms(event),
                text,
                kind: F::tone(event),
            })
        });
        self.narrated_events = events.len();
        self.narration = Shared::new(lines);
    }

    /// The scrubber's marks: the run's, and where a comparison's runs first differ.
    fn marks(&self) -> Vec<TimelineMark> {
        let mut marks = self.run.marks();
        if let Some(at_ms) = self.comparison.as_ref().and_then(|c| c.first_difference_ms) {
            marks.push(TimelineMark {
                at_ms,
                kind: "difference",
                label: "A and B first differ".into(),
            });
        }
        marks
    }

    fn view_runs(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let changes = F::compare_changes(self.lesson);
        let Some(comparison) = &self.comparison else {
            return html! {
                <>
                    <p class="compare-toggle">
                        { for changes.iter().enumerate().map(|(i, change)| html! {
                            <button type="button" onclick={link.callback(move |_| Msg::OpenComparison(Some(i)))}>
                                { format!("Compare {}", change.label) }</button>
                        }) }
                        <button type="button" onclick={link.callback(|_| Msg::OpenComparison(None))}
                            title="Fork the run into two futures on the same seed; the next knob or action changes only side B">
                            { "Compare with a change of your own" }</button>
                    </p>
                    { F::picture(self.lesson, &self.run.view, &self.stage_context(false)) }
                </>
            };
        };
        let (a_label, b_label) = F::differences(&self.scenario, &comparison.scenario);
        let stage = self.stage_context(true);
        html! {
            <>
                { compare_panel(&ComparePanelProps {
                    editing: comparison.editing,
                    rows: comparison.figure_rows(&self.run),
                    first_difference_ms: comparison.first_difference_ms,
                    on_side: link.callback(Msg::EditSide),
                    on_close: link.callback(|_| Msg::CloseComparison),
                }) }
                <div class="side-by-side">
                    <figure><figcaption>{ format!("A: {a_label}") }</figcaption>
                        { F::picture(self.lesson, &self.run.view, &stage) }</figure>
                    <figure><figcaption>{ format!("B: {b_label}") }</figcaption>
                        { F::picture(self.lesson, &comparison.run.view, &stage) }</figure>
                </div>
            </>
        }
    }

    fn csv_callback(&self) -> Callback<()> {
        let scenario = self.scenario.clone();
        let at_ms = self.run.now_ms();
        let slug = self.lesson.words.slug;
        Callback::from(move |()| {
            super::export::download_text(
                &format!("streamlab-{slug}-metrics.csv"),
                "text/csv",
                &F::csv(&scenario, at_ms),
            )
        })
    }

    fn json_callback(&self) -> Callback<()> {
        let scenario = self.scenario.clone();
        let slug = self.lesson.words.slug;
        Callback::from(move |()| {
            super::export::download_text(
                &format!("streamlab-{slug}-scenario.json"),
                "application/json",
                &super::export::scenario_json(&scenario),
            )
        })
    }

    /// The banner of the misconception this run refutes, with its figure as of now.
    fn view_misconception(&self) -> Html {
        let Some(misconception) = self.misconception else {
            return html! {};
        };
        let world = self.run.world();
        html! {
            <MisconceptionBanner {misconception}
                value={misconception.measure(&world.figures())}
                finished={world.now_ms() >= world.end_ms()} />
        }
    }

    /// What a course page reads: the lesson, the time, whether it plays, the link and the
    /// headline figures.
    fn state(&self) -> host_api::LessonState {
        host_api::LessonState {
            lesson: self.lesson.words.slug,
            t_ms: self.run.now_ms(),
            playing: self.clock.playing,
            link: self.fragment(),
            figures: self.run.world().figures(),
        }
    }
}

/// Whether `msg` is the learner (or a course page) doing something, which ends the
/// rehearsal: everything but the timers' own messages.
fn learner_acts<F: LessonFamily>(msg: &Msg<F>) -> bool {
    !matches!(
        msg,
        Msg::Frame(_) | Msg::Rehearse | Msg::PrepareNearby | Msg::WriteAddress | Msg::Rebuild
    )
}

/// Whether `msg` needs the run settled first: everything but another knob change, a preset
/// (which replaces it), the rebuild's own slices and the timers that do not touch the run.
fn settles_rebuild<F: LessonFamily>(msg: &Msg<F>) -> bool {
    !matches!(
        msg,
        Msg::Frame(_)
            | Msg::Edit(_)
            | Msg::Preset(_)
            | Msg::Rebuild
            | Msg::PrepareNearby
            | Msg::WriteAddress
            | Msg::DismissError
    )
}

/// The misconception `scenario` refutes: one of the lesson's `misconception-N` presets, exactly
/// as built (a changed knob or an action makes it another run, which proves nothing).
fn misconception_of<F: LessonFamily>(
    lesson: &Lesson<F>,
    scenario: &Scenario<F>,
) -> Option<&'static Misconception> {
    // Only the lesson's own list: the whole table would put every card's words in every
    // bundle.
    lesson
        .presets()
        .filter_map(|p| {
            let refuted = lesson.misconceptions.iter().find(|m| m.preset == p.slug);
            refuted.map(|m| (p, *m))
        })
        .find(|(p, _)| (p.build)() == *scenario)
        .map(|(_, m)| m)
}
