//! The table–table lane: the orders table and the customers table, both fed by their
//! changelogs, joined into a view ([`JoinedView`]) kept up to date one change at a time, and
//! checked after every change against the batch join of the two tables as they then stand.
//! Beside it, a sink that only appends (it ignores `-U` and `-D`) shows what the
//! retractions are for: it keeps every row that was ever true.

use super::events::JoinsEventKind;
use super::inputs::TableRecord;
use super::view::{JoinedView, TableChange, ViewChange};
use serde::Serialize;
use std::collections::VecDeque;
use std::sync::Arc;

/// How many of the view's latest changelog records a snapshot shows.
pub const RECENT_CHANGES: usize = 14;

/// One sample of the lane, for its chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TablesSample {
    pub at_ms: u64,
    pub view_rows: u32,
    /// Rows an append-only sink would hold by now.
    pub append_only_rows: u32,
    pub retractions: u32,
}

/// The two tables, the view, and the checks.
#[derive(Clone, Debug)]
pub struct TablesLane {
    records: Arc<[TableRecord]>,
    next: usize,
    pub view: JoinedView,
    /// The view's latest changelog records, with when they happened, newest last.
    pub recent: VecDeque<(u64, ViewChange)>,
    pub applied: u32,
    pub additions: u32,
    pub retractions: u32,
    pub checks: u32,
    pub mismatches: u32,
    pub samples: Vec<TablesSample>,
}

impl TablesLane {
    pub fn new(records: Vec<TableRecord>) -> Self {
        Self {
            records: records.into(),
            next: 0,
            view: JoinedView::new(),
            recent: VecDeque::new(),
            applied: 0,
            additions: 0,
            retractions: 0,
            checks: 0,
            mismatches: 0,
            samples: Vec::new(),
        }
    }

    pub fn due_ms(&self) -> Option<u64> {
        self.records.get(self.next).map(|r| r.at_ms)
    }

    /// Applies every change due by `now`, checking the view after each.
    pub fn arrive(&mut self, now: u64, tell: &mut Vec<JoinsEventKind>, fold: &mut impl FnMut(u64)) {
        let mut out = Vec::new();
        while let Some(&record) = self.records.get(self.next) {
            if record.at_ms > now {
                break;
            }
            fold(self.next as u64);
            self.next += 1;
            self.applied += 1;
            self.view.apply(record.change, &mut out);
            let touched = out.iter().filter(|c| !c.kind.is_retraction()).count()
                + out
                    .iter()
                    .filter(|c| c.kind == super::view::RowKind::Delete)
                    .count();
            if let TableChange::Right { key, value } = record.change {
                // The customers' first rows at time 0 are the table's load, not a change.
                if record.at_ms > 0 && touched > 0 {
                    tell.push(JoinsEventKind::CustomerChanged {
                        customer: key,
                        tier: value.map(|v| v as u8),
                        rows_touched: touched as u32,
                    });
                }
            }
            for change in out.drain(..) {
                if change.kind.is_retraction() {
                    self.retractions += 1;
                } else {
                    self.additions += 1;
                }
                if self.recent.len() == RECENT_CHANGES {
                    self.recent.pop_front();
                }
                self.recent.push_back((record.at_ms, change));
            }
            self.check(tell);
        }
    }

    /// The view against the batch join of the tables as they stand now.
    fn check(&mut self, tell: &mut Vec<JoinsEventKind>) {
        self.checks += 1;
        let batch = self.view.batch_join();
        if &batch != self.view.view() {
            self.mismatches += 1;
            tell.push(JoinsEventKind::ViewMismatch {
                rows: self.view.view().len() as u32,
                batch_rows: batch.len() as u32,
            });
        }
    }

    /// Rows an append-only sink holds that the view no longer has: every row ever added
    /// stays there, so all but the current ones are stale.
    pub fn append_only_stale_rows(&self) -> u32 {
        self.additions - self.view.view().len() as u32
    }

    pub fn sample(&mut self, at_ms: u64) {
        self.samples.push(TablesSample {
            at_ms,
            view_rows: self.view.view().len() as u32,
            append_only_rows: self.additions,
            retractions: self.retractions,
        });
    }
}
