//! The watermark chart's records, drawn as a few hundred SVG paths instead of an element
//! each, and found again under a click.
//!
//! A run at its end has read thousands of records. Drawn as an element each (with its own
//! outline, colour and two data attributes), they were most of the work a knob change's
//! picture did in the watermarks lesson: building, comparing and patching thousands of
//! elements. Marks of one device and one lateness share a colour, a shape and a line style, so
//! they are one path of outlines, a run of records at a time, in reading order
//! ([`grouped_in_runs`]): where records crowd, the devices' colours still mix as they did.
//! Each path carries its device (`data-key`) and how many marks it holds (`data-count`).
//!
//! A click on a path picks the record of that device and lateness whose mark is nearest the
//! pointer.

use crate::families::eventtime::components::watermark_chart::ChartDot;
use crate::families::eventtime::device_marks::{colour, push_mark_path};
use crate::platform::draw_order::grouped_in_runs;
use crate::platform::svg::SvgNumber;
use std::fmt::Write;
use streamlab_sim::eventtime::views::Lateness;
use yew::prelude::*;

/// Radius of an on-time mark and of a late one (drawn larger, with a dashed outline).
const ON_TIME_RADIUS: f64 = 2.8;
const LATE_RADIUS: f64 = 4.5;

/// The lateness classes, with each one's class name.
const CLASSES: [(Lateness, &str); 3] = [
    (Lateness::OnTime, "wm-dot"),
    (Lateness::Late, "wm-dot late"),
    (Lateness::TooLate, "wm-dot too-late"),
];

/// Maps a record's (event time, processing time) to the chart's coordinates.
pub type Place<'a> = &'a dyn Fn(&ChartDot) -> (f64, f64);

/// The marks of one device and one lateness within a run of records, as one path.
#[derive(Debug, PartialEq)]
pub struct DotGroup {
    pub key: u32,
    pub lateness: Lateness,
    /// Every mark's outline, in the records' order.
    pub path: String,
    pub count: usize,
}

/// The groups in drawing order ([`grouped_in_runs`]).
pub fn dot_groups(dots: &[ChartDot], place: Place) -> Vec<DotGroup> {
    grouped_in_runs(dots, |dot| (dot.key, dot.lateness))
        .into_iter()
        .map(|((key, lateness), members)| {
            let mut path = String::new();
            for dot in &members {
                let (x, y) = place(dot);
                push_dot(&mut path, dot, x, y);
            }
            DotGroup {
                key,
                lateness,
                path,
                count: members.len(),
            }
        })
        .collect()
}

/// The class of a path holding marks of `lateness`.
fn class_of(lateness: Lateness) -> &'static str {
    CLASSES
        .iter()
        .find(|&&(l, _)| l == lateness)
        .map_or(CLASSES[0].1, |&(_, class)| class)
}

/// The records as [`dot_groups`] draws them.
pub fn dots_html(dots: &[ChartDot], place: Place) -> Html {
    dot_groups(dots, place)
        .into_iter()
        .map(|group| {
            // A too-late cross is an outline in the alert colour, whatever its device.
            let fill = (group.lateness != Lateness::TooLate).then(|| colour(group.key));
            html! {
                <path class={class_of(group.lateness)} d={group.path} {fill}
                    data-key={group.key.to_string()} data-count={group.count.to_string()} />
            }
        })
        .collect()
}

fn push_dot(path: &mut String, dot: &ChartDot, x: f64, y: f64) {
    match dot.lateness {
        Lateness::OnTime => push_mark_path(path, dot.key, x, y, ON_TIME_RADIUS),
        Lateness::Late => push_mark_path(path, dot.key, x, y, LATE_RADIUS),
        Lateness::TooLate => {
            let (x, y) = (SvgNumber(x - 4.0), SvgNumber(y - 4.0));
            let _ = write!(path, "M{x} {y}l8 8m-8 0l8 -8");
        }
    }
}

