//! The stream–stream join in event time: searches on one line, clicks on the other, the
//! latest 40 s up to now. A joined pair is linked; what the join still holds carries a bar
//! to the instant the watermark lets it go; an unclicked search, a lost click and a late
//! event each have their own mark and letter, so the fate never rests on colour alone. The
//! join's watermark (the smaller of the two sides') is the dashed line; the axis runs past
//! now by the interval, where the held events' bars end.

use crate::platform::bounded::bounded;
use crate::widgets::figure_counters::counters;
use streamlab_sim::family::Figures;
use streamlab_sim::joins::search_click::Fate;
use streamlab_sim::joins::{ClickMark, ClicksPicture, Side};
use yew::prelude::*;

const WIDTH: f64 = 820.0;
const HEIGHT: f64 = 230.0;
const LEFT: f64 = 96.0;
const RIGHT: f64 = 16.0;
const SEARCH_Y: f64 = 70.0;
const CLICK_Y: f64 = 160.0;

/// The figures under the picture.
const ROWS: &[(&str, &str)] = &[
    ("searches", "searches arrived"),
    ("clicked", "searches joined with a click"),
    ("unclicked", "searches emitted unclicked"),
    ("ctr", "click-through rate from the output"),
    ("true_ctr", "true click-through rate"),
    ("lost_clicks", "lost clicks"),
    ("late_clicks", "…late (behind the watermark)"),
    ("clicks_outside_interval", "…outside the interval"),
    (
        "clicked_searches_reported_unclicked",
        "clicked searches reported unclicked",
    ),
];

/// The words for a mark's fate (its tooltip and the legend).
fn fate_words(side: Side, fate: Fate) -> &'static str {
    match (side, fate) {
        (_, Fate::Unsent) => "not arrived",
        (_, Fate::Held) => "held in the join's state",
        (_, Fate::Matched) => "joined",
        (Side::Left, Fate::Expired) => "left the state unclicked",
        (Side::Right, Fate::Expired) => "lost: outside the interval",
        (_, Fate::Late) => "late: dropped behind the watermark",
    }
}

fn fate_class(fate: Fate) -> &'static str {
    match fate {
        Fate::Unsent => "unsent",
        Fate::Held => "held",
        Fate::Matched => "matched",
        Fate::Expired => "expired",
        Fate::Late => "late",
    }
}

