//! Where the kafka diagram puts things: its fixed columns, the rows and lanes sized from the
//! snapshot's shape, and the way back from a point on the page to the record or the group's
//! lane drawn there (both are drawn as a few paths, so the pointer finds them by position
//! rather than by an element of their own).

use crate::platform::bounded::bounded;
use streamlab_sim::kafka::snapshot::Snapshot;

pub const WIDTH: f64 = 1000.0;
pub const TOP: f64 = 48.0;
pub const PRODUCER_X: f64 = 8.0;
pub const PRODUCER_W: f64 = 96.0;
pub const LOG_X: f64 = 150.0;
pub const LOG_W: f64 = 470.0;
pub const GROUPS_X: f64 = 700.0;
const GROUPS_W: f64 = 292.0;
/// Records drawn per partition row.
pub const CELLS: u64 = 24;

/// Where things go, computed once per frame from the snapshot's shape.
pub struct Layout {
    pub row_h: f64,
    pub cell_w: f64,
    pub cell_h: f64,
    pub lane_h: f64,
    pub height: f64,
    pub group_col_w: f64,
}

impl Layout {
    pub fn new(snapshot: &Snapshot) -> Self {
        let partitions = snapshot.partitions.len().max(1) as f64;
        let row_h = bounded(480.0 / partitions, 14.0, 56.0);
        let groups = snapshot.groups.len().max(1) as f64;
        let max_members = snapshot
            .groups
            .iter()
            .map(|g| g.members.len())
            .max()
            .unwrap_or(0) as f64;
        let rows_h = partitions * row_h;
        let members_h = max_members * 20.0;
        let cell_h = (row_h * 0.55).min(26.0);
        Self {
            row_h,
            cell_w: LOG_W / CELLS as f64,
            cell_h,
            lane_h: ((row_h - cell_h - 4.0) / groups).max(3.0),
            height: TOP + rows_h.max(members_h).max(160.0) + 12.0,
            group_col_w: GROUPS_W / groups,
        }
    }

    pub fn row_top(&self, p: usize) -> f64 {
        TOP + p as f64 * self.row_h
    }

    /// The top edge of partition `p`'s record cells.
    pub fn cell_top(&self, p: usize) -> f64 {
        self.row_top(p) + 2.0
    }

    pub fn row_mid(&self, p: usize) -> f64 {
        self.cell_top(p) + self.cell_h / 2.0
    }

    /// x of the boundary before `offset` in a row whose log ends at `end`, clamped to the row.
    pub fn offset_x(&self, offset: u64, end: u64) -> (f64, bool) {
        let back = end.saturating_sub(offset);
        if back > CELLS {
            (LOG_X, true)
        } else {
            (LOG_X + (CELLS - back) as f64 * self.cell_w, false)
        }
    }

    /// The partition and offset of the record cell at (`x`, `y`) in the diagram's coordinates,
    /// given each row's log end offset: the inverse of [`Layout::offset_x`] and
    /// [`Layout::cell_top`]. `None` off the cells, and for a slot the log has not filled yet.
    pub fn cell_at(&self, x: f64, y: f64, ends: &[u64]) -> Option<(usize, u64)> {
        if x < LOG_X || y < TOP {
            return None;
        }
        let p = ((y - TOP) / self.row_h) as usize;
        let end = *ends.get(p)?;
        let into_cell = y - self.cell_top(p);
        let slot = ((x - LOG_X) / self.cell_w) as u64;
        if !(0.0..=self.cell_h).contains(&into_cell) || slot >= CELLS {
            return None;
        }
        // The slot `CELLS - back` holds the record `back` before the end.
        let offset = (end + slot).checked_sub(CELLS)?;
        Some((p, offset))
    }

    /// Where group `g`'s lane under partition `p` starts: at the bottom of the row's cells or
    /// of the lane above. Its processed tick reaches up to here, and its tip points here.
    pub fn lane_start(&self, p: usize, g: usize) -> f64 {
        self.cell_top(p) + self.cell_h + g as f64 * self.lane_h
    }

