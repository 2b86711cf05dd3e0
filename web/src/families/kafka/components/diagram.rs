//! The animated diagram: producer → partitions (logs of records) → groups and their members.
//!
//! Data flows left to right. Each partition is a row of record cells, newest on the right,
//! coloured by key; under it, one lane per group shows that group's position (hollow
//! triangle), committed offset (solid triangle) and processed offset (tick). Lines join each
//! partition to the member that owns it. Records in the producer's buffer travel to their
//! partition, and each poll's batch travels from the partition to its member, placed by
//! interpolating between the send/append or poll times the snapshot carries, so motion stays
//! smooth at any speed.
//!
//! Every layer but the record cells and the pointed record's or lane's details is written as
//! SVG text ([`crate::platform::markup`]): Yew's element-building code for them was the
//! largest function of the Kafka bundles. Each layer is one raw node, which Yew leaves alone
//! while its text stays the same (the headers, the rows' names and ground, the ownership
//! lines) and rewrites whole when it changes; the record cells stay elements, so a step
//! rewrites only the `d` of the paths that changed. The records and the lanes' markers are a
//! few paths each ([`super::record_cells`], [`super::lanes`]), so the pointer finds them by
//! position ([`super::pointer_tip`]).

use super::diagram_layout::{Layout, GROUPS_X, LOG_W, LOG_X, PRODUCER_W, PRODUCER_X, TOP, WIDTH};
use super::lanes::lanes;
use super::member_label::{digits, owned_label, SMALL_CHAR_W};
use super::pointer_tip::{follow_pointer, pointer_tip, Pointed};
use super::record_cells::record_paths;
use crate::platform::bounded::bounded;
use crate::platform::markup::{put, written, Escaped};
use crate::platform::palette::{group_colour, key_colour};
use crate::platform::shared::Shared;
use crate::platform::svg::SvgNumber as N;
use streamlab_sim::kafka::group::MemberPhase;
use streamlab_sim::kafka::snapshot::{GroupView, MemberState, MemberView, Snapshot};
use yew::prelude::*;

/// Most in-flight records drawn at once (at high rates the rest would be a blur anyway).
const MAX_IN_FLIGHT_DRAWN: usize = 80;
/// Wall-clock time a fetched batch takes to travel, in ms, whatever the speed.
const FETCH_TRAVEL_WALL_MS: f64 = 300.0;

#[derive(Properties, PartialEq)]
pub struct DiagramProps {
    pub snapshot: Shared<Snapshot>,
    /// The simulated time to draw, with a fraction of a millisecond for smooth motion.
    pub view_ms: f64,
    /// Simulated ms per wall ms, so travel animations last the same wall time at any speed.
    pub speed: f64,
    /// Under `prefers-reduced-motion`, nothing travels: states just change.
    #[prop_or_default]
    pub reduced_motion: bool,
    /// The details of the record or lane under the pointer. While the clock runs they are
    /// left out: at 32x every record moves on every frame, and no one can point at one.
    pub hover_details: bool,
}

#[function_component(Diagram)]
pub fn diagram(props: &DiagramProps) -> Html {
    let snapshot = &props.snapshot;
    let layout = Layout::new(snapshot);
    let view_box = format!("0 0 {WIDTH} {}", layout.height);
    let hovered = use_state_eq(|| None::<Pointed>);
    let svg = use_node_ref();
    {
        // Details are for a paused picture: forget what was pointed at once it plays.
        let hovered = hovered.clone();
        use_effect_with(props.hover_details, move |&details| {
            if !details {
                hovered.set(None);
            }
        });
    }
    let follow = props
        .hover_details
        .then(|| follow_pointer(snapshot, &svg, &hovered));
    let leave = props.hover_details.then(|| {
        let hovered = hovered.clone();
        Callback::from(move |_: MouseEvent| hovered.set(None))
    });
    html! {
        <svg ref={svg} class="diagram" viewBox={view_box} role="img" preserveAspectRatio="xMidYMin meet"
            aria-label={describe(snapshot)} onmousemove={follow} onmouseleave={leave}>
            { written(|out| headers(out, snapshot)) }
            { written(|out| producer(out, snapshot)) }
            { written(|out| partitions(out, snapshot, &layout)) }
            { written(|out| lanes(out, snapshot, &layout)) }
            { record_paths(snapshot, &layout) }
            { written(|out| offset_labels(out, snapshot, &layout)) }
            { written(|out| ownerships(out, snapshot, &layout)) }
            { written(|out| groups(out, props, &layout)) }
            if !props.reduced_motion {
                { written(|out| in_flight(out, snapshot, props.view_ms, &layout)) }
                { written(|out| fetches(out, snapshot, props, &layout)) }
            }
            if props.hover_details {
                { pointer_tip(snapshot, &layout, *hovered) }
            }
        </svg>
    }
}

