//! The API a course page drives an embedded lesson with, and the same calls on the page
//! itself as `window.streamlab`.
//!
//! A host page posts `{"streamlab": "play"}`, `"pause"`, `{"streamlab": "seek", "t_ms": 30000}`,
//! `{"streamlab": "load", "link": "#/rebalances?s=2.…"}` or `{"streamlab": "get"}` to the
//! lesson's frame. The lesson answers `get`, and after every change (at most a few times a
//! second while it plays) posts `{"streamlab": "state", "lesson", "t_ms", "playing", "link",
//! "figures"}` to its parent, `figures` holding the lesson's headline numbers by their stable
//! names (the names `streamlab simulate` prints). Messages without the `streamlab` key belong
//! to someone else and are ignored silently; a malformed one is ignored with one console
//! warning, never a panic. Values cross to JavaScript as plain objects (serde-wasm-bindgen),
//! and the throttle's trailing post waits on a gloo timer.
//!
//! `window.streamlab` has `play()`, `pause()`, `seek(ms)`, `load(link)` and `get()`. The
//! playground carries a command out at its next update, so each command returns a promise of
//! the state once it has: it sends a `Get` after the command, and the playground, which
//! handles its messages in order, answers with the state the command led to. `get()` returns
//! the state as last drawn.

use crate::platform::browser::BrowserCallback;
use serde::Serialize;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use streamlab_sim::family::Figures;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Least wall time between two state posts while nothing but the time changed.
pub const STATE_POST_INTERVAL_MS: u32 = 250;

/// What a course page can ask of the playground on screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HostCommand {
    Play,
    Pause,
    Seek(u64),
    Get,
}

/// The lesson's state as a course page reads it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LessonState {
    pub lesson: &'static str,
    pub t_ms: u64,
    pub playing: bool,
    /// The fragment that reproduces what is on screen (`#/rebalances?s=2.…&t=52000`).
    pub link: String,
    pub figures: Figures,
}

/// The state message: the state with `"streamlab": "state"` in front.
#[derive(Serialize)]
struct StateMessage<'a> {
    streamlab: &'static str,
    #[serde(flatten)]
    state: &'a LessonState,
}

/// The fields a command may have.
const FIELDS: [&str; 3] = ["streamlab", "t_ms", "link"];

/// A message as a host writes it, its values as they came (a missing or null field is
/// `None`); [`request_of`] checks them, so a value of the wrong type gets the same warning as
/// a missing one.
struct Incoming {
    streamlab: Option<JsValue>,
    t_ms: Option<JsValue>,
    link: Option<JsValue>,
}

/// What arrived, once read.
#[derive(Debug, PartialEq)]
enum Request {
    Command(HostCommand),
    Load(String),
}

/// Where commands go: the playground on screen.
type Target = Rc<dyn Fn(HostCommand)>;

/// Who the answer to a `Get` sent to the playground goes to.
enum Owed {
    /// A course page's `get`: the state is posted to it.
    Host,
    /// A `window.streamlab` call: its promise resolves with the state.
    Call(js_sys::Function),
}

thread_local! {
    /// The playground on screen, which receives commands; one at a time.
    static TARGET: RefCell<Option<Target>> = const { RefCell::new(None) };
    /// How many playgrounds have connected so far.
    static CONNECTIONS: Cell<u64> = const { Cell::new(0) };
    static POSTS: RefCell<Posts> = RefCell::new(Posts::default());
    /// Answers owed, in the order their `Get`s went to the playground on screen (which
    /// handles its messages in order, so the first answer is the first owed).
    static OWED: RefCell<VecDeque<Owed>> = const { RefCell::new(VecDeque::new()) };
    /// Calls that wait for the next playground's first state (a `load`), each with the count
    /// of connections when it was made.
    static AWAITING_NEXT: RefCell<Vec<(u64, js_sys::Function)>> = const { RefCell::new(Vec::new()) };
}

/// What the throttle remembers.
#[derive(Default)]
struct Posts {
    latest: Option<LessonState>,
    last_posted: Option<LessonState>,
    last_posted_at_ms: f64,
    /// A trailing post is scheduled; dropping the timeout cancels it.
    trailing: Option<gloo_timers::callback::Timeout>,
}

/// A playground's connection to the course page; dropping it disconnects.
pub struct Connection {
    target: Target,
}

impl Drop for Connection {
    fn drop(&mut self) {
        // Only if no newer playground took over: when a link is loaded, the next lesson's
        // playground may connect before this one is dropped.
        TARGET.with(|t| {
            let mut current = t.borrow_mut();
            if current
                .as_ref()
                .is_some_and(|c| Rc::ptr_eq(c, &self.target))
            {
                *current = None;
            }
        });
    }
}