    /// The top of group `g`'s markers under partition `p`, a little below the lane's start so
    /// that they do not touch the cells above.
    pub fn lane_top(&self, p: usize, g: usize) -> f64 {
        self.lane_start(p, g) + 2.0
    }

    /// The partition and group of the lane at (`x`, `y`), of `groups` groups: a lane spans the
    /// log's width and a little more (a marker at the log's end sticks out), from the bottom
    /// of its row's cells or of the lane above.
    pub fn lane_at(&self, x: f64, y: f64, groups: usize) -> Option<(usize, usize)> {
        if !(LOG_X - 6.0..=LOG_X + LOG_W + 6.0).contains(&x) || y < TOP {
            return None;
        }
        let p = ((y - TOP) / self.row_h) as usize;
        let into_lanes = y - self.lane_start(p, 0);
        let g = (into_lanes / self.lane_h) as usize;
        (into_lanes >= 0.0 && g < groups).then_some((p, g))
    }

    pub fn member_box(&self, group: usize, member: usize, members: usize) -> (f64, f64, f64, f64) {
        let x = GROUPS_X + group as f64 * self.group_col_w + 6.0;
        let avail = self.height - TOP - 12.0;
        let h = bounded(avail / members.max(1) as f64 - 4.0, 10.0, 40.0);
        let y = TOP + member as f64 * (h + 4.0);
        (x, y, self.group_col_w - 12.0, h)
    }
}

/// The diagram's coordinates of the page point (`client_x`, `client_y`), for a drawing
/// `WIDTH` × `height` shown in `bounds` with `preserveAspectRatio="xMidYMin meet"`: scaled to
/// fit, centred across, aligned to the top.
pub fn diagram_point(client_x: f64, client_y: f64, bounds: &PageBox, height: f64) -> (f64, f64) {
    let scale = (bounds.width / WIDTH).min(bounds.height / height);
    if scale <= 0.0 {
        return (f64::NAN, f64::NAN);
    }
    let left = bounds.left + (bounds.width - WIDTH * scale) / 2.0;
    ((client_x - left) / scale, (client_y - bounds.top) / scale)
}

/// Where an element is on the page, in CSS pixels.
pub struct PageBox {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn layout(partitions: usize) -> Layout {
        let row_h = bounded(480.0 / partitions as f64, 14.0, 56.0);
        let cell_h = (row_h * 0.55).min(26.0);
        Layout {
            row_h,
            cell_w: LOG_W / CELLS as f64,
            cell_h,
            lane_h: 4.0,
            height: TOP + partitions as f64 * row_h + 12.0,
            group_col_w: 100.0,
        }
    }

    /// The middle of the cell the diagram draws for `offset` in row `p`.
    fn middle_of(layout: &Layout, p: usize, offset: u64, end: u64) -> (f64, f64) {
        let (x, clamped) = layout.offset_x(offset, end);
        assert!(
            !clamped,
            "offset {offset} is drawn in a row ending at {end}"
        );
        (
            x + layout.cell_w / 2.0,
            layout.cell_top(p) + layout.cell_h / 2.0,
        )
    }

    #[wasm_bindgen_test]
    fn every_drawn_cell_is_found_again_from_its_middle_and_near_its_corners() {
        let layout = layout(6);
        let ends: [u64; 6] = [100, 30, 24, 7, 0, 5_000];
        for (p, &end) in ends.iter().enumerate() {
            for offset in end.saturating_sub(CELLS)..end {
                let (x, y) = middle_of(&layout, p, offset, end);
                assert_eq!(layout.cell_at(x, y, &ends), Some((p, offset)));
                // Just inside the corners: a boundary itself may fall on either side of it.
                let edge = layout.cell_w - 1.0;
                let (left, top) = (x - layout.cell_w / 2.0 + 0.01, layout.cell_top(p));
                assert_eq!(layout.cell_at(left, top, &ends), Some((p, offset)));
                let bottom = top + layout.cell_h;
                let right = left + edge;
                assert_eq!(layout.cell_at(right, bottom, &ends), Some((p, offset)));
            }
        }
    }

