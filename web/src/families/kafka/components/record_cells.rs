//! The partition logs' record cells, and the details of the record under the pointer.
//!
//! The cells are drawn as one path per key colour for the whole diagram, not one rectangle
//! each: at 36 partitions that is 9 elements instead of 864, and a knob change or a step
//! rewrites 9 attributes instead of some 650 fills and as many tooltips (a quarter of what
//! the browser did to show a new picture). A record has no element of its own to carry a
//! tooltip, so the diagram finds it from the pointer's position ([`Layout::cell_at`]) and
//! draws its details itself while the clock is paused.

use super::diagram_layout::{diagram_point, Layout, PageBox, WIDTH};
use crate::platform::bounded::bounded;
use crate::platform::palette::{key_colour_index, record_colour, RECORD_COLOURS};
use crate::platform::shared::Shared;
use crate::platform::svg::{push_rect_outline, svg_number};
use streamlab_sim::kafka::snapshot::{RecordView, Snapshot};
use web_sys::Element;
use yew::prelude::*;

/// The record cell under the pointer: partition and offset.
pub type HoveredCell = Option<(usize, u64)>;

/// Every partition's cells, one path per record colour (always all of them, empty or not, so
/// the list never changes length).
pub fn record_paths(snapshot: &Snapshot, layout: &Layout) -> Html {
    html! {
        <g class="records">
            { for cell_outlines(snapshot, layout).into_iter().enumerate().map(|(colour, d)| html! {
                <path class="cells" fill={record_colour(colour)} d={d} />
            }) }
        </g>
    }
}

/// The outline (an SVG path) of every cell of each record colour.
fn cell_outlines(snapshot: &Snapshot, layout: &Layout) -> [String; RECORD_COLOURS] {
    let mut outlines: [String; RECORD_COLOURS] = Default::default();
    let (width, height) = (layout.cell_w - 1.0, layout.cell_h);
    for (p, view) in snapshot.partitions.iter().enumerate() {
        let top = layout.cell_top(p);
        for record in &view.tail {
            let (x, _) = layout.offset_x(record.offset, view.log_end_offset);
            let outline = &mut outlines[key_colour_index(record.key)];
            push_rect_outline(outline, x, top, width, height);
        }
    }
    outlines
}

/// What a hovered record's details say.
pub fn record_details(p: usize, record: &RecordView) -> String {
    let key = record
        .key
        .map_or("null".to_string(), |k| format!("key-{k}"));
    format!(
        "p{p} offset {}: {key}, sent at {:.3} s",
        record.offset,
        record.send_ms as f64 / 1000.0
    )
}

/// The record at `hovered`, if the snapshot still draws it.
fn hovered_record(snapshot: &Snapshot, hovered: HoveredCell) -> Option<(usize, &RecordView)> {
    let (p, offset) = hovered?;
    let tail = &snapshot.partitions.get(p)?.tail;
    let first = tail.first()?.offset;
    let record = tail.get(usize::try_from(offset.checked_sub(first)?).ok()?)?;
    Some((p, record))
}

/// The hovered record's details in a box above its cell (below it, were there no room above),
/// and an outline around the cell.
pub fn record_tip(snapshot: &Snapshot, layout: &Layout, hovered: HoveredCell) -> Html {
    let Some((p, record)) = hovered_record(snapshot, hovered) else {
        return html! {};
    };
    let text = record_details(p, record);
    let end = snapshot.partitions[p].log_end_offset;
    let (cell_x, _) = layout.offset_x(record.offset, end);
    let cell_top = layout.cell_top(p);
    // About the width of the details in the diagram's 11 px font.
    let box_w = text.chars().count() as f64 * 6.2 + 12.0;
    let box_h = 18.0;
    let box_x = bounded(
        cell_x + layout.cell_w / 2.0 - box_w / 2.0,
        4.0,
        WIDTH - box_w - 4.0,
    );
    let above = cell_top - box_h - 4.0;
    let box_y = if above >= 2.0 {
        above
    } else {
        cell_top + layout.cell_h + 4.0
    };
    html! {
        <g class="record-tip" pointer-events="none">
            <rect class="record-tip-cell" x={svg_number(cell_x - 1.0)} y={svg_number(cell_top - 1.0)}
                width={svg_number(layout.cell_w + 1.0)} height={svg_number(layout.cell_h + 2.0)} />
            <rect class="record-tip-box" x={svg_number(box_x)} y={svg_number(box_y)}
                width={svg_number(box_w)} height={svg_number(box_h)} rx="3" />
            <text x={svg_number(box_x + 6.0)} y={svg_number(box_y + 13.0)}>{ text }</text>
        </g>
    }
}

