//! What the delivery log draws, as plain data and SVG outlines: the state of each record a
//! group's sink sees, whether a crash now would lose or re-read it, and the few elements that
//! draw them all.
//!
//! The log is drawn as one path per state and one text per glyph, not one group of rectangle,
//! glyph and tooltip per record: with a knob at 27 partitions that is some 20 elements instead
//! of 2,600, and the browser's style, layout and paint of those elements was most of what a
//! knob change cost in this lesson. A record has no element of its own, so the log finds the
//! record under the pointer from its position ([`cell_at`]) and says what it is in a caption.

use crate::platform::svg::{push_rect_outline, svg_number};
use std::fmt::Write as _;
use streamlab_sim::kafka::snapshot::{GroupView, PartitionView, SinkCells};

pub const CELL_PX: f64 = 22.0;
pub const ROW_PX: f64 = 30.0;
pub const LABEL_PX: f64 = 34.0;
/// Where a row's cells start below the row's top, and how tall they are.
const CELL_TOP_PX: f64 = 4.0;
const CELL_H_PX: f64 = 18.0;

/// What one record is, for this group.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CellState {
    Deleted,
    Waiting,
    Once,
    /// Written more than once, but the store ignored the repeats: still one effect.
    RepeatIgnored,
    Repeated,
    Lost,
    DeadLettered,
}

/// Every state, in the order their paths are drawn.
pub const CELL_STATES: [CellState; 7] = [
    CellState::Deleted,
    CellState::Waiting,
    CellState::Once,
    CellState::RepeatIgnored,
    CellState::Repeated,
    CellState::Lost,
    CellState::DeadLettered,
];

impl CellState {
    pub fn class(self) -> &'static str {
        match self {
            CellState::Deleted => "cell-deleted",
            CellState::Waiting => "cell-waiting",
            CellState::Once => "cell-once",
            CellState::RepeatIgnored => "cell-ignored",
            CellState::Repeated => "cell-repeated",
            CellState::Lost => "cell-lost",
            CellState::DeadLettered => "cell-dead",
        }
    }

    /// What the caption says of a record in this state.
    fn words(self) -> &'static str {
        match self {
            CellState::Deleted => "deleted by retention",
            CellState::Waiting => "waiting",
            CellState::Once => "written once",
            CellState::RepeatIgnored => "written again, the repeat ignored: one effect",
            CellState::Repeated => "written again: more than one effect",
            CellState::Lost => "lost: never written",
            CellState::DeadLettered => "dead-lettered",
        }
    }

    /// A mark that carries the meaning without colour.
    pub fn glyph(self) -> &'static str {
        match self {
            CellState::Once => "✓",
            CellState::RepeatIgnored => "=",
            CellState::Repeated => "×2",
            CellState::Lost => "✕",
            CellState::DeadLettered => "D",
            _ => "",
        }
    }

    /// Its place in [`CELL_STATES`], which lists the states in the order they are declared.
    fn index(self) -> usize {
        self as usize
    }
}

/// What happens to a record between the committed offset and the processed mark if the
/// partition's owner dies now.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Risk {
    /// The commit ran ahead of processing: the next owner starts past it.
    LostIfItDies,
    /// The commit lags processing: the next owner reads it again.
    RereadIfItDies,
}

impl Risk {
    pub const ALL: [Risk; 2] = [Risk::LostIfItDies, Risk::RereadIfItDies];

    pub fn class(self) -> &'static str {
        match self {
            Risk::LostIfItDies => "cell-risk-lost",
            Risk::RereadIfItDies => "cell-risk-reread",
        }
    }

    fn words(self) -> &'static str {
        match self {
            Risk::LostIfItDies => "lost if its owner dies now",
            Risk::RereadIfItDies => "re-read if its owner dies now",
        }
    }
}

/// One record as the log draws it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DrawnCell {
    pub offset: u64,
    pub state: CellState,
    pub risk: Option<Risk>,
}

/// The state of offset `offset` for a group that began reading at `first` and has moved
/// past everything below `moved_past`.
pub fn cell_state(
    cells: &SinkCells,
    offset: u64,
    log_start: u64,
    (first, moved_past): (u64, u64),
) -> CellState {
    let i = (offset - cells.from) as usize;
    if cells.dead_lettered[i] {
        CellState::DeadLettered
    } else if cells.effects[i] >= 2 {
        CellState::Repeated
    } else if cells.effects[i] == 1 && cells.writes[i] >= 2 {
        CellState::RepeatIgnored
    } else if cells.effects[i] == 1 {
        CellState::Once
    } else if offset >= first && offset < moved_past {
        // Never written and the group has moved on: skipped by a commit, deleted unread by
        // retention, or jumped over by a reset.
        CellState::Lost
    } else if offset < log_start {
        CellState::Deleted
    } else {
        CellState::Waiting
    }
}