/// A one-sentence text alternative for screen readers.
fn describe(snapshot: &Snapshot) -> String {
    let mut out = format!(
        "Topic {} with {} partitions",
        snapshot.topic_name,
        snapshot.partitions.len()
    );
    for group in &snapshot.groups {
        let lag: u64 = group.partitions.iter().map(|p| p.lag).sum();
        put(
            &mut out,
            format_args!(
                "; group {} with {} members, lag {lag}",
                group.group_id,
                group.members.len()
            ),
        );
    }
    out.push('.');
    out
}

fn headers(out: &mut String, snapshot: &Snapshot) {
    put(
        out,
        format_args!(
            r#"<g class="headers"><text x="{}" y="14">producer</text><text x="{}" y="14">topic “{}”: {} partitions, newest records on the right</text><text x="{}" y="14">consumer groups</text></g>"#,
            N(PRODUCER_X),
            N(LOG_X),
            Escaped(&snapshot.topic_name),
            snapshot.partitions.len(),
            N(GROUPS_X),
        ),
    );
}

fn producer(out: &mut String, snapshot: &Snapshot) {
    let (x, y, h) = (PRODUCER_X, TOP, 64.0);
    let keys = match snapshot.producer.key_count {
        0 => "null keys".to_string(),
        1 => "1 key".to_string(),
        n => format!("{n} keys"),
    };
    put(
        out,
        format_args!(
            r#"<g class="producer"><rect x="{}" y="{}" width="{}" height="{}" rx="6"/><text x="{}" y="{}" class="strong">{}/s</text><text x="{}" y="{}">{keys}</text><text x="{}" y="{}" class="small">{} sent</text></g>"#,
            N(x),
            N(y),
            N(PRODUCER_W),
            N(h),
            N(x + 8.0),
            N(y + 20.0),
            snapshot.producer.rate_per_s,
            N(x + 8.0),
            N(y + 38.0),
            N(x + 8.0),
            N(y + 55.0),
            snapshot.producer.sent_total,
        ),
    );
}

