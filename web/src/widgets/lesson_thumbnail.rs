//! A lesson's thumbnail on the gallery: a small inline SVG in the lesson's visual language,
//! drawn from plain data (no image files, no requests). Colours come from the style sheet's
//! variables, so the thumbnails follow the theme.

use crate::platform::markup::put;
use crate::platform::palette::key_colour;
use yew::prelude::*;

/// What a thumbnail draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Thumbnail {
    /// Partitions as logs of records, and the members reading them.
    Log { partitions: u32, members: u32 },
    /// Member timelines with a rebalance stopping all of them at once.
    Rebalance { members: u32 },
    /// Records on their event-time line and their processing-time line, with an outage gap.
    Clocks,
    /// Records on event time × processing time with the watermark climbing as a staircase.
    Watermark,
    /// One row of records above four bands of windows: tumbling, hopping, sliding, session.
    Windows,
    /// Partitions as the output store sees them: records written, one written twice, one
    /// lost; the processed mark and the committed offset apart; a poison record parked in a
    /// dead-letter box.
    Delivery,
    /// One log of records on the left; three readers on the right: one member per partition,
    /// many members on one partition, a queue emptying as it delivers.
    Queues,
    /// Four lanes from one producer: a short buffer spilling crosses, a long one, a stopped
    /// producer, and a log.
    Backpressure,
    /// Three replicas of one log: a crashed leader's tail past the high watermark crossed
    /// out, the new leader and a follower that stop at the high watermark.
    Replication,
    /// One log read by three services, each with a goal box beside it: two crossed, one
    /// ticked.
    Practice,
    /// Two streams in event time, searches above and clicks below, joined pairs linked and
    /// one click crossed out past the watermark.
    StreamJoin,
    /// Bars of counts in a window, the top few outlined, and a small grid of sketch counters.
    TopK,
    /// Three input lanes with a barrier on each, the slow one's barrier behind; a snapshot box
    /// where they meet.
    Checkpoints,
    /// A job's state box with arrows out: one to a single envelope, one to a doubled envelope
    /// crossed out.
    Effects,
    /// Two servers writing a database and an index: their arrows cross on the way to the
    /// index (one crossed out); below, the database's log feeding the index in order.
    DualWrites,
    /// A long log of keyed records above its compacted copy, one record per key and a
    /// tombstone, with a reader taking the short copy from the start.
    Compaction,
}

const WIDTH: f64 = 240.0;
const HEIGHT: f64 = 96.0;
/// Most rows drawn; more would be too thin to read at this size.
const ROWS_MAX: u32 = 6;

#[derive(Properties, PartialEq)]
pub struct LessonThumbnailProps {
    pub thumbnail: Thumbnail,
}

#[function_component(LessonThumbnail)]
pub fn lesson_thumbnail(props: &LessonThumbnailProps) -> Html {
    Html::from_html_unchecked(markup(props.thumbnail).into())
}

/// The thumbnail's whole SVG element as markup. Written as text rather than `html!`: a
/// thumbnail never changes once drawn, and Yew's element-building code for these sixteen
/// pictures weighed about 30 KB of every bundle, the text a fraction of that.
fn markup(thumbnail: Thumbnail) -> String {
    let mut out = String::with_capacity(4096);
    put(
        &mut out,
        format_args!(
            r#"<svg class="thumbnail" viewBox="0 0 {WIDTH} {HEIGHT}" aria-hidden="true" focusable="false"><rect class="thumb-bg" width="{WIDTH}" height="{HEIGHT}" rx="6"/>"#
        ),
    );
    match thumbnail {
        Thumbnail::Log {
            partitions,
            members,
        } => log(&mut out, partitions, members),
        Thumbnail::Rebalance { members } => rebalance(&mut out, members),
        Thumbnail::Clocks => clocks(&mut out),
        Thumbnail::Watermark => watermark(&mut out),
        Thumbnail::Windows => windows(&mut out),
        Thumbnail::Delivery => delivery(&mut out),
        Thumbnail::Queues => queues(&mut out),
        Thumbnail::Backpressure => backpressure(&mut out),
        Thumbnail::Replication => replication(&mut out),
        Thumbnail::Practice => practice(&mut out),
        Thumbnail::StreamJoin => stream_join(&mut out),
        Thumbnail::TopK => top_k(&mut out),
        Thumbnail::Checkpoints => checkpoints(&mut out),
        Thumbnail::Effects => effects(&mut out),
        Thumbnail::DualWrites => dual_writes(&mut out),
        Thumbnail::Compaction => compaction(&mut out),
    }
    out.push_str("</svg>");
    out
}