    #[wasm_bindgen_test]
    fn no_record_is_found_off_the_cells_or_where_the_log_has_not_reached() {
        let layout = layout(6);
        let ends = [100, 7];
        let (x, y) = middle_of(&layout, 0, 99, 100);
        assert_eq!(
            layout.cell_at(LOG_X - 1.0, y, &ends),
            None,
            "left of the log"
        );
        assert_eq!(
            layout.cell_at(LOG_X + LOG_W + 1.0, y, &ends),
            None,
            "right of the newest record"
        );
        assert_eq!(layout.cell_at(x, TOP - 1.0, &ends), None, "above the rows");
        let under_cells = layout.cell_top(0) + layout.cell_h + 1.0;
        assert_eq!(
            layout.cell_at(x, under_cells, &ends),
            None,
            "in the group lanes"
        );
        assert_eq!(
            layout.cell_at(x, layout.cell_top(2) + 1.0, &ends),
            None,
            "below the last row"
        );
        // Row 1 holds offsets 0..7 in its last seven slots; the first slot is empty.
        assert_eq!(
            layout.cell_at(LOG_X + 1.0, layout.row_mid(1), &ends),
            None,
            "an empty slot"
        );
    }

    #[wasm_bindgen_test]
    fn every_lane_is_found_from_its_markers_and_nowhere_else() {
        let layout = layout(6);
        let groups = 3;
        for p in 0..6 {
            for g in 0..groups {
                let top = layout.lane_top(p, g);
                // A marker's tip, its base, and the log's ends.
                for (x, y) in [
                    (LOG_X + 200.0, top),
                    (LOG_X + 200.0, top + layout.lane_h - 2.5),
                    (LOG_X - 5.0, top),
                    (LOG_X + LOG_W + 5.0, top),
                ] {
                    assert_eq!(layout.lane_at(x, y, groups), Some((p, g)), "({x}, {y})");
                }
            }
            let cells_y = layout.row_mid(p);
            assert_eq!(
                layout.lane_at(LOG_X + 10.0, cells_y, groups),
                None,
                "on the cells"
            );
            let under = layout.lane_top(p, groups) - 1.0;
            assert_eq!(
                layout.lane_at(LOG_X + 10.0, under, groups),
                None,
                "under the lanes"
            );
        }
        let y = layout.lane_top(0, 0);
        assert_eq!(
            layout.lane_at(LOG_X - 7.0, y, groups),
            None,
            "left of the log"
        );
        assert_eq!(
            layout.lane_at(LOG_X + LOG_W + 7.0, y, groups),
            None,
            "right of it"
        );
        assert_eq!(
            layout.lane_at(LOG_X, TOP - 1.0, groups),
            None,
            "above the rows"
        );
    }

    fn page_box(left: f64, top: f64, width: f64, height: f64) -> PageBox {
        PageBox {
            left,
            top,
            width,
            height,
        }
    }

    #[wasm_bindgen_test]
    fn a_page_point_maps_into_the_drawing_scaled_to_fit_and_centred() {
        let height = 500.0;
        // Twice as wide as needed at half scale: the drawing is centred, 250 px in.
        let wide = page_box(10.0, 20.0, 1_000.0, 250.0);
        assert_eq!(diagram_point(260.0, 20.0, &wide, height), (0.0, 0.0));
        assert_eq!(diagram_point(760.0, 270.0, &wide, height), (WIDTH, height));
        // Too tall: the drawing fills the width and sits at the top.
        let tall = page_box(0.0, 0.0, 500.0, 2_000.0);
        assert_eq!(diagram_point(250.0, 100.0, &tall, height), (500.0, 200.0));
        let collapsed = page_box(0.0, 0.0, 0.0, 0.0);
        assert!(diagram_point(1.0, 1.0, &collapsed, height).0.is_nan());
    }
}