/// Each partition's name and the ground its records are drawn on: the same text while the
/// topic keeps its shape, so playing never rewrites it.
fn partitions(out: &mut String, snapshot: &Snapshot, layout: &Layout) {
    out.push_str(r#"<g class="partitions">"#);
    for p in 0..snapshot.partitions.len() {
        put(
            out,
            format_args!(
                r#"<g class="partition"><text x="{}" y="{}" class="row-label" text-anchor="end">p{p}</text><rect class="log-bg" x="{}" y="{}" width="{}" height="{}"/></g>"#,
                N(LOG_X - 8.0),
                N(layout.row_mid(p) + 4.0),
                N(LOG_X),
                N(layout.cell_top(p)),
                N(LOG_W),
                N(layout.cell_h),
            ),
        );
    }
    out.push_str("</g>");
}

/// Every partition's offset labels, every fourth record (none when the rows are too thin),
/// and its log end offset beside the row. The labels are drawn over the record cells, which
/// sit in a layer of their own under them.
fn offset_labels(out: &mut String, snapshot: &Snapshot, layout: &Layout) {
    let label_every = if layout.cell_h >= 16.0 { 4 } else { u64::MAX };
    out.push_str(r#"<g class="offset-labels">"#);
    for (p, view) in snapshot.partitions.iter().enumerate() {
        let y = N(layout.cell_top(p) + layout.cell_h - 4.0);
        put(
            out,
            format_args!(
                r#"<g class="offsets"><text class="leo" x="{}" y="{}">end {}</text>"#,
                N(LOG_X + LOG_W + 6.0),
                N(layout.row_mid(p) + 4.0),
                view.log_end_offset
            ),
        );
        for record in view.tail.iter().filter(|r| r.offset % label_every == 0) {
            let (x, _) = layout.offset_x(record.offset, view.log_end_offset);
            put(
                out,
                format_args!(
                    r#"<text class="offset" x="{}" y="{y}">{}</text>"#,
                    N(x + 2.0),
                    record.offset
                ),
            );
        }
        out.push_str("</g>");
    }
    out.push_str("</g>");
}

/// The lines from each partition to the member that owns it, one path per group.
fn ownerships(out: &mut String, snapshot: &Snapshot, layout: &Layout) {
    out.push_str(r#"<g class="ownerships">"#);
    for (g, group) in snapshot.groups.iter().enumerate() {
        let mut lines = String::new();
        for (p, progress) in group.partitions.iter().enumerate() {
            let Some(owner) = progress.owner else {
                continue;
            };
            let (x, y, _, h) = layout.member_box(g, owner, group.members.len());
            let start_x = LOG_X + LOG_W + 52.0;
            let [from_x, from_y, bend_1, bend_2, to_x, to_y] = [
                start_x,
                layout.row_mid(p),
                start_x + 30.0,
                x - 30.0,
                x,
                y + h / 2.0,
            ]
            .map(N);
            put(
                &mut lines,
                format_args!("M{from_x} {from_y}C{bend_1} {from_y},{bend_2} {to_y},{to_x} {to_y}"),
            );
        }
        put(
            out,
            format_args!(
                r#"<path class="ownership" d="{lines}" stroke="{}" fill="none" stroke-opacity="0.45" stroke-width="1.5"/>"#,
                group_colour(g)
            ),
        );
    }
    out.push_str("</g>");
}

fn groups(out: &mut String, props: &DiagramProps, layout: &Layout) {
    out.push_str(r#"<g class="groups">"#);
    for (g, group) in props.snapshot.groups.iter().enumerate() {
        group_column(out, g, group, props, layout);
    }
    out.push_str("</g>");
}

fn group_column(
    out: &mut String,
    g: usize,
    group: &GroupView,
    props: &DiagramProps,
    layout: &Layout,
) {
    let x = N(GROUPS_X + g as f64 * layout.group_col_w + 6.0);
    put(
        out,
        format_args!(
            r#"<g class="group"><text x="{x}" y="{}" fill="{}" class="strong">{}</text><text x="{x}" y="{}" class="small">gen {} · {} · {}</text>"#,
            N(TOP - 18.0),
            group_colour(g),
            Escaped(&group.group_id),
            N(TOP - 5.0),
            group.generation,
            group.strategy.config_name(),
            group.state.name(),
        ),
    );
    if group.members.is_empty() {
        put(
            out,
            format_args!(
                r#"<text x="{x}" y="{}" class="small">no members: nobody reads</text>"#,
                N(TOP + 16.0)
            ),
        );
    }
    out.push_str(r#"<g class="members">"#);
    for (m, member) in group.members.iter().enumerate() {
        member_box(out, g, m, member, group, props, layout);
    }
    out.push_str("</g></g>");
}

fn member_box(
    out: &mut String,
    g: usize,
    m: usize,
    member: &MemberView,
    group: &GroupView,
    props: &DiagramProps,
    layout: &Layout,
) {
    let (x, y, w, h) = layout.member_box(g, m, group.members.len());
    let phase = member.phase;
    let label_y = N(y + h / 2.0 + 4.0);
    // Every phase but plain work is also said in words, so colour is never the only clue.
    let retry = retry_label(member, group.max_attempts);
    let status = match phase {
        MemberPhase::Processing if retry.is_some() => retry.as_deref(),
        MemberPhase::Processing | MemberPhase::Waiting | MemberPhase::Idle => None,
        MemberPhase::Rebalancing => Some("⟳ rejoining"),
        MemberPhase::Removed => Some("removed: finishing old batch"),
        MemberPhase::Paused => Some("❚❚ paused"),
        MemberPhase::Dead => Some("✕ crashed"),
        MemberPhase::Stopped => Some("stopped"),
    };
    // The partitions get the room left by the record in hand (from `x + w - 40`) and the
    // phase in words; the tally of work done only what they leave.
    let list_x = x + 28.0;
    // Bytes, not characters: the symbols some phases start with are counted wide.
    let status_w = status.map_or(0.0, |s| s.len() as f64 * SMALL_CHAR_W + 4.0);
    let owned = match phase {
        MemberPhase::Idle => "idle".to_string(),
        _ => owned_label(&member.partitions, x + w - 44.0 - status_w - list_x),
    };
    let dashed = matches!(
        phase,
        MemberPhase::Idle | MemberPhase::Removed | MemberPhase::Stopped
    );
    let class = phase.name();
    put(
        out,
        format_args!(
            r#"<g class="member {class}{}"><rect x="{}" y="{}" width="{}" height="{}" rx="4" stroke="{}" stroke-dasharray="{}"/><text x="{}" y="{label_y}" class="strong">{}</text><text x="{}" y="{label_y}" class="small">{owned}</text>"#,
            if retry.is_some() { " retrying" } else { "" },
            N(x),
            N(y),
            N(w),
            N(h),
            if phase == MemberPhase::Removed {
                "#D55E00"
            } else {
                group_colour(g)
            },
            if dashed { "4 3" } else { "none" },
            N(x + 5.0),
            Escaped(&member.member_id),
            N(x + 28.0),
        ),
    );
    if let Some(status) = status {
        put(
            out,
            format_args!(
                r#"<text x="{}" y="{label_y}" class="status" text-anchor="end">{status}</text>"#,
                N(x + w - 44.0)
            ),
        );
    } else if phase != MemberPhase::Idle {
        // The tally of work done, if it fits beside the partitions: " done · " and
        // " in batch" are 17 characters.
        let tally_chars = digits(member.processed_total) + digits(member.batch_remaining) + 17;
        let tally_x = x + w - 48.0;
        if list_x + (owned.len() + tally_chars) as f64 * SMALL_CHAR_W + 8.0 <= tally_x {
            put(
                out,
                format_args!(
                    r#"<text x="{}" y="{label_y}" class="small" text-anchor="end">{} done · {} in batch</text>"#,
                    N(tally_x),
                    member.processed_total,
                    member.batch_remaining
                ),
            );
        }
    }
    activity(out, member, x + w - 40.0, y, h, props);
    out.push_str("</g>");
}

/// "↻ retry n/N" while the member is retrying a failing record (its n-th retry of the N the
/// error handler allows), so a blocked member reads differently from a busy one without colour.
fn retry_label(member: &MemberView, max_attempts: u32) -> Option<String> {
    (member.attempts > 0 && matches!(member.state, MemberState::Processing { .. })).then(|| {
        format!(
            "↻ retry {}/{}",
            member.attempts,
            max_attempts.saturating_sub(1)
        )
    })
}

/// The record in hand (with a progress bar), or nothing when waiting.
fn activity(out: &mut String, member: &MemberView, x: f64, y: f64, h: f64, props: &DiagramProps) {
    let MemberState::Processing {
        key,
        started_ms,
        done_ms,
        offset,
        partition,
    } = member.state
    else {
        return;
    };
    let span = (done_ms - started_ms).max(1) as f64;
    let fraction = bounded((props.view_ms - started_ms as f64) / span, 0.0, 1.0);
    let size = (h - 6.0).min(16.0);
    let bar_x = N(x + size + 3.0);
    let bar_y = N(y + 3.0 + size / 2.0 - 2.0);
    put(
        out,
        format_args!(
            r#"<g class="in-hand"><rect x="{}" y="{}" width="{size}" height="{size}" fill="{}"><title>processing p{partition} offset {offset}</title></rect><rect class="progress-bg" x="{bar_x}" y="{bar_y}" width="16" height="4"/><rect class="progress" x="{bar_x}" y="{bar_y}" width="{}" height="4"/></g>"#,
            N(x),
            N(y + 3.0),
            key_colour(key),
            N(16.0 * fraction),
            size = N(size),
        ),
    );
}

fn in_flight(out: &mut String, snapshot: &Snapshot, view_ms: f64, layout: &Layout) {
    let from_x = PRODUCER_X + PRODUCER_W;
    let from_y = TOP + 32.0;
    out.push_str(r#"<g class="in-flight">"#);
    for sending in snapshot.producer.in_flight.iter().take(MAX_IN_FLIGHT_DRAWN) {
        let r = sending.record;
        let span = r.append_ms.saturating_sub(r.send_ms) as f64;
        if span == 0.0 {
            continue;
        }
        let t = bounded((view_ms - r.send_ms as f64) / span, 0.0, 1.0);
        let to_x = LOG_X + LOG_W - layout.cell_w / 2.0;
        let to_y = layout.row_mid(sending.partition as usize);
        put(
            out,
            format_args!(
                r##"<circle cx="{}" cy="{}" r="4" fill="{}" stroke="#333" stroke-width="0.5"/>"##,
                N(from_x + (to_x - from_x) * t),
                N(from_y + (to_y - from_y) * t),
                key_colour(r.key)
            ),
        );
    }
    out.push_str("</g>");
}

fn fetches(out: &mut String, snapshot: &Snapshot, props: &DiagramProps, layout: &Layout) {
    out.push_str(r#"<g class="fetch-groups">"#);
    for (g, group) in snapshot.groups.iter().enumerate() {
        fetch_packets(out, g, group, snapshot, props, layout);
    }
    out.push_str("</g>");
}

fn fetch_packets(
    out: &mut String,
    g: usize,
    group: &GroupView,
    snapshot: &Snapshot,
    props: &DiagramProps,
    layout: &Layout,
) {
    let travel_ms = (FETCH_TRAVEL_WALL_MS * props.speed).max(1.0);
    out.push_str(r#"<g class="fetches">"#);
    for (m, member) in group.members.iter().enumerate() {
        let age = props.view_ms - member.last_poll_ms as f64;
        if !(0.0..travel_ms).contains(&age) {
            continue;
        }
        let (bx, by, _, bh) = layout.member_box(g, m, group.members.len());
        let t = age / travel_ms;
        for fetch in &member.last_fetch {
            let p = fetch.partition as usize;
            let end = snapshot.partitions[p].log_end_offset;
            let (from_x, _) = layout.offset_x(fetch.from, end);
            let from_y = layout.row_mid(p);
            let cx = from_x + (bx - from_x) * t;
            let cy = from_y + (by + bh / 2.0 - from_y) * t;
            put(
                out,
                format_args!(
                    r#"<g><rect x="{}" y="{}" width="18" height="14" rx="3" fill="{}"/><text x="{}" y="{}" text-anchor="middle" class="packet">{}</text></g>"#,
                    N(cx - 9.0),
                    N(cy - 7.0),
                    group_colour(g),
                    N(cx),
                    N(cy + 4.0),
                    fetch.to - fetch.from
                ),
            );
        }
    }
    out.push_str("</g>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::kafka::components::test_support::path_d;
    use streamlab_sim::kafka::snapshot::DRAWN_CELLS;
    use streamlab_sim::kafka::{Scenario, World};
    use wasm_bindgen_test::wasm_bindgen_test;

    /// Every layer written as text, for `scenario` at 5 s.
    fn layers_text(scenario: &Scenario) -> String {
        let mut world = World::new(scenario).expect("a valid scenario");
        world.advance_to(5_000);
        let props = DiagramProps {
            snapshot: Shared::new(world.snapshot(DRAWN_CELLS)),
            view_ms: 5_000.0,
            speed: 1.0,
            reduced_motion: false,
            hover_details: true,
        };
        let snapshot = &props.snapshot;
        let layout = Layout::new(snapshot);
        let mut out = String::new();
        headers(&mut out, snapshot);
        producer(&mut out, snapshot);
        partitions(&mut out, snapshot, &layout);
        lanes(&mut out, snapshot, &layout);
        offset_labels(&mut out, snapshot, &layout);
        ownerships(&mut out, snapshot, &layout);
        groups(&mut out, &props, &layout);
        in_flight(&mut out, snapshot, props.view_ms, &layout);
        fetches(&mut out, snapshot, &props, &layout);
        out
    }

    #[wasm_bindgen_test]
    fn names_a_link_sets_are_drawn_as_text_never_as_markup() {
        let mut scenario = Scenario::default();
        scenario.topic.name = "<img src=x onerror=alert(1)>".into();
        scenario.groups[0].group_id = r#""><script>alert(2)</script>"#.into();
        let text = layers_text(&scenario);
        assert!(
            !text.contains("<img") && !text.contains("<script"),
            "{text}"
        );
        assert!(text.contains("topic “&lt;img src=x onerror=alert(1)&gt;”"));
        assert!(text
            .contains(r#"class="strong">&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;</text>"#));
    }

    #[wasm_bindgen_test]
    fn every_partition_member_and_marker_is_drawn_once() {
        let scenario = Scenario::default();
        let text = layers_text(&scenario);
        let partitions = scenario.topic.partitions as usize;
        let members = scenario.groups[0].members as usize;
        assert_eq!(text.matches(r#"<g class="partition">"#).count(), partitions);
        assert_eq!(text.matches(r#"<g class="member "#).count(), members);
        // Per group, its markers under every partition (`lanes.rs` counts them), and a line
        // from each partition to its owner.
        assert_eq!(
            text.matches(r#"<g class="lane">"#).count(),
            scenario.groups.len()
        );
        assert_eq!(path_d(&text, "ownership").matches('M').count(), partitions);
        // Opened and closed alike, so the browser reads the layers as written.
        assert_eq!(text.matches("<g").count(), text.matches("</g>").count());
    }

    #[wasm_bindgen_test]
    fn playing_rewrites_the_log_end_offsets_but_never_the_rows_beneath_them() {
        let mut world = World::new(&Scenario::default()).expect("the default lesson runs");
        let mut layers_at = |at_ms| {
            world.advance_to(at_ms);
            let snapshot = world.snapshot(DRAWN_CELLS);
            let layout = Layout::new(&snapshot);
            let (mut rows, mut offsets) = (String::new(), String::new());
            partitions(&mut rows, &snapshot, &layout);
            offset_labels(&mut offsets, &snapshot, &layout);
            (rows, offsets, snapshot.partitions[0].log_end_offset)
        };
        let (rows_before, offsets_before, end_before) = layers_at(5_000);
        let (rows_after, offsets_after, end_after) = layers_at(6_000);
        assert_eq!(rows_before, rows_after);
        assert!(offsets_before.contains(&format!(">end {end_before}</text>")));
        assert!(offsets_after.contains(&format!(">end {end_after}</text>")));
        assert_ne!(end_before, end_after);
    }

    #[wasm_bindgen_test]
    fn members_of_a_wide_topic_say_their_partitions_as_ranges() {
        let mut scenario = Scenario::default();
        scenario.topic.partitions = 60;
        let text = layers_text(&scenario);
        for range in ["p0–p19", "p20–p39", "p40–p59"] {
            assert!(
                text.contains(&format!(r#"class="small">{range}</text>"#)),
                "{range} in {text}"
            );
        }
        assert!(!text.contains("p0,p1,p2"), "{text}");
        // A short list leaves room for the tally of work done beside it.
        assert_eq!(text.matches(" in batch</text>").count(), 3, "{text}");
    }

    #[wasm_bindgen_test]
    fn a_list_too_long_for_its_box_counts_the_rest_and_drops_the_tally() {
        let mut scenario = Scenario::default();
        scenario.topic.partitions = 60;
        scenario.groups[0].partition_assignment_strategy =
            streamlab_sim::assignor::Strategy::RoundRobin;
        let text = layers_text(&scenario);
        // Twenty partitions each, every third: eight fit beside the count of the rest.
        for first in 0..3 {
            let list = (0..8).map(|k| format!("p{}", first + 3 * k));
            let label = format!("{} +12", list.collect::<Vec<_>>().join(","));
            assert!(text.contains(&format!(">{label}</text>")), "no {label}");
        }
        assert!(!text.contains(" in batch</text>"));
    }
}