/// A cell of the thumbnails' logs: a rectangle filled in the colour of `key`.
fn cell(out: &mut String, x: f64, y: f64, width: f64, height: f64, key: u32) {
    put(
        out,
        format_args!(
            r#"<rect x="{x}" y="{y}" width="{width}" height="{height}" fill="{}"/>"#,
            key_colour(Some(key))
        ),
    );
}

/// Where a row of cells sits: its first cell's left edge, the distance from one cell to the
/// next, its top, and each cell's size.
struct CellRow {
    x: f64,
    pitch: f64,
    y: f64,
    width: f64,
    height: f64,
}

/// The row's cells `0..count`, cell `i` in the colour of key `key_of(i)`.
fn cell_row(out: &mut String, row: CellRow, count: u32, key_of: impl Fn(u32) -> u32) {
    for i in 0..count {
        let x = row.x + f64::from(i) * row.pitch;
        cell(out, x, row.y, row.width, row.height, key_of(i));
    }
}

/// A link line from (x1, y1) to (x2, y2).
fn link(out: &mut String, x1: f64, y1: f64, x2: f64, y2: f64) {
    put(
        out,
        format_args!(r#"<line class="thumb-link" x1="{x1}" x2="{x2}" y1="{y1}" y2="{y2}"/>"#),
    );
}

/// A member's (or a store's) box.
fn member(out: &mut String, x: f64, y: f64, width: f64, height: f64, rx: f64) {
    put(
        out,
        format_args!(
            r#"<rect class="thumb-member" x="{x}" y="{y}" width="{width}" height="{height}" rx="{rx}"/>"#
        ),
    );
}

/// A small cross: two strokes of `size` from (x, y).
fn cross(out: &mut String, x: f64, y: f64, size: f64) {
    put(
        out,
        format_args!(
            r#"<path class="thumb-cross" d="M {x} {y} l {size} {size} m 0 -{size} l -{size} {size}"/>"#
        ),
    );
}

/// A label in the thumbnails' small type.
fn label(out: &mut String, x: f64, y: f64, text: &str) {
    put(
        out,
        format_args!(r#"<text class="thumb-label" x="{x}" y="{y}">{text}</text>"#),
    );
}

/// The class that shades every other window or counter.
fn odd(is_odd: bool) -> &'static str {
    if is_odd {
        " odd"
    } else {
        ""
    }
}

/// A repeatable spread in [0, 1) for dot `i` of `n` (`step` coprime with `n`): the same
/// picture every time, no random generator needed.
fn spread(i: u32, step: u32, n: u32) -> f64 {
    f64::from(i * step % n) / f64::from(n)
}

fn log(out: &mut String, partitions: u32, members: u32) {
    let rows = partitions.clamp(1, ROWS_MAX);
    let row_h = (HEIGHT - 16.0) / f64::from(rows);
    let cells = 14;
    let members = members.clamp(1, ROWS_MAX);
    let member_h = (HEIGHT - 16.0) / f64::from(members);
    for p in 0..rows {
        let y = 8.0 + f64::from(p) * row_h;
        let filled = cells - (p * 3) % 5;
        out.push_str("<g>");
        let row = CellRow {
            x: 12.0,
            pitch: 11.0,
            y,
            width: 10.0,
            height: row_h - 3.0,
        };
        cell_row(out, row, filled, |c| (p * 7 + c * 3) % 5);
        let member_y = 8.0 + f64::from(p % members) * member_h + member_h / 2.0;
        link(out, 170.0, y + row_h / 2.0, 196.0, member_y);
        out.push_str("</g>");
    }
    for m in 0..members {
        let y = 8.0 + f64::from(m) * member_h;
        member(out, 198.0, y, 32.0, member_h - 3.0, 3.0);
    }
}

fn rebalance(out: &mut String, members: u32) {
    let rows = members.clamp(1, ROWS_MAX);
    let row_h = (HEIGHT - 16.0) / f64::from(rows);
    put(
        out,
        format_args!(
            r#"<rect class="thumb-band" x="96" y="4" width="44" height="{}"/>"#,
            HEIGHT - 8.0
        ),
    );
    for m in 0..rows {
        let y = 8.0 + f64::from(m) * row_h + 2.0;
        let h = (row_h - 6.0).max(2.0);
        put(
            out,
            format_args!(
                r#"<g><rect class="thumb-work" x="12" y="{y}" width="82" height="{h}"/><rect class="thumb-work" x="142" y="{y}" width="86" height="{h}"/></g>"#
            ),
        );
    }
    cross(out, 116.0, 40.0, 8.0);
}

fn queues(out: &mut String) {
    for p in 0..3u32 {
        let y = 10.0 + f64::from(p) * 28.0;
        out.push_str("<g>");
        let row = CellRow {
            x: 10.0,
            pitch: 11.0,
            y,
            width: 10.0,
            height: 20.0,
        };
        cell_row(out, row, 9, |c| (p + c * 2) % 5);
        // One member per partition on the left reader, three on the right.
        link(out, 110.0, y + 10.0, 140.0, y + 10.0);
        member(out, 142.0, y, 22.0, 20.0, 3.0);
        for m in 0..3u32 {
            member(out, 176.0 + f64::from(m) * 18.0, y + 2.0, 14.0, 16.0, 3.0);
        }
        out.push_str("</g>");
    }
}

fn practice(out: &mut String) {
    let row = CellRow {
        x: 8.0,
        pitch: 8.0,
        y: 38.0,
        width: 7.0,
        height: 20.0,
    };
    cell_row(out, row, 12, |c| c % 5);
    for s in 0..3u32 {
        let y = 8.0 + f64::from(s) * 30.0;
        out.push_str("<g>");
        link(out, 106.0, 48.0, 140.0, y + 10.0);
        member(out, 142.0, y, 50.0, 20.0, 3.0);
        member(out, 200.0, y, 24.0, 20.0, 3.0);
        // The first two services fail their goals, the third passes.
        if s < 2 {
            cross(out, 206.0, y + 4.0, 12.0);
        } else {
            put(
                out,
                format_args!(
                    r#"<path class="thumb-link" d="M 205 {} l 5 6 l 10 -12"/>"#,
                    y + 12.0
                ),
            );
        }
        out.push_str("</g>");
    }
}

fn backpressure(out: &mut String) {
    member(out, 8.0, 30.0, 26.0, 36.0, 3.0);
    for lane in 0..4u32 {
        let y = 8.0 + f64::from(lane) * 22.0;
        let filled = [3u32, 12, 4, 14][lane as usize];
        out.push_str("<g>");
        link(out, 34.0, 48.0, 48.0, y + 8.0);
        let row = CellRow {
            x: 50.0,
            pitch: 11.0,
            y,
            width: 10.0,
            height: 16.0,
        };
        cell_row(out, row, filled, |c| (lane + c) % 5);
        if lane == 0 {
            cross(out, 92.0, 10.0, 10.0);
        }
        out.push_str("</g>");
    }
}

fn checkpoints(out: &mut String) {
    for lane in 0..3u32 {
        let y = 12.0 + f64::from(lane) * 26.0;
        // The slow lane's barrier lags behind the others'.
        let barrier = if lane == 2 { 70.0 } else { 118.0 };
        out.push_str("<g>");
        let row = CellRow {
            x: 8.0,
            pitch: 12.0,
            y,
            width: 10.0,
            height: 16.0,
        };
        cell_row(out, row, 12, |c| (lane + c) % 5);
        put(
            out,
            format_args!(
                r#"<rect class="thumb-cross" x="{barrier}" y="{}" width="3" height="22"/>"#,
                y - 3.0
            ),
        );
        link(out, 152.0, y + 8.0, 176.0, 48.0);
        out.push_str("</g>");
    }
    member(out, 178.0, 28.0, 52.0, 40.0, 4.0);
}

fn effects(out: &mut String) {
    member(out, 10.0, 24.0, 60.0, 48.0, 4.0);
    for k in 0..4u32 {
        let width = 12.0 + f64::from(k * 7 % 5) * 8.0;
        cell(out, 18.0, 30.0 + f64::from(k) * 9.0, width, 7.0, k);
    }
    link(out, 70.0, 36.0, 130.0, 26.0);
    link(out, 70.0, 60.0, 130.0, 70.0);
    member(out, 134.0, 14.0, 30.0, 22.0, 2.0);
    member(out, 134.0, 58.0, 30.0, 22.0, 2.0);
    member(out, 170.0, 58.0, 30.0, 22.0, 2.0);
    out.push_str(r#"<path class="thumb-cross" d="M 172 60 l 26 18 m 0 -18 l -26 18"/>"#);
}

fn dual_writes(out: &mut String) {
    member(out, 10.0, 10.0, 34.0, 18.0, 3.0);
    member(out, 10.0, 36.0, 34.0, 18.0, 3.0);
    member(out, 104.0, 10.0, 40.0, 44.0, 3.0);
    label(out, 108.0, 36.0, "DB");
    member(out, 196.0, 10.0, 36.0, 44.0, 3.0);
    label(out, 200.0, 36.0, "index");
    link(out, 44.0, 19.0, 104.0, 22.0);
    link(out, 44.0, 45.0, 104.0, 42.0);
    // Two writes cross on their way to the index: the older one lands last.
    link(out, 144.0, 18.0, 196.0, 46.0);
    link(out, 144.0, 46.0, 196.0, 18.0);
    cross(out, 166.0, 26.0, 8.0);
    // Below: the database's log, in order, feeding the index.
    let row = CellRow {
        x: 104.0,
        pitch: 9.0,
        y: 68.0,
        width: 8.0,
        height: 12.0,
    };
    cell_row(out, row, 10, |i| i % 3);
    link(out, 124.0, 54.0, 124.0, 68.0);
    link(out, 194.0, 74.0, 214.0, 54.0);
}

fn compaction(out: &mut String) {
    let keys = [0u32, 1, 2, 0, 1, 0, 2, 1, 0, 3, 1, 0, 2, 0];
    let row = |y| CellRow {
        x: 12.0,
        pitch: 15.0,
        y,
        width: 13.0,
        height: 16.0,
    };
    cell_row(out, row(12.0), keys.len() as u32, |i| keys[i as usize]);
    link(out, 12.0, 38.0, 222.0, 38.0);
    // The compacted copy: the newest record per key, and a tombstone (an empty box).
    let newest = [1u32, 2, 0];
    cell_row(out, row(48.0), newest.len() as u32, |i| newest[i as usize]);
    out.push_str(r#"<rect class="thumb-member" x="57" y="48" width="13" height="16"/>"#);
    label(out, 80.0, 61.0, "one per key");
    member(out, 12.0, 74.0, 56.0, 14.0, 3.0);
    link(out, 18.0, 64.0, 18.0, 74.0);
}

/// A record's dot at (x, y) in the colour of `key`.
fn dot(out: &mut String, x: f64, y: f64, r: f64, key: u32) {
    put(
        out,
        format_args!(
            r#"<circle cx="{x}" cy="{y}" r="{r}" fill="{}"/>"#,
            key_colour(Some(key))
        ),
    );
}

fn clocks(out: &mut String) {
    label(out, 8.0, 20.0, "event");
    label(out, 8.0, 74.0, "proc.");
    out.push_str(r#"<rect class="thumb-band" x="118" y="58" width="40" height="26"/>"#);
    for i in 0..36u32 {
        let event_x = 48.0 + f64::from(i) * 5.0;
        // Records that happened during the outage arrive in a burst right after it.
        let processed_x = if (14..22).contains(&i) {
            160.0 + f64::from(i - 14) * 2.0
        } else {
            event_x
        };
        out.push_str("<g>");
        link(out, event_x, 22.0, processed_x, 66.0);
        dot(out, event_x, 22.0, 3.0, i % 3);
        dot(out, processed_x, 70.0, 3.0, i % 3);
        out.push_str("</g>");
    }
}

fn watermark(out: &mut String) {
    // Event time across, processing time up (SVG y grows down); the watermark trails the
    // records by a fixed bound, so a record delayed by more than the bound lands above it: late.
    let bound = 14.0;
    let proc_y = |event_x: f64, delay: f64| 88.0 - (event_x - 12.0) * 0.3 - delay;
    for w in 0..4 {
        put(
            out,
            format_args!(
                r#"<rect class="thumb-window{}" x="{}" y="4" width="54" height="88"/>"#,
                odd(w % 2 == 1),
                12 + w * 54
            ),
        );
    }
    for i in 0..40u32 {
        let x = 14.0 + spread(i, 23, 40) * 210.0;
        let delay = spread(i, 7, 11).powi(2) * 34.0;
        let late = if delay > bound { " late" } else { "" };
        put(
            out,
            format_args!(
                r#"<circle class="thumb-dot{late}" cx="{x:.1}" cy="{:.1}" r="3" fill="{}"/>"#,
                proc_y(x, delay).max(6.0),
                key_colour(Some(i % 4))
            ),
        );
    }
    out.push_str(r#"<path class="thumb-watermark" d="M 12 88"#);
    for s in 0..8 {
        let x = 12.0 + f64::from(s + 1) * 27.0;
        put(out, format_args!(" H {x:.1} V {:.1}", proc_y(x, bound)));
    }
    out.push_str(r#""/>"#);
}

fn windows(out: &mut String) {
    // Record times along the top; each band below holds the windows of one type as
    // (start, width) boxes, overlapping where a record belongs to several.
    let records = [20.0, 34.0, 40.0, 92.0, 104.0, 150.0, 158.0, 168.0, 214.0];
    let bands: [&[(f64, f64)]; 4] = [
        &[(12.0, 54.0), (66.0, 54.0), (120.0, 54.0), (174.0, 54.0)],
        &[
            (12.0, 54.0),
            (39.0, 54.0),
            (66.0, 54.0),
            (93.0, 54.0),
            (120.0, 54.0),
            (147.0, 54.0),
            (174.0, 54.0),
        ],
        &[(14.0, 30.0), (86.0, 22.0), (144.0, 28.0), (208.0, 12.0)],
        &[(16.0, 30.0), (88.0, 22.0), (146.0, 28.0), (210.0, 8.0)],
    ];
    // Each band edged in its colour on the lesson's chart, so the card reads as that chart.
    let edges = ["--blue", "--orange", "--reddish-purple", "--bluish-green"];
    for (i, &x) in records.iter().enumerate() {
        dot(out, x, 12.0, 3.0, i as u32 % 3);
    }
    for (b, boxes) in bands.iter().enumerate() {
        let y = 22.0 + b as f64 * 18.0;
        let height = 16.0 - boxes.len().min(2) as f64;
        out.push_str("<g>");
        for (i, (x, width)) in boxes.iter().enumerate() {
            put(
                out,
                format_args!(
                    r#"<rect class="thumb-window thumb-box{}" style="stroke: var({})" x="{x}" y="{}" width="{width}" height="{height}"/>"#,
                    odd(i % 2 == 1),
                    edges[b],
                    y + (i % 2) as f64 * 2.0
                ),
            );
        }
        out.push_str("</g>");
    }
}

/// One partition of the delivery thumbnail: its cells' classes, where processing has got to
/// and where the committed offset is (both as cell indexes).
struct DeliveryRow {
    cells: [&'static str; 12],
    processed: usize,
    committed: usize,
}

fn delivery(out: &mut String) {
    // The same classes as the delivery lesson's log, so the colours (and themes) match it.
    const W: &str = "cell-waiting";
    const O: &str = "cell-once";
    const R: &str = "cell-repeated";
    const L: &str = "cell-lost";
    const D: &str = "cell-dead";
    let rows = [
        // Committed behind processing: the gap would be re-read after a crash.
        DeliveryRow {
            cells: [O, O, O, R, O, O, O, O, O, W, W, W],
            processed: 9,
            committed: 6,
        },
        // Committed ahead of processing: the gap would be lost, and one already was.
        DeliveryRow {
            cells: [O, O, O, O, L, O, O, W, W, W, W, W],
            processed: 7,
            committed: 10,
        },
        // A poison record, retried and then parked in the dead-letter topic.
        DeliveryRow {
            cells: [O, O, D, O, O, O, O, O, O, O, W, W],
            processed: 10,
            committed: 10,
        },
    ];
    let cell_x = |i: usize| 12.0 + i as f64 * 12.0;
    let row_y = |r: usize| 6.0 + r as f64 * 30.0;
    for (r, row) in rows.iter().enumerate() {
        let y = row_y(r);
        let (low, high) = (
            row.processed.min(row.committed),
            row.processed.max(row.committed),
        );
        let risk = if row.committed > row.processed {
            " cell-risk-lost"
        } else {
            " cell-risk-reread"
        };
        out.push_str("<g>");
        for (i, class) in row.cells.iter().enumerate() {
            let x = cell_x(i);
            let at_risk = if (low..high).contains(&i) { risk } else { "" };
            put(
                out,
                format_args!(
                    r#"<g class="cell {class}{at_risk}"><rect x="{x}" y="{y}" width="10" height="16" rx="1.5"/>"#
                ),
            );
            if *class == L {
                cross(out, x + 2.0, y + 5.0, 6.0);
            }
            out.push_str("</g>");
        }
        let processed_x = cell_x(row.processed) - 1.0;
        let committed_x = cell_x(row.committed) - 1.0;
        put(
            out,
            format_args!(
                r#"<line class="mark-processed" x1="{processed_x}" x2="{processed_x}" y1="{}" y2="{}"/><polygon class="mark-committed" points="{committed_x},{} {},{} {},{}"/></g>"#,
                y - 2.0,
                y + 18.0,
                y + 18.0,
                committed_x - 4.0,
                y + 24.0,
                committed_x + 4.0,
                y + 24.0
            ),
        );
    }
    link(out, cell_x(2) + 5.0, row_y(2) + 8.0, 178.0, row_y(2) + 8.0);
    out.push_str(concat!(
        r#"<rect class="thumb-dlq" x="178" y="44" width="52" height="42" rx="3"/>"#,
        r#"<text class="thumb-label" x="184" y="58">DLQ</text>"#,
        r#"<g class="cell cell-dead"><rect x="186" y="64" width="10" height="16" rx="1.5"/></g>"#,
    ));
}

fn replication(out: &mut String) {
    // (label, cells held): the crashed old leader, the new leader, a follower; the high
    // watermark is at 11.
    let rows: [(&str, u32); 3] = [("✕", 14), ("L", 11), ("F", 11)];
    let high_watermark = 11.0;
    let cell_x = |c: f64| 26.0 + c * 12.0;
    for (r, &(name, cells)) in rows.iter().enumerate() {
        let y = 10.0 + r as f64 * 28.0;
        out.push_str("<g>");
        label(out, 8.0, y + 14.0, name);
        for c in 0..cells {
            let x = cell_x(f64::from(c));
            let lost = f64::from(c) >= high_watermark;
            put(
                out,
                format_args!(
                    r#"<g><rect x="{x}" y="{y}" width="10" height="20" fill="{}" opacity="{}"/>"#,
                    key_colour(Some(c % 5)),
                    if lost { "0.45" } else { "1" }
                ),
            );
            if lost {
                cross(out, x + 2.0, y + 7.0, 6.0);
            }
            out.push_str("</g>");
        }
        out.push_str("</g>");
    }
    let x = cell_x(high_watermark) - 1.0;
    put(
        out,
        format_args!(r#"<line class="thumb-watermark" x1="{x}" x2="{x}" y1="4" y2="92"/>"#),
    );
}

fn stream_join(out: &mut String) {
    // Each search at x, its click a little later (or never); one click lands past the
    // watermark and is crossed out.
    let delays = [10.0, 18.0, 0.0, 8.0, 26.0, 0.0, 12.0];
    label(out, 8.0, 28.0, "search");
    label(out, 8.0, 76.0, "click");
    link(out, 50.0, 24.0, 232.0, 24.0);
    link(out, 50.0, 72.0, 232.0, 72.0);
    for (i, &delay) in delays.iter().enumerate() {
        let x = 56.0 + i as f64 * 24.0;
        let key = i as u32 % 3;
        out.push_str("<g>");
        dot(out, x, 24.0, 4.0, key);
        if delay > 0.0 && i != 4 {
            link(out, x, 24.0, x + delay, 72.0);
            dot(out, x + delay, 72.0, 4.0, key);
        }
        out.push_str("</g>");
    }
    out.push_str(r#"<path class="thumb-watermark" d="M 190 8 V 90"/>"#);
    cross(out, 176.0, 67.0, 10.0);
}

fn top_k(out: &mut String) {
    // A long tail of counts, the top three outlined; beside it, a sketch's rows of counters.
    for i in 0..12u32 {
        let h = 70.0 / (1.0 + f64::from(i) * 0.6);
        let x = 10.0 + f64::from(i) * 11.0;
        let outlined = if i < 3 { " thumb-box" } else { "" };
        put(
            out,
            format_args!(
                r#"<rect class="thumb-work{outlined}" x="{x}" y="{}" width="8" height="{h}"/>"#,
                88.0 - h
            ),
        );
    }
    for row in 0..4u32 {
        out.push_str("<g>");
        for col in 0..6u32 {
            put(
                out,
                format_args!(
                    r#"<rect class="thumb-window{}" x="{}" y="{}" width="12" height="16"/>"#,
                    odd((row + col) % 2 == 1),
                    154.0 + f64::from(col) * 13.0,
                    16.0 + f64::from(row) * 18.0
                ),
            );
        }
        out.push_str("</g>");
    }
    label(out, 154.0, 10.0, "sketch");
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;
    use web_sys::{DomParser, SupportedType};

    const SVG_NAMESPACE: &str = "http://www.w3.org/2000/svg";

    fn every_thumbnail() -> Vec<Thumbnail> {
        vec![
            Thumbnail::Log {
                partitions: 9,
                members: 2,
            },
            Thumbnail::Log {
                partitions: 1,
                members: 0,
            },
            Thumbnail::Rebalance { members: 0 },
            Thumbnail::Rebalance { members: 40 },
            Thumbnail::Clocks,
            Thumbnail::Watermark,
            Thumbnail::Windows,
            Thumbnail::Delivery,
            Thumbnail::Queues,
            Thumbnail::Backpressure,
            Thumbnail::Replication,
            Thumbnail::Practice,
            Thumbnail::StreamJoin,
            Thumbnail::TopK,
            Thumbnail::Checkpoints,
            Thumbnail::Effects,
            Thumbnail::DualWrites,
            Thumbnail::Compaction,
        ]
    }

    /// Written as text, a thumbnail is only drawn if its markup is well formed: read it as
    /// strict XML, where a stray quote or an unclosed element is an error, not a guess; then
    /// as the page reads it (Yew sets it as a `div`'s inner HTML), where it must be one SVG
    /// element.
    #[wasm_bindgen_test]
    fn every_thumbnail_is_one_well_formed_svg_picture() {
        let parser = DomParser::new().expect("a parser");
        let page = web_sys::window()
            .and_then(|w| w.document())
            .expect("a page");
        for thumbnail in every_thumbnail() {
            let text = markup(thumbnail);
            let strict = parser
                .parse_from_string(&text, SupportedType::ApplicationXml)
                .expect("parsed");
            assert_eq!(
                strict.get_elements_by_tag_name("parsererror").length(),
                0,
                "{thumbnail:?}: {text}"
            );
            let holder = page.create_element("div").expect("a div");
            holder.set_inner_html(&text);
            assert_eq!(holder.child_element_count(), 1, "{thumbnail:?}");
            let svg = holder.first_element_child().expect("the picture");
            assert_eq!(
                svg.namespace_uri().as_deref(),
                Some(SVG_NAMESPACE),
                "{thumbnail:?}"
            );
            assert_eq!(svg.get_attribute("class").as_deref(), Some("thumbnail"));
            assert!(
                svg.child_element_count() > 1,
                "{thumbnail:?} draws more than its background"
            );
        }
    }

    #[wasm_bindgen_test]
    fn the_log_thumbnail_draws_a_row_per_partition_and_a_box_per_member_up_to_six() {
        let count = |thumbnail, needle: &str| markup(thumbnail).matches(needle).count();
        let log = |partitions, members| Thumbnail::Log {
            partitions,
            members,
        };
        assert_eq!(count(log(3, 2), "<g>"), 3);
        assert_eq!(count(log(3, 2), "thumb-member"), 2);
        assert_eq!(count(log(12, 9), "<g>"), 6, "rows stop at six");
        assert_eq!(count(log(12, 9), "thumb-member"), 6);
        assert_eq!(count(log(4, 0), "thumb-member"), 1, "at least one member");
    }
}