pub fn streams(p: &ClicksPicture, figures: &Figures) -> Html {
    // The axis runs past now by the interval, so a held event's bar ends where it expires.
    let until_ms = p.to_ms as i64 + p.upper_ms.max(0) + 2_000;
    let span = (until_ms - p.from_ms as i64).max(1) as f64;
    let x = move |t_ms: i64| {
        let t = (t_ms - p.from_ms as i64) as f64;
        LEFT + bounded(t / span, 0.0, 1.0) * (WIDTH - LEFT - RIGHT)
    };
    let y = |side: Side| {
        if side == Side::Left {
            SEARCH_Y
        } else {
            CLICK_Y
        }
    };
    let links = p
        .marks
        .iter()
        .filter(|m| m.side == Side::Left && m.fate == Fate::Matched);
    let ticks = (p.from_ms / 10_000 + 1..=until_ms as u64 / 10_000).map(|s| s * 10_000);
    html! {
        <div class="j-streams">
            <svg class="diagram j-diagram" viewBox={format!("0 0 {WIDTH} {HEIGHT}")} role="img"
                 aria-label="Searches and clicks in event time, with the join's state and its watermark">
                <text x="8" y={(SEARCH_Y + 4.0).to_string()} class="strong">{ "searches" }</text>
                <text x="8" y={(CLICK_Y + 4.0).to_string()} class="strong">{ "clicks" }</text>
                <line class="j-axis" x1={LEFT.to_string()} x2={(WIDTH - RIGHT).to_string()} y1={SEARCH_Y.to_string()} y2={SEARCH_Y.to_string()} />
                <line class="j-axis" x1={LEFT.to_string()} x2={(WIDTH - RIGHT).to_string()} y1={CLICK_Y.to_string()} y2={CLICK_Y.to_string()} />
                { for ticks.map(|t| html! {
                    <text class="small" x={x(t as i64).to_string()} y={(HEIGHT - 8.0).to_string()} text-anchor="middle">{ format!("{} s", t / 1000) }</text>
                }) }
                <text class="small" x={LEFT.to_string()} y="16">{ "event time →" }</text>
                { for links.map(|m| match m.partner_ms {
                    Some(click_ms) => html! {
                        <line class="j-link" x1={x(m.time_ms as i64).to_string()} y1={SEARCH_Y.to_string()}
                              x2={x(click_ms as i64).to_string()} y2={CLICK_Y.to_string()} />
                    },
                    None => html! {},
                }) }
                { for p.marks.iter().filter_map(|m| m.expires_ms.map(|until| {
                    // Staggered over four rows, so overlapping stays in the state stay apart.
                    let offset = 10.0 + f64::from(m.session % 4) * 4.0;
                    let y0 = y(m.side) + if m.side == Side::Left { -offset } else { offset };
                    html! {
                        <line class="j-held" x1={x(m.time_ms as i64).to_string()} x2={x(until).to_string()}
                              y1={y0.to_string()} y2={y0.to_string()} />
                    }
                })) }
                { for p.marks.iter().map(|m| mark(m, x(m.time_ms as i64), y(m.side))) }
                <line class="j-now" x1={x(p.to_ms as i64).to_string()} x2={x(p.to_ms as i64).to_string()} y1="28" y2={(HEIGHT - 22.0).to_string()} />
                <text class="small" x={(x(p.to_ms as i64) + 4.0).to_string()} y="24">{ "now" }</text>
                if let Some(w) = p.watermark_ms {
                    if w >= p.from_ms as i64 {
                        <line class="j-watermark" x1={x(w).to_string()} x2={x(w).to_string()} y1="28" y2={(HEIGHT - 22.0).to_string()} />
                        <text class="small" x={(x(w) + 4.0).to_string()} y="36">{ "watermark" }</text>
                    }
                }
            </svg>
            <p class="j-legend">
                { "○ held (the bar runs to when the watermark lets it go) · ● joined (linked to its partner) · \
                   × U unclicked search · × L lost click · ▲ late, dropped. " }
                { format!("between({} s, {} s)", p.lower_ms as f64 / 1000.0, p.upper_ms as f64 / 1000.0) }
            </p>
            { counters(figures, ROWS, &["lost_clicks", "clicked_searches_reported_unclicked"][..], None) }
        </div>
    }
}

/// One search or click, by its fate: a shape and a letter as well as a colour.
fn mark(m: &ClickMark, cx: f64, cy: f64) -> Html {
    let title = format!(
        "{} of session-{} at {:.1} s (arrived {:.1} s): {}",
        if m.side == Side::Left {
            "search"
        } else {
            "click"
        },
        m.session + 1,
        m.time_ms as f64 / 1000.0,
        m.arrival_ms as f64 / 1000.0,
        fate_words(m.side, m.fate)
    );
    let class = classes!("j-mark", fate_class(m.fate));
    let body = match m.fate {
        Fate::Expired => {
            let letter = if m.side == Side::Left { "U" } else { "L" };
            html! {
                <>
                    <path d={format!("M{} {} l10 10 M{} {} l-10 10", cx - 5.0, cy - 5.0, cx + 5.0, cy - 5.0)} />
                    <text class="small" x={cx.to_string()} y={(cy + 20.0).to_string()} text-anchor="middle">{ letter }</text>
                </>
            }
        }
        Fate::Late => html! {
            <path d={format!("M{} {} l6 10 l-12 0 z", cx, cy - 6.0)} />
        },
        _ => html! { <circle cx={cx.to_string()} cy={cy.to_string()} r="5" /> },
    };
    html! { <g class={class}><title>{ title }</title>{ body }</g> }
}
