//! What the pointer is over in the kafka diagram, and the details drawn for it while the
//! clock is paused: a record cell (its key and send time) or a group's lane under a partition
//! (its position, committed and processed offsets). Neither has an element of its own to carry
//! a tooltip, since both are drawn as a few paths for the whole diagram, so the pointer's
//! position finds them ([`Layout::cell_at`], [`Layout::lane_at`]).

use super::diagram_layout::{diagram_point, Layout, PageBox, LOG_W, LOG_X, WIDTH};
use super::lanes::lane_details;
use super::record_cells::{drawn_record, record_details};
use crate::platform::bounded::bounded;
use crate::platform::shared::Shared;
use crate::platform::svg::svg_number;
use streamlab_sim::kafka::snapshot::Snapshot;
use web_sys::Element;
use yew::prelude::*;

/// What the pointer is over (in the delivery log too, which points at records only: one type
/// for both, so they share one state hook's code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pointed {
    /// A record cell: its partition and offset.
    Record(usize, u64),
    /// A group's lane: the partition above it and the group's place in the snapshot.
    Lane(usize, usize),
}

/// What is drawn at (`x`, `y`) in the diagram's coordinates, if anything the diagram details.
pub fn pointed_at(snapshot: &Snapshot, layout: &Layout, x: f64, y: f64) -> Option<Pointed> {
    let ends: Vec<u64> = snapshot
        .partitions
        .iter()
        .map(|p| p.log_end_offset)
        .collect();
    if let Some((p, offset)) = layout.cell_at(x, y, &ends) {
        return Some(Pointed::Record(p, offset));
    }
    let (p, g) = layout.lane_at(x, y, snapshot.groups.len())?;
    (p < ends.len()).then_some(Pointed::Lane(p, g))
}

/// Follows the pointer over the diagram and sets `pointed` to what is under it. `svg` is the
/// diagram's element (Yew delegates events, so the event's own current target is not the
/// diagram).
pub fn follow_pointer(
    snapshot: &Shared<Snapshot>,
    svg: &NodeRef,
    pointed: &UseStateHandle<Option<Pointed>>,
) -> Callback<MouseEvent> {
    let (snapshot, svg, pointed) = (snapshot.clone(), svg.clone(), pointed.clone());
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
        pointed.set(pointed_at(&snapshot, &layout, x, y));
    })
}

/// Height of the details' box, in the diagram's units.
const TIP_H: f64 = 18.0;

/// What the tip says, and where: the box (`x`, `y`, width, height) it is about, and whether
/// it goes under that box first (a lane's, so its own partition's records stay in view) or
/// over it (a record's, so the pointer does not hide it).
struct Tip {
    text: String,
    target: [f64; 4],
    under_first: bool,
}

/// The tip for what is pointed at; `None` once the snapshot no longer draws it.
fn details(snapshot: &Snapshot, layout: &Layout, pointed: Pointed) -> Option<Tip> {
    match pointed {
        Pointed::Record(p, offset) => {
            let record = drawn_record(snapshot, p, offset)?;
            let (x, _) = layout.offset_x(offset, snapshot.partitions[p].log_end_offset);
            Some(Tip {
                text: record_details(p, record),
                target: [x, layout.cell_top(p), layout.cell_w, layout.cell_h],
                under_first: false,
            })
        }
        Pointed::Lane(p, g) => Some(Tip {
            text: lane_details(snapshot.groups.get(g)?, p)?,
            target: [LOG_X, layout.lane_start(p, g), LOG_W, layout.lane_h],
            under_first: true,
        }),
    }
}

/// The top of the details' box for a target from `top` to `bottom`, in a diagram `height`
/// high: on the side the tip prefers while it fits there, else on the other.
fn tip_top(top: f64, bottom: f64, under_first: bool, height: f64) -> f64 {
    let (over, under) = (top - TIP_H - 4.0, bottom + 4.0);
    let fits_over = over >= 2.0;
    let fits_under = under + TIP_H <= height - 2.0;
    if (under_first && fits_under) || !fits_over {
        under
    } else {
        over
    }
}