/// Follows the pointer over the diagram and sets `hovered` to the record cell under it.
/// `svg` is the diagram's element (Yew delegates events, so the event's own current target is
/// not the diagram).
pub fn follow_pointer(
    snapshot: &Shared<Snapshot>,
    svg: &NodeRef,
    hovered: &UseStateHandle<HoveredCell>,
) -> Callback<MouseEvent> {
    let (snapshot, svg, hovered) = (snapshot.clone(), svg.clone(), hovered.clone());
    Callback::from(move |event: MouseEvent| {
        let Some(svg) = svg.cast::<Element>() else {
            return;
        };
        let rect = svg.get_bounding_client_rect();
        let bounds = PageBox {
            left: rect.left(),
            top: rect.top(),
            width: rect.width(),
            height: rect.height(),
        };
        let layout = Layout::new(&snapshot);
        let (x, y) = diagram_point(
            f64::from(event.client_x()),
            f64::from(event.client_y()),
            &bounds,
            layout.height,
        );
        let ends: Vec<u64> = snapshot
            .partitions
            .iter()
            .map(|p| p.log_end_offset)
            .collect();
        hovered.set(layout.cell_at(x, y, &ends));
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::palette::key_colour;
    use streamlab_sim::kafka::snapshot::DRAWN_CELLS;
    use streamlab_sim::kafka::{Scenario, World};
    use wasm_bindgen_test::wasm_bindgen_test;

    /// The default lesson's snapshot at `at_ms`.
    fn snapshot_at(at_ms: u64) -> Snapshot {
        let mut world = World::new(&Scenario::default()).expect("the default lesson runs");
        world.advance_to(at_ms);
        world.snapshot(DRAWN_CELLS)
    }

    #[wasm_bindgen_test]
    fn every_drawn_record_is_one_cell_in_the_path_of_its_key_colour() {
        let snapshot = snapshot_at(20_000);
        let layout = Layout::new(&snapshot);
        let outlines = cell_outlines(&snapshot, &layout);
        for (colour, outline) in outlines.iter().enumerate() {
            let records = snapshot
                .partitions
                .iter()
                .flat_map(|p| &p.tail)
                .filter(|r| key_colour(r.key) == record_colour(colour))
                .count();
            assert_eq!(outline.matches('M').count(), records, "colour {colour}");
        }
        let drawn: usize = snapshot.partitions.iter().map(|p| p.tail.len()).sum();
        assert!(
            drawn >= 6 * DRAWN_CELLS,
            "every row is full at 20 s: {drawn}"
        );
        // The newest record of the first row ends at the log's right edge.
        let newest = snapshot.partitions[0].tail.last().expect("a record");
        let (x, _) = layout.offset_x(newest.offset, snapshot.partitions[0].log_end_offset);
        let cell = format!("M{} {}h", svg_number(x), svg_number(layout.cell_top(0)));
        assert!(
            outlines[key_colour_index(newest.key)].contains(&cell),
            "{cell}"
        );
    }

    #[wasm_bindgen_test]
    fn the_hovered_cell_names_the_record_drawn_there_until_it_leaves_the_picture() {
        let snapshot = snapshot_at(20_000);
        let row = &snapshot.partitions[2];
        let record = row.tail[5];
        let (p, found) =
            hovered_record(&snapshot, Some((2, record.offset))).expect("a drawn record");
        assert_eq!((p, *found), (2, record));
        let details = record_details(p, found);
        assert!(
            details.starts_with(&format!("p2 offset {}: key-", record.offset)),
            "{details}"
        );
        let older = row.tail[0].offset - 1;
        assert!(
            hovered_record(&snapshot, Some((2, older))).is_none(),
            "scrolled out"
        );
        assert!(
            hovered_record(&snapshot, Some((2, row.log_end_offset))).is_none(),
            "not yet written"
        );
        assert!(
            hovered_record(&snapshot, Some((99, 0))).is_none(),
            "no such partition"
        );
        assert!(hovered_record(&snapshot, None).is_none());
    }
}