/// Connects the playground that receives `on_command` to the course page (and to
/// `window.streamlab`), in place of any other.
pub fn connect(on_command: impl Fn(HostCommand) + 'static) -> Connection {
    let target: Target = Rc::new(on_command);
    TARGET.with(|t| *t.borrow_mut() = Some(target.clone()));
    let before = CONNECTIONS.with(|c| c.replace(c.get() + 1));
    // Answers the previous playground still owed: its calls take this one's first state (a
    // course page's `get` gets this one's first post).
    let owed: Vec<Owed> = OWED.with(|o| o.borrow_mut().drain(..).collect());
    AWAITING_NEXT.with(|waiting| {
        let mut waiting = waiting.borrow_mut();
        for owed in owed {
            if let Owed::Call(resolve) = owed {
                waiting.push((before, resolve));
            }
        }
    });
    Connection { target }
}

/// Handles one message from a host page.
fn receive(data: &JsValue) {
    if let Some(request) = read_ours(data) {
        handle(request, Owed::Host);
    }
}

/// The request in a message: `None` if the message is someone else's (silently) or malformed
/// (with one console warning).
fn read_ours(data: &JsValue) -> Option<Request> {
    let ours = data.is_object()
        && js_sys::Reflect::has(data, &JsValue::from_str("streamlab")).unwrap_or(false);
    if !ours {
        return None;
    }
    read(data)
        .map_err(|why| {
            web_sys::console::warn_1(&JsValue::from_str(&format!(
                "streamlab: ignored a command: {why}"
            )))
        })
        .ok()
}

/// Carries out `request`; the state it leads to goes to `owed` if that is a call (a course
/// page is posted the state after every change anyway, and answered when it asks).
fn handle(request: Request, owed: Owed) {
    match (request, owed) {
        (Request::Command(HostCommand::Get), owed) => ask(owed),
        (Request::Command(command), Owed::Host) => {
            dispatch(command);
        }
        (Request::Command(command), call) => {
            // The playground handles messages in order: the answer follows the command.
            if dispatch(command) {
                ask(call);
            } else {
                settle(call);
            }
        }
        (Request::Load(link), owed) => match (load(&link), owed) {
            (true, Owed::Call(resolve)) => AWAITING_NEXT.with(|waiting| {
                let connections = CONNECTIONS.with(Cell::get);
                waiting.borrow_mut().push((connections, resolve));
            }),
            // The address did not change, so no lesson is mounted again.
            (false, call @ Owed::Call(_)) => ask(call),
            (_, Owed::Host) => {}
        },
    }
}

/// Asks the playground for its state, owed to `owed`; without a playground a call gets the
/// latest state there is (or null).
fn ask(owed: Owed) {
    let connected = TARGET.with(|t| t.borrow().is_some());
    if !connected {
        settle(owed);
        return;
    }
    OWED.with(|o| o.borrow_mut().push_back(owed));
    dispatch(HostCommand::Get);
}

/// Resolves a call with the latest state there is (or null).
fn settle(owed: Owed) {
    if let Owed::Call(resolve) = owed {
        let latest = POSTS.with(|posts| posts.borrow().latest.clone());
        let _ = resolve.call1(&JsValue::NULL, &state_js(latest.as_ref()));
    }
}

/// A state as `get()` returns it: the state message, or null.
fn state_js(state: Option<&LessonState>) -> JsValue {
    state
        .and_then(|state| {
            to_js(&StateMessage {
                streamlab: "state",
                state,
            })
            .ok()
        })
        .unwrap_or(JsValue::NULL)
}

/// Reads a message; `Err` says what is wrong with it.
fn read(data: &JsValue) -> Result<Request, String> {
    let object: &js_sys::Object = data.unchecked_ref();
    if let Some(unknown) = js_sys::Object::keys(object)
        .iter()
        .map(|key| key.as_string().unwrap_or_default())
        .find(|key| !FIELDS.contains(&key.as_str()))
    {
        return Err(format!(
            "no command takes a field {} (only streamlab, t_ms and link)",
            streamlab_sim::quote::quote(&unknown)
        ));
    }
    let field = |name: &str| {
        js_sys::Reflect::get(data, &JsValue::from_str(name))
            .ok()
            .filter(|value| !value.is_undefined() && !value.is_null())
    };
    request_of(Incoming {
        streamlab: field("streamlab"),
        t_ms: field("t_ms"),
        link: field("link"),
    })
}