/// Partition `p`'s drawn records for `group`, oldest first.
pub fn row_cells(group: &GroupView, log: &PartitionView, p: usize) -> Vec<DrawnCell> {
    let cells = &group.cells[p];
    let progress = &group.partitions[p];
    // The core says where the group has moved on, and what a live owner still holds.
    let in_hand = if progress.held {
        progress.processed..progress.position
    } else {
        0..0
    };
    let (low, high) = (
        progress.committed.min(progress.processed),
        progress.committed.max(progress.processed),
    );
    let risk = if progress.committed > progress.processed {
        Risk::LostIfItDies
    } else {
        Risk::RereadIfItDies
    };
    let end = cells.from + cells.writes.len() as u64;
    (cells.from..end)
        .map(|offset| {
            let moved_past = if in_hand.contains(&offset) {
                0
            } else {
                progress.frontier
            };
            let reach = (progress.first_offset, moved_past);
            DrawnCell {
                offset,
                state: cell_state(cells, offset, log.log_start_offset, reach),
                risk: (low..high).contains(&offset).then_some(risk),
            }
        })
        .collect()
}

/// What the caption says of record `cell` in partition `p`.
pub fn cell_words(p: usize, cell: &DrawnCell) -> String {
    let risk = cell
        .risk
        .map_or(String::new(), |r| format!(" — {}", r.words()));
    format!("p{p} offset {}: {}{risk}", cell.offset, cell.state.words())
}

/// The left edge of column `column` and the top of row `row`'s cells.
pub fn cell_corner(row: usize, column: usize) -> (f64, f64) {
    (
        LABEL_PX + CELL_PX * column as f64 + 1.0,
        ROW_PX * row as f64 + CELL_TOP_PX,
    )
}

/// The cell's width and height.
pub fn cell_size() -> (f64, f64) {
    (CELL_PX - 2.0, CELL_H_PX)
}

/// The row and column under the log's point (`x`, `y`), for a log of `rows` rows of
/// `columns` cells: anywhere in a row's band over a cell's column counts as that cell.
pub fn cell_at(x: f64, y: f64, rows: usize, columns: usize) -> Option<(usize, usize)> {
    if x < LABEL_PX || y < 0.0 {
        return None;
    }
    let (row, column) = ((y / ROW_PX) as usize, ((x - LABEL_PX) / CELL_PX) as usize);
    (row < rows && column < columns).then_some((row, column))
}

/// One kind of glyph over every cell that carries it: the characters, and each character's
/// centre as SVG's per-character `x` and `y` lists.
#[derive(Default, Debug, PartialEq)]
pub struct Glyphs {
    pub text: String,
    pub xs: String,
    pub ys: String,
}

/// Everything the log draws for its records.
#[derive(Debug, PartialEq)]
pub struct LogOutlines {
    /// Per state (in [`CELL_STATES`] order), the path of its cells and how many there are.
    pub fills: [(String, usize); 7],
    /// Per risk (in [`Risk::ALL`] order), the outline of the cells it concerns.
    pub risks: [String; 2],
    /// Per state, its cells' glyphs.
    pub glyphs: [Glyphs; 7],
}

/// The outlines and glyphs of every row's cells.
pub fn log_outlines(rows: &[Vec<DrawnCell>]) -> LogOutlines {
    let mut drawing = LogOutlines {
        fills: Default::default(),
        risks: Default::default(),
        glyphs: Default::default(),
    };
    let (w, h) = cell_size();
    for (row, cells) in rows.iter().enumerate() {
        for (column, cell) in cells.iter().enumerate() {
            let (x, y) = cell_corner(row, column);
            let fill = &mut drawing.fills[cell.state.index()];
            push_rect_outline(&mut fill.0, x, y, w, h);
            fill.1 += 1;
            if let Some(risk) = cell.risk {
                push_rect_outline(&mut drawing.risks[risk as usize], x, y, w, h);
            }
            add_glyph(&mut drawing.glyphs[cell.state.index()], cell.state, x, y);
        }
    }
    drawing
}

