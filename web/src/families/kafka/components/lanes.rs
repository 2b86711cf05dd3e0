//! Each group's lane under every partition of the kafka diagram: where the group's position
//! (hollow triangle), committed offset (solid triangle) and processed offset (tick) stand.
//!
//! Each kind of marker is one path per group for the whole diagram, not an element per
//! partition with a tooltip of its own: at sixty partitions and two groups that is six paths
//! instead of some 840 elements, which every step of a knob rewrote, laid out and painted. A
//! lane's numbers are in the details the diagram draws for the lane under the pointer
//! ([`lane_details`]), as a record's are.

use super::diagram_layout::{Layout, LOG_X};
use crate::platform::markup::put;
use crate::platform::palette::group_colour;
use crate::platform::svg::SvgNumber as N;
use streamlab_sim::kafka::snapshot::{GroupView, Snapshot};

/// Every group's markers under every partition, and "◀ n behind" where a marker has left
/// the drawn records.
pub fn lanes(out: &mut String, snapshot: &Snapshot, layout: &Layout) {
    out.push_str(r#"<g class="lanes">"#);
    for (g, group) in snapshot.groups.iter().enumerate() {
        group_lanes(out, snapshot, g, group, layout);
    }
    out.push_str("</g>");
}

/// Group `g`'s three marker paths, then its "behind" labels.
fn group_lanes(
    out: &mut String,
    snapshot: &Snapshot,
    g: usize,
    group: &GroupView,
    layout: &Layout,
) {
    let size = layout.lane_h.min(8.0);
    let colour = group_colour(g);
    let [mut processed, mut committed, mut position, mut behind] = <[String; 4]>::default();
    for (p, progress) in group.partitions.iter().enumerate() {
        let end = snapshot.partitions[p].log_end_offset;
        let top = layout.lane_top(p, g);
        let (processed_x, is_behind) = layout.offset_x(progress.processed, end);
        let start = layout.lane_start(p, g);
        put(
            &mut processed,
            format_args!("M{} {}V{}", N(processed_x), N(start), N(top + size)),
        );
        triangle(
            &mut committed,
            layout.offset_x(progress.committed, end).0,
            top,
            size,
        );
        triangle(
            &mut position,
            layout.offset_x(progress.position, end).0,
            top,
            size,
        );
        if is_behind {
            put(
                &mut behind,
                format_args!(
                    r#"<text class="behind" x="{}" y="{}" fill="{colour}">◀ {} behind</text>"#,
                    N(LOG_X + 4.0),
                    N(top + size),
                    progress.lag
                ),
            );
        }
    }
    put(
        out,
        format_args!(
            r#"<g class="lane"><path class="processed" d="{processed}" stroke="{colour}" stroke-width="2"/><path class="committed" d="{committed}" fill="{colour}"/><path class="position" d="{position}" fill="white" stroke="{colour}" stroke-width="1.5"/>{behind}</g>"#
        ),
    );
}

/// Appends to `path` a marker triangle `size` high with its tip at (`tip_x`, `top`).
fn triangle(path: &mut String, tip_x: f64, top: f64, size: f64) {
    let half_base = size / 1.6;
    put(
        path,
        format_args!(
            "M{} {}L{} {}H{}z",
            N(tip_x),
            N(top),
            N(tip_x - half_base),
            N(top + size),
            N(tip_x + half_base)
        ),
    );
}

/// What the lane of `group` under partition `p` says when pointed at.
pub fn lane_details(group: &GroupView, p: usize) -> Option<String> {
    let progress = group.partitions.get(p)?;
    Some(format!(
        "{}, p{p}: position {} (next offset poll() returns) · committed offset {} · processed up to offset {}",
        group.group_id, progress.position, progress.committed, progress.processed
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::kafka::components::diagram_layout::CELLS;
    use crate::families::kafka::components::test_support::{
        default_lesson_at, path_d, snapshot_of,
    };
    use streamlab_sim::kafka::Scenario;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn lanes_text(snapshot: &Snapshot) -> String {
        let mut out = String::new();
        lanes(&mut out, snapshot, &Layout::new(snapshot));
        out
    }

    /// The `d` of the path of class `class` in group `g`'s lanes.
    fn path_of<'a>(text: &'a str, g: usize, class: &str) -> &'a str {
        let lane = text
            .split(r#"<g class="lane">"#)
            .nth(g + 1)
            .expect("the lane");
        path_d(lane, class)
    }

    #[wasm_bindgen_test]
    fn each_group_draws_one_marker_of_each_kind_per_partition_in_three_paths() {
        let mut scenario = Scenario::default();
        scenario.topic.partitions = 60;
        let snapshot = snapshot_of(&scenario, 5_000);
        let text = lanes_text(&snapshot);
        let groups = snapshot.groups.len();
        assert_eq!(text.matches(r#"<g class="lane">"#).count(), groups);
        assert_eq!(text.matches("<path ").count(), 3 * groups, "{text}");
        for g in 0..groups {
            for class in ["processed", "committed", "position"] {
                assert_eq!(path_of(&text, g, class).matches('M').count(), 60, "{class}");
            }
        }
    }

    #[wasm_bindgen_test]
    fn a_marker_stands_at_its_offset_in_its_partitions_lane() {
        let snapshot = default_lesson_at(5_000);
        let layout = Layout::new(&snapshot);
        let text = lanes_text(&snapshot);
        let p = 2;
        let progress = snapshot.groups[0].partitions[p];
        let end = snapshot.partitions[p].log_end_offset;
        let top = layout.lane_top(p, 0);
        let committed_x = layout.offset_x(progress.committed, end).0;
        let tip = format!("M{} {}L", N(committed_x), N(top));
        assert!(
            path_of(&text, 0, "committed").contains(&tip),
            "{tip} in {text}"
        );
        let position_x = layout.offset_x(progress.position, end).0;
        let tip = format!("M{} {}L", N(position_x), N(top));
        assert!(
            path_of(&text, 0, "position").contains(&tip),
            "{tip} in {text}"
        );
    }

    #[wasm_bindgen_test]
    fn a_group_far_behind_says_by_how_much_in_its_lane() {
        let mut scenario = Scenario::default();
        scenario.groups[0].processing.time_ms = 400;
        let snapshot = snapshot_of(&scenario, 20_000);
        let text = lanes_text(&snapshot);
        let behind: Vec<_> = snapshot.groups[0]
            .partitions
            .iter()
            .filter(|progress| progress.lag > CELLS)
            .collect();
        assert!(
            !behind.is_empty(),
            "a slow group falls behind the drawn records"
        );
        for progress in behind {
            assert!(
                text.contains(&format!("◀ {} behind</text>", progress.lag)),
                "{text}"
            );
        }
    }

    #[wasm_bindgen_test]
    fn a_lane_tells_its_group_partition_and_three_offsets() {
        let snapshot = default_lesson_at(5_000);
        let group = &snapshot.groups[0];
        let progress = group.partitions[1];
        assert_eq!(
            lane_details(group, 1).as_deref(),
            Some(
                format!(
                    "{}, p1: position {} (next offset poll() returns) · committed offset {} · processed up to offset {}",
                    group.group_id, progress.position, progress.committed, progress.processed
                )
                .as_str()
            )
        );
        assert_eq!(lane_details(group, 99), None, "no such partition");
    }
}