fn request_of(incoming: Incoming) -> Result<Request, String> {
    let command = incoming.streamlab.as_ref().and_then(JsValue::as_string);
    let t_ms = incoming.t_ms.as_ref().map(JsValue::as_f64);
    let link = incoming.link.as_ref().map(JsValue::as_string);
    match (command.as_deref(), t_ms, link) {
        (Some("play"), None, None) => Ok(Request::Command(HostCommand::Play)),
        (Some("pause"), None, None) => Ok(Request::Command(HostCommand::Pause)),
        (Some("get"), None, None) => Ok(Request::Command(HostCommand::Get)),
        (Some("seek"), Some(Some(t_ms)), None) if t_ms.is_finite() && t_ms >= 0.0 => {
            Ok(Request::Command(HostCommand::Seek(t_ms as u64)))
        }
        (Some("seek"), _, _) => {
            Err("seek takes t_ms, a number of milliseconds >= 0, and no link".into())
        }
        (Some("load"), None, Some(Some(link))) if is_lesson_link(&link) => Ok(Request::Load(link)),
        (Some("load"), _, _) => {
            Err("load takes link, a lesson's fragment (\"#/<lesson>…\"), and no t_ms".into())
        }
        (Some(command @ ("play" | "pause" | "get")), _, _) => {
            Err(format!("{command} takes neither t_ms nor link"))
        }
        (Some(other), _, _) => Err(format!(
            "{} is not a command (play, pause, seek, load, get)",
            streamlab_sim::quote::quote(other)
        )),
        (None, _, _) => Err(format!(
            "streamlab is {}, not a command's name (play, pause, seek, load, get)",
            streamlab_sim::quote::shorten(&describe(incoming.streamlab.as_ref()))
        )),
    }
}

/// A value as a warning shows it: its JSON, or its type.
fn describe(value: Option<&JsValue>) -> String {
    match value {
        None => "missing".into(),
        Some(value) => js_sys::JSON::stringify(value)
            .ok()
            .and_then(|json| json.as_string())
            .unwrap_or_else(|| value.js_typeof().as_string().unwrap_or_default()),
    }
}

/// `#/<lesson>…`: a lesson's fragment, not the gallery's (`#/`), which has no playground.
fn is_lesson_link(link: &str) -> bool {
    link.strip_prefix("#/")
        .is_some_and(|path| !path.is_empty() && !path.starts_with('?'))
}

/// Sends `command` to the playground on screen; `false` if there is none.
fn dispatch(command: HostCommand) -> bool {
    let target = TARGET.with(|t| t.borrow().clone());
    match target {
        Some(target) => {
            target(command);
            true
        }
        None => false,
    }
}

/// Opens `link` in this frame: the app reads the new fragment and mounts its lesson, keeping
/// how the page is shown (embed options, theme) as the address had them. `false` if the
/// address stays as it was (no lesson is mounted again).
fn load(link: &str) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let location = window.location();
    let before = location.hash().unwrap_or_default();
    let shown_as = super::embed::EmbedOptions::from_fragment(&before);
    let _ = location.set_hash(&super::embed::with_options(link, &shown_as));
    location.hash().unwrap_or_default() != before
}

/// The playground's state after a render: posted to the host page at once if more than the
/// time changed (or enough wall time passed), otherwise by a trailing timer.
pub fn publish(state: LessonState) {
    settle_loads(&state);
    let now = super::test_hooks::now_ms();
    let post_now = POSTS.with(|posts| {
        let mut posts = posts.borrow_mut();
        // While it plays only the time and the figures move: those posts are throttled.
        let only_time_moved = posts.last_posted.as_ref().is_some_and(|last| {
            state.playing && last.playing && last.lesson == state.lesson && last.link == state.link
        });
        if posts.last_posted.as_ref() == Some(&state) {
            posts.latest = Some(state);
            return None;
        }
        let recently = now - posts.last_posted_at_ms < f64::from(STATE_POST_INTERVAL_MS);
        posts.latest = Some(state.clone());
        if only_time_moved && recently {
            if posts.trailing.is_none() {
                posts.trailing = Some(gloo_timers::callback::Timeout::new(
                    STATE_POST_INTERVAL_MS,
                    post_latest,
                ));
            }
            return None;
        }
        posts.trailing = None;
        Some(state)
    });
    if let Some(state) = post_now {
        post(&state, now);
    }
}

/// The trailing post: the newest state, whatever it is by now.
fn post_latest() {
    let latest = POSTS.with(|posts| {
        let mut posts = posts.borrow_mut();
        posts.trailing = None;
        posts.latest.clone()
    });
    if let Some(state) = latest {
        post(&state, super::test_hooks::now_ms());
    }
}

