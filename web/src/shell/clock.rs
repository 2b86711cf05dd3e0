//! The clock the playground runs on: whether it is playing, how fast, and the simulated time
//! on screen (`view_ms`, fractional so slow speeds still move). Wall time becomes simulated
//! time through one speed factor; a frame gap longer than
//! [`crate::platform::browser::MAX_FRAME_GAP_MS`] (a background tab) is ignored rather than simulated.
//! The runs themselves live in the playgrounds; this is only the clock and its frame loop.

use crate::platform::browser::{frame_gap_ms, shortcut, FrameLoop, Shortcut};
use crate::shell::components::transport::{speed_factor, SPEED_EXPONENT_MAX, SPEED_EXPONENT_MIN};

/// Simulated time one press of "Step" advances, as the transport's button says.
pub const STEP_MS: f64 = 100.0;

pub struct SimClock {
    pub playing: bool,
    pub speed_exponent: i32,
    /// Simulated time on screen; the runs are advanced to its floor.
    pub view_ms: f64,
    last_frame_ts: Option<f64>,
    frames: FrameLoop,
}

impl SimClock {
    /// A clock at `at_ms`; a link with a time opens paused there, any other address plays
    /// from the start.
    pub fn new(speed_exponent: i32, at_ms: Option<u64>) -> Self {
        Self {
            playing: at_ms.is_none(),
            speed_exponent,
            view_ms: at_ms.unwrap_or(0) as f64,
            last_frame_ts: None,
            frames: FrameLoop::default(),
        }
    }

    /// The whole milliseconds the runs should stand at.
    pub fn now_ms(&self) -> u64 {
        self.view_ms.max(0.0).floor() as u64
    }

    /// Asks for the next animation frame while playing.
    pub fn request_frame(&mut self, on_frame: impl FnOnce(f64) + 'static) {
        if self.playing {
            self.frames.request(on_frame);
        }
    }

    /// A frame arrived at `timestamp`: moves the time on (never past `end_ms`, if given).
    /// Returns whether the runs need advancing.
    pub fn on_frame(&mut self, timestamp: f64, end_ms: Option<f64>) -> bool {
        self.frames.arrived();
        if !self.playing {
            return false;
        }
        let gap_ms = frame_gap_ms(self.last_frame_ts, timestamp);
        self.last_frame_ts = Some(timestamp);
        let next = self.view_ms + gap_ms * speed_factor(self.speed_exponent);
        self.view_ms = end_ms.map_or(next, |end| next.min(end));
        true
    }

    /// A frame arrived while the runs wait for something (a knob change's run being built):
    /// the time stands still, and the next frame's gap counts from this one.
    pub fn hold(&mut self, timestamp: f64) {
        self.frames.arrived();
        self.last_frame_ts = Some(timestamp);
    }

    /// Plays or pauses. A pause lands on a whole millisecond, the precision of a link's time,
    /// so the paused picture is exactly the one the link reopens.
    pub fn toggle(&mut self) {
        self.playing = !self.playing;
        self.view_ms = self.view_ms.floor();
        self.last_frame_ts = None;
    }

    pub fn step(&mut self) {
        self.view_ms = self.view_ms.floor() + STEP_MS;
    }

    pub fn set_speed(&mut self, exponent: i32) {
        self.speed_exponent = exponent.clamp(SPEED_EXPONENT_MIN, SPEED_EXPONENT_MAX);
    }

    /// Jumps to `at_ms` and pauses there: scrubbing is for looking.
    pub fn seek(&mut self, at_ms: u64) {
        self.view_ms = at_ms as f64;
        self.playing = false;
        self.last_frame_ts = None;
    }

    /// The time a link should carry: where the clock stands while paused; none while playing
    /// (the link then plays from the start).
    pub fn link_time_ms(&self) -> Option<u64> {
        (!self.playing).then(|| self.now_ms())
    }
}

/// The transport messages the playground understands, so one function turns a keyboard
/// shortcut into the playground's message.
pub trait TransportMsg {
    fn toggle_play() -> Self;
    fn step() -> Self;
    fn reset() -> Self;
    fn speed(exponent: i32) -> Self;
}

/// The message keyboard `event` stands for on a playground whose clock is `clock`, if any.
pub fn shortcut_msg<M: TransportMsg>(
    event: &web_sys::KeyboardEvent,
    clock: &SimClock,
) -> Option<M> {
    Some(match shortcut(event)? {
        Shortcut::TogglePlay => M::toggle_play(),
        Shortcut::Step => M::step(),
        Shortcut::Faster => M::speed(clock.speed_exponent + 1),
        Shortcut::Slower => M::speed(clock.speed_exponent - 1),
        Shortcut::Reset => M::reset(),
    })
}