/// The record of device `key` and `lateness` whose mark is nearest `pointer` (in the chart's
/// coordinates): the one a click on that device's path landed on.
pub fn nearest_dot(
    dots: &[ChartDot],
    key: u32,
    lateness: Lateness,
    pointer: (f64, f64),
    place: Place,
) -> Option<u32> {
    let distance = |dot: &&ChartDot| {
        let (x, y) = place(dot);
        (x - pointer.0).powi(2) + (y - pointer.1).powi(2)
    };
    dots.iter()
        .filter(|d| d.key == key && d.lateness == lateness)
        .min_by(|a, b| distance(a).total_cmp(&distance(b)))
        .map(|dot| dot.record.index)
}

/// The lateness whose marks a path of class `class` holds.
pub fn lateness_of_class(class: &str) -> Option<Lateness> {
    CLASSES
        .iter()
        .find(|&&(_, name)| name == class)
        .map(|&(lateness, _)| lateness)
}

#[cfg(test)]
mod tests {
    use super::*;
    use streamlab_sim::eventtime::Record;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn dot(index: u32, key: u32, lateness: Lateness, at: i64) -> ChartDot {
        ChartDot {
            event_ms: at,
            processed_ms: at,
            key,
            lateness,
            record: Record {
                index,
                key,
                partition: 0,
                offset: u64::from(index),
                true_ms: at,
                occurred_ms: at,
                sent_ms: at,
                received_ms: at,
                processed_ms: at,
            },
        }
    }

    /// x = event time, y = processing time, one unit per millisecond.
    fn place(dot: &ChartDot) -> (f64, f64) {
        (dot.event_ms as f64, dot.processed_ms as f64)
    }

    /// Two devices' records, of every lateness, in reading order.
    fn sample_dots() -> [ChartDot; 5] {
        [
            dot(0, 1, Lateness::OnTime, 100),
            dot(1, 1, Lateness::OnTime, 200),
            dot(2, 2, Lateness::OnTime, 205),
            dot(3, 1, Lateness::Late, 201),
            dot(4, 2, Lateness::TooLate, 205),
        ]
    }

    #[wasm_bindgen_test]
    fn a_click_picks_the_nearest_record_of_the_path_it_landed_on() {
        let dots = sample_dots();
        // (device, lateness, pointer) and the record picked. Each path answers from its own
        // records only: at the origin, device 1's on-time path gives record 0, device 2's
        // gives record 2, device 1's late one record 3, and a device with no marks nothing.
        let clicks = [
            (1, Lateness::OnTime, (190.0, 190.0), Some(1)),
            (1, Lateness::OnTime, (110.0, 90.0), Some(0)),
            (1, Lateness::OnTime, (0.0, 0.0), Some(0)),
            (2, Lateness::OnTime, (0.0, 0.0), Some(2)),
            (1, Lateness::Late, (0.0, 0.0), Some(3)),
            (3, Lateness::OnTime, (0.0, 0.0), None),
        ];
        for (key, lateness, pointer, picked) in clicks {
            let found = nearest_dot(&dots, key, lateness, pointer, &place);
            assert_eq!(found, picked, "device {key}, {lateness:?}, at {pointer:?}");
        }
    }

    #[wasm_bindgen_test]
    fn a_path_class_names_its_lateness() {
        assert_eq!(lateness_of_class("wm-selected"), None);
        for (lateness, class) in CLASSES {
            assert_eq!(lateness_of_class(class), Some(lateness));
        }
    }

    #[wasm_bindgen_test]
    fn each_record_is_one_mark_in_its_devices_path_drawn_by_its_latest_record() {
        let dots = sample_dots();
        let groups = dot_groups(&dots, &place);
        let summary: Vec<(Lateness, u32, usize, usize)> = groups
            .iter()
            .map(|g| (g.lateness, g.key, g.count, g.path.matches('M').count()))
            .collect();
        assert_eq!(
            summary,
            [
                (Lateness::OnTime, 1, 2, 2),
                (Lateness::OnTime, 2, 1, 1),
                (Lateness::Late, 1, 1, 1),
                (Lateness::TooLate, 2, 1, 1)
            ]
        );
        assert_eq!(class_of(groups[3].lateness), "wm-dot too-late");
        assert_eq!(groups[3].path, "M201 201l8 8m-8 0l8 -8");
        // Device 1 is a square: the first mark is the record at 100, 100.
        assert!(
            groups[0].path.starts_with("M97.48 97.48h5.04"),
            "{}",
            groups[0].path
        );
    }
}
