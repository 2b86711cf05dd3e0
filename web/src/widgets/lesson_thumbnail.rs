//! A lesson's thumbnail on the gallery: a small inline SVG in the lesson's visual language,
//! drawn from plain data (no image files, no requests). Colours come from the style sheet's
//! variables, so the thumbnails follow the theme.

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
    let body = match props.thumbnail {
        Thumbnail::Log {
            partitions,
            members,
        } => log(partitions, members),
        Thumbnail::Rebalance { members } => rebalance(members),
        Thumbnail::Clocks => clocks(),
        Thumbnail::Watermark => watermark(),
        Thumbnail::Windows => windows(),
        Thumbnail::Delivery => delivery(),
        Thumbnail::Queues => queues(),
        Thumbnail::Backpressure => backpressure(),
        Thumbnail::Replication => replication(),
        Thumbnail::Practice => practice(),
        Thumbnail::StreamJoin => stream_join(),
        Thumbnail::TopK => top_k(),
        Thumbnail::Checkpoints => checkpoints(),
        Thumbnail::Effects => effects(),
        Thumbnail::DualWrites => dual_writes(),
        Thumbnail::Compaction => compaction(),
    };
    html! {
        <svg class="thumbnail" viewBox={format!("0 0 {WIDTH} {HEIGHT}")} aria-hidden="true" focusable="false">
            <rect class="thumb-bg" width={WIDTH.to_string()} height={HEIGHT.to_string()} rx="6" />
            { body }
        </svg>
    }
}

/// A repeatable spread in [0, 1) for dot `i` of `n` (`step` coprime with `n`): the same
/// picture every time, no random generator needed.
fn spread(i: u32, step: u32, n: u32) -> f64 {
    f64::from(i * step % n) / f64::from(n)
}

fn log(partitions: u32, members: u32) -> Html {
    let rows = partitions.clamp(1, ROWS_MAX);
    let row_h = (HEIGHT - 16.0) / f64::from(rows);
    let cells = 14;
    let members = members.clamp(1, ROWS_MAX);
    let member_h = (HEIGHT - 16.0) / f64::from(members);
    html! {
        <>
            { for (0..rows).map(|p| {
                let y = 8.0 + f64::from(p) * row_h;
                let filled = cells - (p * 3) % 5;
                html! {
                    <g>
                        { for (0..filled).map(|c| {
                            let key = (p * 7 + c * 3) % 5;
                            html! { <rect x={(12.0 + f64::from(c) * 11.0).to_string()} y={y.to_string()}
                                width="10" height={(row_h - 3.0).to_string()} fill={key_colour(Some(key))} /> }
                        }) }
                        <line class="thumb-link" x1="170" x2="196" y1={(y + row_h / 2.0).to_string()}
                            y2={(8.0 + f64::from(p % members) * member_h + member_h / 2.0).to_string()} />
                    </g>
                }
            }) }
            { for (0..members).map(|m| html! {
                <rect class="thumb-member" x="198" y={(8.0 + f64::from(m) * member_h).to_string()}
                    width="32" height={(member_h - 3.0).to_string()} rx="3" />
            }) }
        </>
    }
}

fn rebalance(members: u32) -> Html {
    let rows = members.clamp(1, ROWS_MAX);
    let row_h = (HEIGHT - 16.0) / f64::from(rows);
    html! {
        <>
            <rect class="thumb-band" x="96" y="4" width="44" height={(HEIGHT - 8.0).to_string()} />
            { for (0..rows).map(|m| {
                let y = 8.0 + f64::from(m) * row_h + 2.0;
                let h = (row_h - 6.0).max(2.0);
                html! {
                    <g>
                        <rect class="thumb-work" x="12" y={y.to_string()} width="82" height={h.to_string()} />
                        <rect class="thumb-work" x="142" y={y.to_string()} width="86" height={h.to_string()} />
                    </g>
                }
            }) }
            <path class="thumb-cross" d="M 116 40 l 8 8 m 0 -8 l -8 8" />
        </>
    }
}