/// A playground drew its state: calls made before it connected (a `load`) resolve with it.
fn settle_loads(state: &LessonState) {
    let connections = CONNECTIONS.with(Cell::get);
    let ready: Vec<js_sys::Function> = AWAITING_NEXT.with(|waiting| {
        let mut waiting = waiting.borrow_mut();
        let (ready, still) = waiting.drain(..).partition(|(made, _)| *made < connections);
        *waiting = still;
        ready.into_iter().map(|(_, resolve)| resolve).collect()
    });
    if ready.is_empty() {
        return;
    }
    let value = state_js(Some(state));
    for resolve in ready {
        let _ = resolve.call1(&JsValue::NULL, &value);
    }
}

/// Answers the oldest `get` owed with the state as it is: a course page's is posted to it, a
/// call's promise resolves.
pub fn answer(state: LessonState) {
    match OWED.with(|o| o.borrow_mut().pop_front()) {
        Some(Owed::Call(resolve)) => {
            POSTS.with(|posts| posts.borrow_mut().latest = Some(state.clone()));
            let _ = resolve.call1(&JsValue::NULL, &state_js(Some(&state)));
        }
        Some(Owed::Host) | None => post(&state, super::test_hooks::now_ms()),
    }
}

fn post(state: &LessonState, now: f64) {
    POSTS.with(|posts| {
        let mut posts = posts.borrow_mut();
        posts.last_posted = Some(state.clone());
        posts.last_posted_at_ms = now;
        posts.latest = Some(state.clone());
    });
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if parent == window {
        return;
    }
    if let Ok(message) = to_js(&StateMessage {
        streamlab: "state",
        state,
    }) {
        // The state carries nothing private and the lesson cannot know its host's origin.
        let _ = parent.post_message(&message, "*");
    }
}

/// A value as a plain JavaScript object (maps as objects, not `Map`s).
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, serde_wasm_bindgen::Error> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
}

/// A `window.streamlab` command: a promise of the state once the lesson has carried it out
/// (a malformed one, warned about, resolves with the state as it is).
fn call(message: &JsValue) -> js_sys::Promise {
    js_sys::Promise::new(&mut |resolve, _reject| match read_ours(message) {
        Some(request) => handle(request, Owed::Call(resolve)),
        None => settle(Owed::Call(resolve)),
    })
}