/// The pointed thing's details in a box beside it, and an outline around it.
pub fn pointer_tip(snapshot: &Snapshot, layout: &Layout, pointed: Option<Pointed>) -> Html {
    let Some(tip) = pointed.and_then(|p| details(snapshot, layout, p)) else {
        return html! {};
    };
    let [x, y, w, h] = tip.target;
    // About the width of the details in the diagram's 11 px font.
    let box_w = tip.text.chars().count() as f64 * 6.2 + 12.0;
    let box_x = bounded(x + w / 2.0 - box_w / 2.0, 4.0, WIDTH - box_w - 4.0);
    let box_y = tip_top(y, y + h, tip.under_first, layout.height);
    html! {
        <g class="pointer-tip" pointer-events="none">
            <rect class="pointer-tip-target" x={svg_number(x - 1.0)} y={svg_number(y - 1.0)}
                width={svg_number(w + 1.0)} height={svg_number(h + 2.0)} />
            <rect class="pointer-tip-box" x={svg_number(box_x)} y={svg_number(box_y)}
                width={svg_number(box_w)} height={svg_number(TIP_H)} rx="3" />
            <text x={svg_number(box_x + 6.0)} y={svg_number(box_y + 13.0)}>{ tip.text }</text>
        </g>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::kafka::components::test_support::default_lesson_at;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn the_pointer_finds_a_record_on_its_cell_and_a_lane_under_it() {
        let snapshot = default_lesson_at(20_000);
        let layout = Layout::new(&snapshot);
        let row = &snapshot.partitions[3];
        let newest = row.tail.last().expect("a record").offset;
        let (x, _) = layout.offset_x(newest, row.log_end_offset);
        let x = x + layout.cell_w / 2.0;
        assert_eq!(
            pointed_at(&snapshot, &layout, x, layout.row_mid(3)),
            Some(Pointed::Record(3, newest))
        );
        assert_eq!(
            pointed_at(&snapshot, &layout, x, layout.lane_top(3, 0)),
            Some(Pointed::Lane(3, 0))
        );
        let below_the_rows = layout.lane_top(snapshot.partitions.len(), 0);
        assert_eq!(pointed_at(&snapshot, &layout, x, below_the_rows), None);
        assert_eq!(
            pointed_at(&snapshot, &layout, 10.0, layout.row_mid(3)),
            None
        );
    }

    #[wasm_bindgen_test]
    fn a_pointed_lane_is_detailed_in_its_own_row() {
        let snapshot = default_lesson_at(20_000);
        let layout = Layout::new(&snapshot);
        let tip = details(&snapshot, &layout, Pointed::Lane(2, 0)).expect("a drawn lane");
        assert_eq!(Some(tip.text), lane_details(&snapshot.groups[0], 2));
        let [x, y, w, h] = tip.target;
        assert_eq!((x, w), (LOG_X, LOG_W));
        assert!(
            y > layout.cell_top(2) && y + h < layout.row_top(3),
            "{y} {h}"
        );
        assert!(tip.under_first);
        assert!(
            details(&snapshot, &layout, Pointed::Lane(2, 9)).is_none(),
            "no such group"
        );
        let record = snapshot.partitions[2].tail[4];
        let tip =
            details(&snapshot, &layout, Pointed::Record(2, record.offset)).expect("a drawn record");
        assert_eq!(tip.text, record_details(2, &record));
        assert!(!tip.under_first);
    }

    #[wasm_bindgen_test]
    fn a_tip_goes_on_its_preferred_side_while_it_fits_there() {
        let height = 400.0;
        // A lane's tip under it, a record's over it.
        assert_eq!(tip_top(100.0, 110.0, true, height), 114.0);
        assert_eq!(tip_top(100.0, 110.0, false, height), 78.0);
        // Near the bottom, a lane's tip goes over; near the top, a record's goes under.
        assert_eq!(tip_top(370.0, 380.0, true, height), 348.0);
        assert_eq!(tip_top(10.0, 20.0, false, height), 24.0);
        // Exactly at the edges it still fits.
        assert_eq!(tip_top(24.0, 30.0, false, height), 2.0);
        assert_eq!(tip_top(350.0, 376.0, true, height), 380.0);
    }
}