fn queues() -> Html {
    html! {
        <>
            { for (0..3u32).map(|p| {
                let y = 10.0 + f64::from(p) * 28.0;
                html! {
                    <g>
                        { for (0..9u32).map(|c| html! {
                            <rect x={(10.0 + f64::from(c) * 11.0).to_string()} y={y.to_string()}
                                width="10" height="20" fill={key_colour(Some((p + c * 2) % 5))} />
                        }) }
                        // One member per partition on the left reader, three on the right.
                        <line class="thumb-link" x1="110" x2="140" y1={(y + 10.0).to_string()} y2={(y + 10.0).to_string()} />
                        <rect class="thumb-member" x="142" y={y.to_string()} width="22" height="20" rx="3" />
                        { for (0..3u32).map(|m| html! {
                            <rect class="thumb-member" x={(176.0 + f64::from(m) * 18.0).to_string()}
                                y={(y + 2.0).to_string()} width="14" height="16" rx="3" />
                        }) }
                    </g>
                }
            }) }
        </>
    }
}

fn practice() -> Html {
    html! {
        <>
            { for (0..12u32).map(|c| html! {
                <rect x={(8.0 + f64::from(c) * 8.0).to_string()} y="38" width="7" height="20"
                    fill={key_colour(Some(c % 5))} />
            }) }
            { for (0..3u32).map(|s| {
                let y = 8.0 + f64::from(s) * 30.0;
                // The first two services fail their goals, the third passes.
                let mark = if s < 2 {
                    html! { <path class="thumb-cross" d={format!("M 206 {} l 12 12 m 0 -12 l -12 12", y + 4.0)} /> }
                } else {
                    html! { <path class="thumb-link" d={format!("M 205 {} l 5 6 l 10 -12", y + 12.0)} /> }
                };
                html! {
                    <g>
                        <line class="thumb-link" x1="106" x2="140" y1="48" y2={(y + 10.0).to_string()} />
                        <rect class="thumb-member" x="142" y={y.to_string()} width="50" height="20" rx="3" />
                        <rect class="thumb-member" x="200" y={y.to_string()} width="24" height="20" rx="3" />
                        { mark }
                    </g>
                }
            }) }
        </>
    }
}

fn backpressure() -> Html {
    html! {
        <>
            <rect class="thumb-member" x="8" y="30" width="26" height="36" rx="3" />
            { for (0..4u32).map(|lane| {
                let y = 8.0 + f64::from(lane) * 22.0;
                let filled = [3u32, 12, 4, 14][lane as usize];
                html! {
                    <g>
                        <line class="thumb-link" x1="34" x2="48" y1="48" y2={(y + 8.0).to_string()} />
                        { for (0..filled).map(|c| html! {
                            <rect x={(50.0 + f64::from(c) * 11.0).to_string()} y={y.to_string()}
                                width="10" height="16" fill={key_colour(Some((lane + c) % 5))} />
                        }) }
                        if lane == 0 {
                            <path class="thumb-cross" d="M 92 10 l 10 10 m 0 -10 l -10 10" />
                        }
                    </g>
                }
            }) }
        </>
    }
}

fn checkpoints() -> Html {
    html! {
        <>
            { for (0..3u32).map(|lane| {
                let y = 12.0 + f64::from(lane) * 26.0;
                // The slow lane's barrier lags behind the others'.
                let barrier = if lane == 2 { 70.0 } else { 118.0 };
                html! {
                    <g>
                        { for (0..12u32).map(|c| html! {
                            <rect x={(8.0 + f64::from(c) * 12.0).to_string()} y={y.to_string()}
                                width="10" height="16" fill={key_colour(Some((lane + c) % 5))} />
                        }) }
                        <rect class="thumb-cross" x={barrier.to_string()} y={(y - 3.0).to_string()} width="3" height="22" />
                        <line class="thumb-link" x1="152" x2="176" y1={(y + 8.0).to_string()} y2="48" />
                    </g>
                }
            }) }
            <rect class="thumb-member" x="178" y="28" width="52" height="40" rx="4" />
        </>
    }
}