/// Listens to the course page's messages and installs `window.streamlab`, once for the page:
/// the playground on screen connects to them ([`connect`]), whichever lesson it is, so a
/// message is read once however often lessons are loaded.
pub fn install_window_api() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let listener = BrowserCallback::new(|event: &web_sys::Event| {
        receive(&event.unchecked_ref::<web_sys::MessageEvent>().data());
    });
    let _ = window.add_event_listener_with_callback("message", listener.as_ref().unchecked_ref());
    // It listens as long as the page lives.
    listener.forget();
    let api = js_sys::Object::new();
    let set = |name: &str, value: JsValue| {
        let _ = js_sys::Reflect::set(&api, &JsValue::from_str(name), &value);
    };
    // Each command returns a promise of the state once the lesson has carried it out.
    let command = |name: &'static str, field: Option<&'static str>| {
        Closure::<dyn Fn(JsValue) -> js_sys::Promise>::new(move |value: JsValue| {
            let message = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&message, &"streamlab".into(), &name.into());
            if let Some(field) = field {
                let _ = js_sys::Reflect::set(&message, &field.into(), &value);
            }
            call(&message)
        })
        .into_js_value()
    };
    set("play", command("play", None));
    set("pause", command("pause", None));
    set("seek", command("seek", Some("t_ms")));
    set("load", command("load", Some("link")));
    set(
        "get",
        Closure::<dyn Fn() -> JsValue>::new(|| {
            POSTS.with(|posts| state_js(posts.borrow().latest.as_ref()))
        })
        .into_js_value(),
    );
    let _ = js_sys::Reflect::set(&window, &JsValue::from_str("streamlab"), &api);
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn read_json(json: &str) -> Result<Request, String> {
        read(&js_sys::JSON::parse(json).unwrap())
    }

    #[wasm_bindgen_test]
    fn commands_read_as_the_readme_writes_them() {
        assert_eq!(
            read_json(r#"{"streamlab":"play"}"#),
            Ok(Request::Command(HostCommand::Play))
        );
        assert_eq!(
            read_json(r#"{"streamlab":"seek","t_ms":30000}"#),
            Ok(Request::Command(HostCommand::Seek(30_000)))
        );
        assert_eq!(
            read_json(r##"{"streamlab":"load","link":"#/windows?preset=four-windows"}"##),
            Ok(Request::Load("#/windows?preset=four-windows".into()))
        );
    }

    #[wasm_bindgen_test]
    fn malformed_messages_say_what_is_wrong() {
        assert!(read_json(r#"{"streamlab":"seek"}"#)
            .unwrap_err()
            .contains("t_ms"));
        assert!(read_json(r#"{"streamlab":"seek","t_ms":-4}"#).is_err());
        assert!(read_json(r#"{"streamlab":"jump"}"#)
            .unwrap_err()
            .contains("not a command"));
        assert!(read_json(r#"{"streamlab":"seek","t_ms":"soon"}"#)
            .unwrap_err()
            .contains("t_ms"));
        assert_eq!(
            read_json(r#"{"streamlab":"play","extra":1}"#).unwrap_err(),
            "no command takes a field \"extra\" (only streamlab, t_ms and link)"
        );
        assert!(read_json(r#"{"streamlab":null}"#)
            .unwrap_err()
            .starts_with("streamlab is missing"));
        assert!(read_json(r#"{"streamlab":"play","t_ms":1}"#)
            .unwrap_err()
            .contains("play takes neither"));
        assert!(read_json(r#"{"streamlab":5}"#)
            .unwrap_err()
            .starts_with("streamlab is 5, not a command"));
        assert!(read_json(r#"{"streamlab":"load","link":"http://elsewhere"}"#).is_err());
        assert!(read_json(r##"{"streamlab":"load","link":"#/"}"##).is_err());
        assert!(read_json(r##"{"streamlab":"load","link":"#/?theme=dark"}"##).is_err());
    }

    #[wasm_bindgen_test]
    fn a_playground_dropped_after_the_next_one_connected_leaves_it_connected() {
        let got = Rc::new(RefCell::new(Vec::new()));
        let to = |name: &'static str| {
            let got = got.clone();
            move |command| got.borrow_mut().push((name, command))
        };
        let old = connect(to("old"));
        let new = connect(to("new"));
        drop(old);
        dispatch(HostCommand::Play);
        drop(new);
        dispatch(HostCommand::Pause);
        assert_eq!(*got.borrow(), [("new", HostCommand::Play)]);
    }

    /// A playground stand-in: at `t_ms`, moved by seeks, answering gets at once.
    fn stand_in() -> (Connection, Rc<Cell<u64>>) {
        let t_ms = Rc::new(Cell::new(0));
        let at = t_ms.clone();
        let connection = connect(move |command| match command {
            HostCommand::Seek(to) => at.set(to),
            HostCommand::Get => answer(LessonState {
                lesson: "rebalances",
                t_ms: at.get(),
                playing: false,
                link: String::new(),
                figures: Figures::new(),
            }),
            HostCommand::Play | HostCommand::Pause => {}
        });
        (connection, t_ms)
    }

    async fn t_ms_of(promise: js_sys::Promise) -> JsValue {
        let state = wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
        js_sys::Reflect::get(&state, &"t_ms".into()).unwrap()
    }

    #[wasm_bindgen_test]
    async fn a_call_resolves_with_the_state_after_its_command() {
        let (_connection, _) = stand_in();
        let seek = |t_ms: f64| {
            let message = js_sys::JSON::parse(&format!(r#"{{"streamlab":"seek","t_ms":{t_ms}}}"#));
            call(&message.unwrap())
        };
        assert_eq!(t_ms_of(seek(30_000.0)).await, 30_000);
        // Malformed: warned about, and the state as it is.
        assert_eq!(t_ms_of(seek(-1.0)).await, 30_000);
        assert_eq!(t_ms_of(seek(45_000.0)).await, 45_000);
    }

    #[wasm_bindgen_test]
    fn the_state_crosses_as_a_plain_object() {
        let state = LessonState {
            lesson: "rebalances",
            t_ms: 52_000,
            playing: false,
            link: "#/rebalances?preset=rebalance-storm&t=52000".into(),
            figures: Figures::new().group("search", Figures::new().count("lost", 3)),
        };
        let value = to_js(&StateMessage {
            streamlab: "state",
            state: &state,
        })
        .unwrap();
        let json = js_sys::JSON::stringify(&value)
            .unwrap()
            .as_string()
            .unwrap();
        assert_eq!(
            json,
            r##"{"streamlab":"state","lesson":"rebalances","t_ms":52000,"playing":false,"link":"#/rebalances?preset=rebalance-storm&t=52000","figures":{"search":{"lost":3}}}"##
        );
    }
}
