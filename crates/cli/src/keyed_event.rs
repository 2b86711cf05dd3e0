//! An event line's key and time as `streamlab window` and `streamlab topk` take them: the fast
//! path (`plain_event`) first, read in place when the line allowed it, and serde_json for every
//! other line, which also words every error. Keys come out as [`Key`]s.

use crate::key::Key;
use crate::lines::{parse_object, EventLine, Line};
use crate::plain_event::{parse_plain_event, PlainEvent};

/// The key and time of `line`, or the full parser's message about it; `example` shows what a
/// line should look like.
// Inlined for the reason `Key::from_utf8_in` is: a key returned through memory stalls.
#[inline(always)]
pub fn keyed_event(line: Line<'_>, example: &str) -> Result<(Key, i64), String> {
    match line.event.and_then(key_and_time) {
        Some(event) => Ok(event),
        None => event(line.bytes, example),
    }
}

/// The key and time of a line not read in place, or the full parser's message about it.
fn event(line: &[u8], example: &str) -> Result<(Key, i64), String> {
    if let Some(event) = parse_plain_event(line).and_then(key_and_time) {
        return Ok(event);
    }
    let event: EventLine = parse_object(line, example)?;
    Ok((Key::new(&event.key), event.time))
}

/// The event's key, if it is UTF-8, and time.
#[inline(always)]
fn key_and_time(event: PlainEvent) -> Option<(Key, i64)> {
    let key = Key::from_utf8_in(event.key_onward, event.key_length)?;
    Some((key, event.time_ms))
}
