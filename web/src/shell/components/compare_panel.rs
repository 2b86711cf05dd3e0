//! The comparison's controls and figures: which side the next change goes to, where the two
//! runs first differ, and every headline figure on both sides with the difference, the
//! figures that differ first.

use crate::shell::compare::{FigureRow, Side};
use streamlab_sim::eventtime::events::clock_time;
use streamlab_sim::family::knob::format_number;
use yew::prelude::*;

#[derive(PartialEq)]
pub struct ComparePanelProps {
    pub editing: Side,
    pub rows: Vec<FigureRow>,
    pub first_difference_ms: Option<u64>,
    pub on_side: Callback<Side>,
    pub on_close: Callback<()>,
}

pub fn compare_panel(props: &ComparePanelProps) -> Html {
    let side_button = |side: Side, label: &'static str| {
        let on_side = props.on_side.clone();
        let pressed = props.editing == side;
        html! {
            <button type="button" aria-pressed={pressed.to_string()}
                onclick={Callback::from(move |_: MouseEvent| on_side.emit(side))}>{ label }</button>
        }
    };
    let close = {
        let on_close = props.on_close.clone();
        Callback::from(move |_: MouseEvent| on_close.emit(()))
    };
    // The figures that differ first, each part in its own order: they are the point of the
    // comparison.
    let (mut rows, same): (Vec<&FigureRow>, Vec<&FigureRow>) =
        props.rows.iter().partition(|row| row.a != row.b);
    let differing = rows.len();
    rows.extend(same);
    html! {
        <section class="compare-panel" aria-label="Comparison">
            <p class="compare-controls">
                <span>{ "Knobs and actions change: " }</span>
                { side_button(Side::Both, "both sides") }
                { side_button(Side::A, "side A") }
                { side_button(Side::B, "side B") }
                <button type="button" class="close" onclick={close}>{ "Hide the comparison" }</button>
            </p>
            <p class="compare-verdict">
                { match props.first_difference_ms {
                    Some(at_ms) => format!(
                        "The runs first differ at {} ({differing} figures differ now).",
                        clock_time(at_ms as i64)
                    ),
                    None => "No difference in what the runs did so far.".to_string(),
                } }
            </p>
            <details class="compare-figures" open={differing > 0}>
                <summary>{ "Figures, A against B" }</summary>
                <table>
                    <thead><tr><th scope="col">{ "figure" }</th><th scope="col">{ "A" }</th>
                        <th scope="col">{ "B" }</th><th scope="col">{ "B − A" }</th></tr></thead>
                    <tbody>
                        { for rows.iter().map(|row| html! {
                            <tr class={classes!((row.a != row.b).then_some("differs"))} data-figure={row.name.clone()}>
                                <th scope="row"><code>{ &row.name }</code></th>
                                <td>{ format_number(row.a) }</td>
                                <td>{ format_number(row.b) }</td>
                                <td>{ signed(row.b - row.a) }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            </details>
        </section>
    }
}

/// `+3`, `−2`, `0`.
fn signed(delta: f64) -> String {
    if delta > 0.0 {
        format!("+{}", format_number(delta))
    } else if delta < 0.0 {
        format!("−{}", format_number(-delta))
    } else {
        "0".to_string()
    }
}
