//! One group's view of each partition's newest records, coloured by what the output store
//! holds for them: written once, written again, written again but ignored, lost, dead-lettered, deleted by retention or
//! still waiting. The committed offset (solid triangle) and the processed mark (a bar) are
//! drawn apart, and the records between them carry the crash's consequence: "lost if it dies
//! now" when the commit ran ahead of processing, "re-read if it dies now" when it lags.
//! The record under the pointer is outlined and named in the caption below the log.

use super::delivery_cells::{
    cell_at, cell_corner, cell_size, cell_words, log_outlines, row_cells, DrawnCell, Risk, CELL_PX,
    CELL_STATES, LABEL_PX, ROW_PX,
};
use super::pointer_tip::Pointed;
use crate::platform::markup::{put, written};
use crate::platform::shared::Shared;
use crate::platform::svg::svg_number;
use streamlab_sim::kafka::snapshot::{GroupView, Snapshot};
use web_sys::Element;
use yew::prelude::*;

/// What the caption says while no record is pointed at.
const CAPTION_HINT: &str = "Point at a record for its offset and what the sink holds for it.";

#[derive(Properties, PartialEq)]
pub struct DeliveryLogProps {
    pub snapshot: Shared<Snapshot>,
    /// The group whose log this is, by its place in the snapshot.
    pub index: usize,
}

/// The row and column of the record under the pointer, as a [`Pointed::Record`] (the
/// diagram's type, so the two share one state hook's code).
type Hovered = Option<Pointed>;

#[function_component(DeliveryLog)]
pub fn delivery_log(props: &DeliveryLogProps) -> Html {
    let group = &props.snapshot.groups[props.index];
    let rows: Vec<Vec<DrawnCell>> = (0..group.cells.len())
        .map(|p| row_cells(group, &props.snapshot.partitions[p], p))
        .collect();
    let columns = group.cells.first().map_or(0, |c| c.writes.len());
    let width = LABEL_PX + CELL_PX * columns as f64 + 8.0;
    let height = ROW_PX * rows.len() as f64 + 4.0;
    let hovered = use_state_eq(|| Hovered::None);
    let svg = use_node_ref();
    let follow = follow_pointer(&svg, &hovered, width, (rows.len(), columns));
    let leave = {
        let hovered = hovered.clone();
        Callback::from(move |_: MouseEvent| hovered.set(None))
    };
    let pointed = hovered.and_then(|pointed| {
        let Pointed::Record(row, column) = pointed else {
            return None;
        };
        let column = usize::try_from(column).ok()?;
        Some((row, column, *rows.get(row)?.get(column)?))
    });
    html! {
        <figure class="delivery-log-figure">
            <svg ref={svg} class="delivery-log" viewBox={format!("0 0 {width} {height}")} width={width.to_string()}
                role="img" aria-label={format!("{}'s partitions as its output store sees them", group.group_id)}
                onmousemove={follow} onmouseleave={leave}>
                { written(|out| cells(out, &rows)) }
                { written(|out| marks(out, group, columns)) }
                if let Some((row, column, _)) = pointed {
                    { outline(row, column) }
                }
            </svg>
            <figcaption class="delivery-log-caption">
                { pointed.map_or(CAPTION_HINT.to_string(), |(row, _, cell)| cell_words(row, &cell)) }
            </figcaption>
        </figure>
    }
}