fn effects() -> Html {
    html! {
        <>
            <rect class="thumb-member" x="10" y="24" width="60" height="48" rx="4" />
            { for (0..4u32).map(|k| html! {
                <rect x="18" y={(30.0 + f64::from(k) * 9.0).to_string()}
                    width={(12.0 + f64::from(k * 7 % 5) * 8.0).to_string()} height="7"
                    fill={key_colour(Some(k))} />
            }) }
            <line class="thumb-link" x1="70" x2="130" y1="36" y2="26" />
            <line class="thumb-link" x1="70" x2="130" y1="60" y2="70" />
            <rect class="thumb-member" x="134" y="14" width="30" height="22" rx="2" />
            <rect class="thumb-member" x="134" y="58" width="30" height="22" rx="2" />
            <rect class="thumb-member" x="170" y="58" width="30" height="22" rx="2" />
            <path class="thumb-cross" d="M 172 60 l 26 18 m 0 -18 l -26 18" />
        </>
    }
}

fn dual_writes() -> Html {
    html! {
        <>
            <rect class="thumb-member" x="10" y="10" width="34" height="18" rx="3" />
            <rect class="thumb-member" x="10" y="36" width="34" height="18" rx="3" />
            <rect class="thumb-member" x="104" y="10" width="40" height="44" rx="3" />
            <text class="thumb-label" x="108" y="36">{ "DB" }</text>
            <rect class="thumb-member" x="196" y="10" width="36" height="44" rx="3" />
            <text class="thumb-label" x="200" y="36">{ "index" }</text>
            <line class="thumb-link" x1="44" x2="104" y1="19" y2="22" />
            <line class="thumb-link" x1="44" x2="104" y1="45" y2="42" />
            // Two writes cross on their way to the index: the older one lands last.
            <line class="thumb-link" x1="144" x2="196" y1="18" y2="46" />
            <line class="thumb-link" x1="144" x2="196" y1="46" y2="18" />
            <path class="thumb-cross" d="M 166 26 l 8 8 m 0 -8 l -8 8" />
            // Below: the database's log, in order, feeding the index.
            { for (0..10u32).map(|i| html! {
                <rect x={(104.0 + f64::from(i) * 9.0).to_string()} y="68" width="8" height="12"
                    fill={key_colour(Some(i % 3))} />
            }) }
            <line class="thumb-link" x1="124" x2="124" y1="54" y2="68" />
            <line class="thumb-link" x1="194" x2="214" y1="74" y2="54" />
        </>
    }
}

fn compaction() -> Html {
    let keys = [0u32, 1, 2, 0, 1, 0, 2, 1, 0, 3, 1, 0, 2, 0];
    html! {
        <>
            { for keys.iter().enumerate().map(|(i, &k)| html! {
                <rect x={(12.0 + i as f64 * 15.0).to_string()} y="12" width="13" height="16"
                    fill={key_colour(Some(k))} />
            }) }
            <line class="thumb-link" x1="12" x2="222" y1="38" y2="38" />
            // The compacted copy: the newest record per key, and a tombstone (an empty box).
            { for [1u32, 2, 0].iter().enumerate().map(|(i, &k)| html! {
                <rect x={(12.0 + i as f64 * 15.0).to_string()} y="48" width="13" height="16"
                    fill={key_colour(Some(k))} />
            }) }
            <rect class="thumb-member" x="57" y="48" width="13" height="16" />
            <text class="thumb-label" x="80" y="61">{ "one per key" }</text>
            <rect class="thumb-member" x="12" y="74" width="56" height="14" rx="3" />
            <line class="thumb-link" x1="18" x2="18" y1="64" y2="74" />
        </>
    }
}

fn clocks() -> Html {
    html! {
        <>
            <text class="thumb-label" x="8" y="20">{ "event" }</text>
            <text class="thumb-label" x="8" y="74">{ "proc." }</text>
            <rect class="thumb-band" x="118" y="58" width="40" height="26" />
            { for (0..36u32).map(|i| {
                let event_x = 48.0 + f64::from(i) * 5.0;
                // Records that happened during the outage arrive in a burst right after it.
                let processed_x = if (14..22).contains(&i) { 160.0 + f64::from(i - 14) * 2.0 } else { event_x };
                let colour = key_colour(Some(i % 3));
                html! {
                    <g>
                        <line class="thumb-link" x1={event_x.to_string()} y1="22" x2={processed_x.to_string()} y2="66" />
                        <circle cx={event_x.to_string()} cy="22" r="3" fill={colour} />
                        <circle cx={processed_x.to_string()} cy="70" r="3" fill={colour} />
                    </g>
                }
            }) }
        </>
    }
}

