//! One group's view of each partition's newest records, coloured by what the output store
//! holds for them: written once, written again, written again but ignored, lost, dead-lettered, deleted by retention or
//! still waiting. The committed offset (solid triangle) and the processed mark (a bar) are
//! drawn apart, and the records between them carry the crash's consequence: "lost if it dies
//! now" when the commit ran ahead of processing, "re-read if it dies now" when it lags.

use streamlab_sim::kafka::snapshot::{GroupView, PartitionView, SinkCells};
use yew::prelude::*;

const CELL_PX: f64 = 22.0;
const ROW_PX: f64 = 30.0;
const LABEL_PX: f64 = 34.0;

#[derive(Properties, PartialEq)]
pub struct DeliveryLogProps {
    pub group: GroupView,
    pub partitions: Vec<PartitionView>,
}

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

impl CellState {
    fn class(self) -> &'static str {
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

    /// What the cell's tooltip says.
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
    fn glyph(self) -> &'static str {
        match self {
            CellState::Once => "✓",
            CellState::RepeatIgnored => "=",
            CellState::Repeated => "×2",
            CellState::Lost => "✕",
            CellState::DeadLettered => "D",
            _ => "",
        }
    }
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

#[function_component(DeliveryLog)]
pub fn delivery_log(props: &DeliveryLogProps) -> Html {
    let group = &props.group;
    let cells_per_row = group.cells.first().map_or(0, |c| c.writes.len());
    let width = LABEL_PX + CELL_PX * cells_per_row as f64 + 8.0;
    let height = ROW_PX * group.cells.len() as f64 + 4.0;
    html! {
        <svg class="delivery-log" viewBox={format!("0 0 {width} {height}")} width={width.to_string()}
            role="img" aria-label={format!("{}'s partitions as its output store sees them", group.group_id)}>
            { for group.cells.iter().enumerate().map(|(p, cells)| row(group, &props.partitions[p], p, cells)) }
        </svg>
    }
}

fn row(group: &GroupView, log: &PartitionView, p: usize, cells: &SinkCells) -> Html {
    let progress = &group.partitions[p];
    // The core says where the group has moved on, and what a live owner still holds.
    let in_hand = if progress.held {
        progress.processed..progress.position
    } else {
        0..0
    };
    let y = ROW_PX * p as f64 + 2.0;
    let x_of = |offset: u64| LABEL_PX + CELL_PX * offset.saturating_sub(cells.from) as f64;
    let end = cells.from + cells.writes.len() as u64;
    let in_view = |offset: u64| offset >= cells.from && offset <= end;
    let (low, high) = (
        progress.committed.min(progress.processed),
        progress.committed.max(progress.processed),
    );
    let commit_ahead = progress.committed > progress.processed;
    let at_risk = if commit_ahead {
        "cell-risk-lost"
    } else {
        "cell-risk-reread"
    };
    html! {
        <g class="delivery-row">
            <text x="2" y={(y + 16.0).to_string()} class="row-label">{ format!("p{p}") }</text>
            { for (cells.from..end).map(|offset| {
                let moved_past = if in_hand.contains(&offset) { 0 } else { progress.frontier };
                let state = cell_state(cells, offset, log.log_start_offset, (progress.first_offset, moved_past));
                let x = x_of(offset);
                let risky = offset >= low && offset < high;
                let risk_words = match (risky, commit_ahead) {
                    (false, _) => "",
                    (true, true) => " — lost if its owner dies now",
                    (true, false) => " — re-read if its owner dies now",
                };
                html! {
                    <g class={classes!("cell", state.class(), risky.then_some(at_risk))}>
                        <title>{ format!("p{p} offset {offset}: {}{risk_words}", state.words()) }</title>
                        <rect x={(x + 1.0).to_string()} y={(y + 2.0).to_string()} width={(CELL_PX - 2.0).to_string()} height="18" rx="2" />
                        <text x={(x + CELL_PX / 2.0).to_string()} y={(y + 15.0).to_string()} text-anchor="middle">{ state.glyph() }</text>
                    </g>
                }
            }) }
            if in_view(progress.processed) {
                <line class="mark-processed" x1={x_of(progress.processed).to_string()} x2={x_of(progress.processed).to_string()}
                    y1={y.to_string()} y2={(y + 22.0).to_string()} />
            }
            if in_view(progress.committed) {
                <polygon class="mark-committed" points={{
                    let x = x_of(progress.committed);
                    format!("{},{} {},{} {},{}", x, y + 21.0, x - 5.0, y + 28.0, x + 5.0, y + 28.0)
                }} />
            }
        </g>
    }
}