/// Every record, as one path per state, one outline per risk and one text per glyph (all of
/// them, empty or not). Written as markup, as the marks are: the log redraws on every step of
/// a run, and a few long attributes are cheaper to write as text than to diff.
fn cells(out: &mut String, rows: &[Vec<DrawnCell>]) {
    let drawing = log_outlines(rows);
    out.push_str(r#"<g class="delivery-cells">"#);
    for (state, (d, count)) in CELL_STATES.iter().zip(drawing.fills) {
        let class = state.class();
        put(
            out,
            format_args!(r#"<path class="cells {class}" data-cells="{count}" d="{d}"/>"#),
        );
    }
    for (risk, d) in Risk::ALL.iter().zip(drawing.risks) {
        put(
            out,
            format_args!(r#"<path class="cells {}" d="{d}"/>"#, risk.class()),
        );
    }
    for (state, g) in CELL_STATES.iter().zip(drawing.glyphs) {
        let (class, xs, ys, text) = (state.class(), g.xs, g.ys, g.text);
        put(
            out,
            format_args!(
                r#"<text class="glyphs {class}" x="{xs}" y="{ys}" text-anchor="middle">{text}</text>"#
            ),
        );
    }
    out.push_str("</g>");
}

/// Each partition's label, and its processed marks and committed offsets as one path each, on
/// a log `columns` records wide (a mark or offset outside the drawn records is left out).
fn marks(out: &mut String, group: &GroupView, columns: usize) {
    let [mut processed, mut committed] = <[String; 2]>::default();
    out.push_str(r#"<g class="delivery-marks">"#);
    for (p, (progress, cells)) in group.partitions.iter().zip(&group.cells).enumerate() {
        let y = ROW_PX * p as f64 + 2.0;
        let (from, to) = (cells.from, cells.from + columns as u64);
        let x_of = |offset: u64| LABEL_PX + CELL_PX * offset.saturating_sub(from) as f64;
        put(
            out,
            format_args!(
                r#"<text x="2" y="{}" class="row-label">p{p}</text>"#,
                y + 16.0
            ),
        );
        if (from..=to).contains(&progress.processed) {
            let x = x_of(progress.processed);
            put(&mut processed, format_args!("M{x} {y}V{}", y + 22.0));
        }
        if (from..=to).contains(&progress.committed) {
            let x = x_of(progress.committed);
            let (apex, base, left) = (y + 21.0, y + 28.0, x - 5.0);
            put(
                &mut committed,
                format_args!("M{x} {apex}L{left} {base}h10z"),
            );
        }
    }
    put(
        out,
        format_args!(
            r#"<path class="mark-processed" d="{processed}"/><path class="mark-committed" d="{committed}"/></g>"#
        ),
    );
}

/// A frame around the record under the pointer.
fn outline(row: usize, column: usize) -> Html {
    let (x, y) = cell_corner(row, column);
    let (w, h) = cell_size();
    html! {
        <rect class="delivery-pointed" pointer-events="none" x={svg_number(x - 1.0)} y={svg_number(y - 1.0)}
            width={svg_number(w + 2.0)} height={svg_number(h + 2.0)} />
    }
}

/// Follows the pointer over the log (`width` units wide, `rows` × `columns` records) and sets
/// `hovered` to the record under it. `svg` is the log's element: Yew delegates events, so the
/// event's own current target is not the log.
fn follow_pointer(
    svg: &NodeRef,
    hovered: &UseStateHandle<Hovered>,
    width: f64,
    (rows, columns): (usize, usize),
) -> Callback<MouseEvent> {
    let (svg, hovered) = (svg.clone(), hovered.clone());
    Callback::from(move |event: MouseEvent| {
        let Some(svg) = svg.cast::<Element>() else {
            return;
        };
        let bounds = svg.get_bounding_client_rect();
        // The log keeps its aspect ratio when it narrows, so one scale serves both axes.
        let scale = bounds.width() / width;
        if scale <= 0.0 {
            return;
        }
        let x = (f64::from(event.client_x()) - bounds.left()) / scale;
        let y = (f64::from(event.client_y()) - bounds.top()) / scale;
        hovered.set(
            cell_at(x, y, rows, columns).map(|(row, column)| Pointed::Record(row, column as u64)),
        );
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::kafka::components::test_support::{path_d, snapshot_of};
    use streamlab_sim::kafka::presets;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn each_partition_has_its_label_and_its_marks_where_they_fall_on_the_log() {
        let scenario = (presets::find("commit-before-loss")
            .expect("a delivery preset")
            .build)();
        let snapshot = snapshot_of(&scenario, 9_000);
        let group = &snapshot.groups[0];
        let columns = group.cells[0].writes.len();
        let mut text = String::new();
        marks(&mut text, group, columns);
        let partitions = group.partitions.len();
        assert_eq!(text.matches(r#"class="row-label">p"#).count(), partitions);
        assert_eq!(text.matches("<path ").count(), 2, "{text}");
        let in_view = |offset: u64, from: u64| (from..=from + columns as u64).contains(&offset);
        let (mut processed, mut committed) = (0, 0);
        for (progress, cells) in group.partitions.iter().zip(&group.cells) {
            processed += usize::from(in_view(progress.processed, cells.from));
            committed += usize::from(in_view(progress.committed, cells.from));
        }
        assert!(processed > 0 && committed > 0, "{processed} {committed}");
        assert_eq!(
            path_d(&text, "mark-processed").matches('M').count(),
            processed
        );
        assert_eq!(
            path_d(&text, "mark-committed").matches('M').count(),
            committed
        );
        // A committed offset in view: a triangle pointing up at its boundary, in its row.
        let (p, (progress, cells)) = group
            .partitions
            .iter()
            .zip(&group.cells)
            .enumerate()
            .find(|(_, (progress, cells))| in_view(progress.committed, cells.from))
            .expect("a committed offset in view");
        let x = LABEL_PX + CELL_PX * (progress.committed - cells.from) as f64;
        let apex = format!("M{x} {}L{} ", ROW_PX * p as f64 + 2.0 + 21.0, x - 5.0);
        let d = path_d(&text, "mark-committed");
        assert!(d.contains(&apex), "{apex} in {d}");
    }
}