fn watermark() -> Html {
    // Event time across, processing time up (SVG y grows down); the watermark trails the
    // records by a fixed bound, so a record delayed by more than the bound lands above it: late.
    let bound = 14.0;
    let proc_y = |event_x: f64, delay: f64| 88.0 - (event_x - 12.0) * 0.3 - delay;
    let mut steps = String::from("M 12 88");
    for s in 0..8 {
        let x = 12.0 + f64::from(s + 1) * 27.0;
        steps.push_str(&format!(" H {x:.1} V {:.1}", proc_y(x, bound)));
    }
    html! {
        <>
            { for (0..4).map(|w| html! {
                <rect class={classes!("thumb-window", (w % 2 == 1).then_some("odd"))}
                    x={(12 + w * 54).to_string()} y="4" width="54" height="88" />
            }) }
            { for (0..40u32).map(|i| {
                let x = 14.0 + spread(i, 23, 40) * 210.0;
                let delay = spread(i, 7, 11).powi(2) * 34.0;
                let late = delay > bound;
                html! { <circle class={classes!("thumb-dot", late.then_some("late"))}
                    cx={format!("{x:.1}")} cy={format!("{:.1}", proc_y(x, delay).max(6.0))} r="3"
                    fill={key_colour(Some(i % 4))} /> }
            }) }
            <path class="thumb-watermark" d={steps} />
        </>
    }
}

fn windows() -> Html {
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
    html! {
        <>
            { for records.iter().enumerate().map(|(i, x)| html! {
                <circle cx={x.to_string()} cy="12" r="3" fill={key_colour(Some(i as u32 % 3))} />
            }) }
            { for bands.iter().enumerate().map(|(b, boxes)| {
                let edge = format!("stroke: var({})", edges[b]);
                let y = 22.0 + b as f64 * 18.0;
                let rows = boxes.len().min(2) as f64;
                html! {
                    <g>
                        { for boxes.iter().enumerate().map(|(i, (x, w))| html! {
                            <rect class={classes!("thumb-window", "thumb-box", (i % 2 == 1).then_some("odd"))}
                                style={edge.clone()} x={x.to_string()} y={(y + (i % 2) as f64 * 2.0).to_string()}
                                width={w.to_string()} height={(16.0 - rows).to_string()} />
                        }) }
                    </g>
                }
            }) }
        </>
    }
}

