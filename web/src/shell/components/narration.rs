//! The narration feed: what happened and why, newest first. A screen reader hears each newest
//! line from a polite live region holding only that line (the list itself is rebuilt as a
//! whole by some lessons, which a live list would read as noise or not at all).

use crate::platform::shared::Shared;
use yew::prelude::*;

/// One narrated event.
#[derive(Clone, Debug, PartialEq)]
pub struct NarrationLine {
    pub at_ms: u64,
    pub text: String,
    /// CSS class by kind: "assigned", "commit", "lag", "caught-up".
    pub kind: &'static str,
}

/// The feed after the events numbered `fresh` happened: the newest `kept` lines of `shown`
/// followed by the lines `narrate` makes of those events (`None` for an event it does not
/// narrate). The fresh events are narrated from the newest back and only until the feed is
/// full: a new run late in a lesson brings thousands of them at once.
pub fn newest_lines(
    shown: &[NarrationLine],
    fresh: std::ops::Range<usize>,
    kept: usize,
    narrate: impl Fn(usize) -> Option<NarrationLine>,
) -> Vec<NarrationLine> {
    let mut newest: Vec<NarrationLine> = fresh.rev().filter_map(narrate).take(kept).collect();
    newest.reverse();
    let older = shown.len().saturating_sub(kept - newest.len());
    shown[older..].iter().cloned().chain(newest).collect()
}

#[derive(Properties, PartialEq)]
pub struct NarrationProps {
    pub lines: Shared<Vec<NarrationLine>>,
}

#[function_component(Narration)]
pub fn narration(props: &NarrationProps) -> Html {
    let newest = props
        .lines
        .last()
        .map(|line| line.text.clone())
        .unwrap_or_default();
    html! {
        <section class="narration" aria-label="What happened">
            <h2>{ "What happened" }</h2>
            <p class="sr-only" aria-live="polite" aria-atomic="true">{ newest }</p>
            <ol>
                { for props.lines.iter().rev().map(|line| html! {
                    <li class={line.kind}>
                        <span class="at">{ format!("{:.1} s", line.at_ms as f64 / 1000.0) }</span>
                        <span class="text">{ &line.text }</span>
                    </li>
                }) }
            </ol>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    /// Event `seq` is narrated when it is not a multiple of three.
    fn narrate(seq: usize) -> Option<NarrationLine> {
        (seq % 3 != 0).then(|| NarrationLine {
            at_ms: seq as u64 * 10,
            text: format!("event {seq}"),
            kind: "commit",
        })
    }

    /// Which events the lines narrate (the test's event `seq` happens at `seq` × 10 ms).
    fn seqs(lines: &[NarrationLine]) -> Vec<usize> {
        lines.iter().map(|line| line.at_ms as usize / 10).collect()
    }

    #[wasm_bindgen_test]
    fn the_feed_keeps_the_newest_lines_in_the_order_the_events_happened() {
        let few = newest_lines(&[], 0..5, 4, narrate);
        assert_eq!(seqs(&few), [1, 2, 4], "less news than room: all of it");
        let fuller = newest_lines(&[], 0..12, 4, narrate);
        assert_eq!(seqs(&fuller), [7, 8, 10, 11]);
        // Two new events: the oldest shown line makes room for the one narrated.
        let next = newest_lines(&fuller, 12..14, 4, narrate);
        assert_eq!(seqs(&next), [8, 10, 11, 13]);
        // Nothing narrated: the feed stays as it was.
        assert_eq!(
            seqs(&newest_lines(&next, 15..16, 4, narrate)),
            [8, 10, 11, 13]
        );
        // More news than the feed holds: only the newest, the shown lines all gone.
        assert_eq!(
            seqs(&newest_lines(&next, 14..30, 4, narrate)),
            [25, 26, 28, 29]
        );
    }

    #[wasm_bindgen_test]
    fn a_full_feed_of_fresh_events_narrates_no_more_events_than_it_shows() {
        let asked = std::cell::Cell::new(0);
        let counting = |seq| {
            asked.set(asked.get() + 1);
            narrate(seq)
        };
        let lines = newest_lines(&[], 0..100_000, 200, counting);
        assert_eq!(lines.len(), 200);
        // Event 99,999 is one the test does not narrate.
        assert_eq!(lines.last().map(|line| line.at_ms / 10), Some(99_998));
        assert!(
            asked.get() <= 300,
            "narrated {} events for 200 lines",
            asked.get()
        );
    }
}