/// Adds `state`'s glyph, centred on the cell whose corner is (`x`, `y`). Every character is
/// placed on its own, so a two-character glyph puts its halves either side of the centre.
fn add_glyph(glyphs: &mut Glyphs, state: CellState, x: f64, y: f64) {
    let glyph = state.glyph();
    let count = glyph.chars().count();
    let centre = x + (CELL_PX - 2.0) / 2.0;
    let baseline = svg_number(y + 13.0);
    // About half a character's width in the log's 10 px bold type.
    const HALF_CHAR_PX: f64 = 2.8;
    for (i, c) in glyph.chars().enumerate() {
        let offset = (2.0 * i as f64 - (count as f64 - 1.0)) * HALF_CHAR_PX;
        glyphs.text.push(c);
        let _ = write!(glyphs.xs, "{} ", svg_number(centre + offset));
        let _ = write!(glyphs.ys, "{baseline} ");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    fn cell(offset: u64, state: CellState, risk: Option<Risk>) -> DrawnCell {
        DrawnCell {
            offset,
            state,
            risk,
        }
    }

    /// Every risk the first group's log draws in `preset`'s run, sampled every 250 ms to 19 s.
    fn risks_drawn(preset: &str) -> Vec<Risk> {
        use streamlab_sim::kafka::{presets, snapshot::DRAWN_CELLS, World};
        let scenario = (presets::find(preset).expect("a delivery preset").build)();
        let mut world = World::new(&scenario).expect("the preset runs");
        let mut seen = Vec::new();
        for at_ms in (250..19_000).step_by(250) {
            world.advance_to(at_ms);
            let snapshot = world.snapshot(DRAWN_CELLS);
            let group = &snapshot.groups[0];
            for (p, log) in snapshot.partitions.iter().enumerate() {
                for cell in row_cells(group, log, p) {
                    if let Some(risk) = cell.risk.filter(|r| !seen.contains(r)) {
                        seen.push(risk);
                    }
                }
            }
        }
        seen
    }

    #[wasm_bindgen_test]
    fn a_commit_before_processing_risks_loss_and_a_commit_after_it_risks_a_reread() {
        assert_eq!(risks_drawn("commit-before-loss"), [Risk::LostIfItDies]);
        assert_eq!(
            risks_drawn("commit-after-duplicates"),
            [Risk::RereadIfItDies]
        );
    }

    #[wasm_bindgen_test]
    fn each_state_is_one_path_with_one_square_per_record() {
        let rows = vec![
            vec![
                cell(10, CellState::Once, None),
                cell(11, CellState::Lost, Some(Risk::LostIfItDies)),
                cell(12, CellState::Once, None),
            ],
            vec![cell(4, CellState::Waiting, Some(Risk::RereadIfItDies))],
        ];
        let drawing = log_outlines(&rows);
        let count = |s: CellState| drawing.fills[s.index()].1;
        assert_eq!(count(CellState::Once), 2);
        assert_eq!(count(CellState::Lost), 1);
        assert_eq!(count(CellState::Waiting), 1);
        assert_eq!(count(CellState::Repeated), 0);
        assert_eq!(drawing.fills[CellState::Repeated.index()].0, "");
        // The second cell of the first row, and the first of the second row.
        assert_eq!(drawing.fills[CellState::Lost.index()].0, "M57 4h20v18h-20z");
        assert_eq!(
            drawing.fills[CellState::Waiting.index()].0,
            "M35 34h20v18h-20z"
        );
        assert_eq!(drawing.risks[0], drawing.fills[CellState::Lost.index()].0);
        assert_eq!(
            drawing.risks[1],
            drawing.fills[CellState::Waiting.index()].0
        );
        assert_eq!(
            drawing.fills[CellState::Once.index()]
                .0
                .matches('M')
                .count(),
            2
        );
    }

    #[wasm_bindgen_test]
    fn glyphs_are_centred_on_their_cells_and_a_repeat_is_split_about_the_centre() {
        let rows = vec![vec![
            cell(0, CellState::Once, None),
            cell(1, CellState::Repeated, None),
            cell(2, CellState::Waiting, None),
        ]];
        let drawing = log_outlines(&rows);
        let once = &drawing.glyphs[CellState::Once.index()];
        assert_eq!(
            (once.text.as_str(), once.xs.as_str(), once.ys.as_str()),
            ("✓", "45 ", "17 ")
        );
        let repeated = &drawing.glyphs[CellState::Repeated.index()];
        assert_eq!(repeated.text, "×2");
        assert_eq!(repeated.xs, "64.2 69.8 ");
        assert_eq!(repeated.ys, "17 17 ");
        assert_eq!(
            drawing.glyphs[CellState::Waiting.index()],
            Glyphs::default()
        );
    }

    #[wasm_bindgen_test]
    fn the_point_names_the_cell_of_its_row_band_and_column() {
        assert_eq!(cell_at(35.0, 1.0, 3, 24), Some((0, 0)));
        assert_eq!(
            cell_at(LABEL_PX + CELL_PX * 5.5, ROW_PX * 2.9, 3, 24),
            Some((2, 5))
        );
        assert_eq!(cell_at(LABEL_PX - 1.0, 10.0, 3, 24), None, "the row label");
        assert_eq!(
            cell_at(LABEL_PX + CELL_PX * 24.0, 10.0, 3, 24),
            None,
            "past the last column"
        );
        assert_eq!(
            cell_at(40.0, ROW_PX * 3.0, 3, 24),
            None,
            "below the last row"
        );
        assert_eq!(cell_at(40.0, -1.0, 3, 24), None);
    }

    #[wasm_bindgen_test]
    fn the_caption_names_the_record_its_state_and_its_risk() {
        let lost = cell(42, CellState::Waiting, Some(Risk::LostIfItDies));
        assert_eq!(
            cell_words(3, &lost),
            "p3 offset 42: waiting — lost if its owner dies now"
        );
        let reread = cell(7, CellState::Once, Some(Risk::RereadIfItDies));
        assert_eq!(
            cell_words(0, &reread),
            "p0 offset 7: written once — re-read if its owner dies now"
        );
        assert_eq!(
            cell_words(1, &cell(8, CellState::DeadLettered, None)),
            "p1 offset 8: dead-lettered"
        );
    }
}