/// One partition of the delivery thumbnail: its cells' classes, where processing has got to
/// and where the committed offset is (both as cell indexes).
struct DeliveryRow {
    cells: [&'static str; 12],
    processed: usize,
    committed: usize,
}

fn delivery() -> Html {
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
    html! {
        <>
            { for rows.iter().enumerate().map(|(r, row)| {
                let y = row_y(r);
                let (low, high) = (row.processed.min(row.committed), row.processed.max(row.committed));
                let risk = if row.committed > row.processed { "cell-risk-lost" } else { "cell-risk-reread" };
                html! {
                    <g>
                        { for row.cells.iter().enumerate().map(|(i, class)| {
                            let x = cell_x(i);
                            html! {
                                <g class={classes!("cell", *class, (low..high).contains(&i).then_some(risk))}>
                                    <rect x={x.to_string()} y={y.to_string()} width="10" height="16" rx="1.5" />
                                    if *class == L {
                                        <path class="thumb-cross" d={format!("M {} {} l 6 6 m 0 -6 l -6 6", x + 2.0, y + 5.0)} />
                                    }
                                </g>
                            }
                        }) }
                        <line class="mark-processed" x1={(cell_x(row.processed) - 1.0).to_string()} x2={(cell_x(row.processed) - 1.0).to_string()}
                            y1={(y - 2.0).to_string()} y2={(y + 18.0).to_string()} />
                        <polygon class="mark-committed" points={{
                            let x = cell_x(row.committed) - 1.0;
                            format!("{x},{} {},{} {},{}", y + 18.0, x - 4.0, y + 24.0, x + 4.0, y + 24.0)
                        }} />
                    </g>
                }
            }) }
            <line class="thumb-link" x1={(cell_x(2) + 5.0).to_string()} y1={(row_y(2) + 8.0).to_string()} x2="178" y2={(row_y(2) + 8.0).to_string()} />
            <rect class="thumb-dlq" x="178" y="44" width="52" height="42" rx="3" />
            <text class="thumb-label" x="184" y="58">{ "DLQ" }</text>
            <g class="cell cell-dead">
                <rect x="186" y="64" width="10" height="16" rx="1.5" />
            </g>
        </>
    }
}

fn replication() -> Html {
    // (label, cells held): the crashed old leader, the new leader, a follower; the high
    // watermark is at 11.
    let rows: [(&str, u32); 3] = [("✕", 14), ("L", 11), ("F", 11)];
    let high_watermark = 11.0;
    let cell_x = |c: f64| 26.0 + c * 12.0;
    html! {
        <>
            { for rows.iter().enumerate().map(|(r, &(label, cells))| {
                let y = 10.0 + r as f64 * 28.0;
                html! {
                    <g>
                        <text class="thumb-label" x="8" y={(y + 14.0).to_string()}>{ label }</text>
                        { for (0..cells).map(|c| {
                            let x = cell_x(f64::from(c));
                            let lost = f64::from(c) >= high_watermark;
                            html! {
                                <g>
                                    <rect x={x.to_string()} y={y.to_string()} width="10" height="20"
                                        fill={key_colour(Some(c % 5))} opacity={if lost { "0.45" } else { "1" }} />
                                    if lost {
                                        <path class="thumb-cross" d={format!("M {} {} l 6 6 m 0 -6 l -6 6", x + 2.0, y + 7.0)} />
                                    }
                                </g>
                            }
                        }) }
                    </g>
                }
            }) }
            <line class="thumb-watermark" x1={(cell_x(high_watermark) - 1.0).to_string()} x2={(cell_x(high_watermark) - 1.0).to_string()} y1="4" y2="92" />
        </>
    }
}

fn stream_join() -> Html {
    // Each search at x, its click a little later (or never); one click lands past the
    // watermark and is crossed out.
    let delays = [10.0, 18.0, 0.0, 8.0, 26.0, 0.0, 12.0];
    html! {
        <>
            <text class="thumb-label" x="8" y="28">{ "search" }</text>
            <text class="thumb-label" x="8" y="76">{ "click" }</text>
            <line class="thumb-link" x1="50" x2="232" y1="24" y2="24" />
            <line class="thumb-link" x1="50" x2="232" y1="72" y2="72" />
            { for delays.iter().enumerate().map(|(i, &delay)| {
                let x = 56.0 + i as f64 * 24.0;
                let colour = key_colour(Some(i as u32 % 3));
                html! {
                    <g>
                        <circle cx={x.to_string()} cy="24" r="4" fill={colour} />
                        if delay > 0.0 && i != 4 {
                            <line class="thumb-link" x1={x.to_string()} y1="24" x2={(x + delay).to_string()} y2="72" />
                            <circle cx={(x + delay).to_string()} cy="72" r="4" fill={colour} />
                        }
                    </g>
                }
            }) }
            <path class="thumb-watermark" d="M 190 8 V 90" />
            <path class="thumb-cross" d="M 176 67 l 10 10 m 0 -10 l -10 10" />
        </>
    }
}

fn top_k() -> Html {
    // A long tail of counts, the top three outlined; beside it, a sketch's rows of counters.
    html! {
        <>
            { for (0..12u32).map(|i| {
                let h = 70.0 / (1.0 + f64::from(i) * 0.6);
                let x = 10.0 + f64::from(i) * 11.0;
                html! {
                    <rect class={classes!("thumb-work", (i < 3).then_some("thumb-box"))}
                        x={x.to_string()} y={(88.0 - h).to_string()} width="8" height={h.to_string()} />
                }
            }) }
            { for (0..4u32).map(|row| html! {
                <g>
                    { for (0..6u32).map(|col| html! {
                        <rect class={classes!("thumb-window", ((row + col) % 2 == 1).then_some("odd"))}
                            x={(154.0 + f64::from(col) * 13.0).to_string()} y={(16.0 + f64::from(row) * 18.0).to_string()}
                            width="12" height="16" />
                    }) }
                </g>
            }) }
            <text class="thumb-label" x="154" y="10">{ "sketch" }</text>
        </>
    }
}
