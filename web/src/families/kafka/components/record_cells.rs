//! The partition logs' record cells, and the details of the record under the pointer.
//!
//! The cells are drawn as one path per key colour for the whole diagram, not one rectangle
//! each: at 36 partitions that is 9 elements instead of 864, and a knob change or a step
//! rewrites 9 attributes instead of some 650 fills and as many tooltips (a quarter of what
//! the browser did to show a new picture). A record has no element of its own to carry a
//! tooltip, so the diagram finds it from the pointer's position ([`Layout::cell_at`]) and
//! draws its details itself while the clock is paused ([`super::pointer_tip`]).

use super::diagram_layout::Layout;
use crate::platform::palette::{key_colour_index, record_colour, RECORD_COLOURS};
use crate::platform::svg::push_rect_outline;
use streamlab_sim::kafka::snapshot::{RecordView, Snapshot};
use yew::prelude::*;

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

/// Partition `p`'s record at `offset`, if the snapshot still draws it.
pub fn drawn_record(snapshot: &Snapshot, p: usize, offset: u64) -> Option<&RecordView> {
    let tail = &snapshot.partitions.get(p)?.tail;
    let first = tail.first()?.offset;
    tail.get(usize::try_from(offset.checked_sub(first)?).ok()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::kafka::components::test_support::default_lesson_at;
    use crate::platform::palette::key_colour;
    use crate::platform::svg::svg_number;
    use streamlab_sim::kafka::snapshot::DRAWN_CELLS;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn every_drawn_record_is_one_cell_in_the_path_of_its_key_colour() {
        let snapshot = default_lesson_at(20_000);
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
    fn the_pointed_cell_names_the_record_drawn_there_until_it_leaves_the_picture() {
        let snapshot = default_lesson_at(20_000);
        let row = &snapshot.partitions[2];
        let record = row.tail[5];
        let found = drawn_record(&snapshot, 2, record.offset).expect("a drawn record");
        assert_eq!(*found, record);
        let details = record_details(2, found);
        assert!(
            details.starts_with(&format!("p2 offset {}: key-", record.offset)),
            "{details}"
        );
        let older = row.tail[0].offset - 1;
        assert!(drawn_record(&snapshot, 2, older).is_none(), "scrolled out");
        assert!(
            drawn_record(&snapshot, 2, row.log_end_offset).is_none(),
            "not yet written"
        );
        assert!(
            drawn_record(&snapshot, 99, 0).is_none(),
            "no such partition"
        );
    }
}
