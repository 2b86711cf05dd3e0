//! A table–table join kept up to date incrementally: a materialized view of
//! `left JOIN right ON left.fk = right.key`, where both tables arrive as changelogs (an
//! upsert or a delete per record, as a Kafka Streams `KTable` or a Flink upsert source reads
//! a compacted topic). It is Kafka Streams' foreign-key `KTable` join (KIP-213) and Flink
//! SQL's regular join on two changelog tables.
//!
//! Each change touches only the view rows it can change and says how, in Flink's changelog
//! row kinds: a new row is `+I`, a changed one is retracted (`-U`, the old row) and added
//! again (`+U`, the new), a vanished one is `-D`. A change to a left row touches its own view
//! row; a change to a right row touches every left row pointing at it: the join of the
//! change on one side with the whole of the other, (u·v)′ = u′·v + u·v′.
//!
//! [`JoinedView::batch_join`] recomputes the join from the two tables alone: the view must
//! equal it after every change (the lessons check it at every moment, the tests over seeds).

use crate::replay::sorted_map::{SortedMap, SortedSet};
use serde::Serialize;

/// A left row: the key of the right row it points at, and a value of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LeftRow {
    pub fk: u32,
    pub value: u32,
}

/// One record of either changelog: an upsert, or a delete (`None`, a tombstone).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "table", rename_all = "snake_case")]
pub enum TableChange {
    Left { key: u32, row: Option<LeftRow> },
    Right { key: u32, value: Option<u32> },
}

/// A row of the view, keyed by its left row's key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ViewRow {
    pub fk: u32,
    pub left_value: u32,
    pub right_value: u32,
}

/// Flink's changelog row kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RowKind {
    /// `+I`: a row appears.
    Insert,
    /// `-U`: the old content of a row that changes (a retraction).
    UpdateBefore,
    /// `+U`: its new content.
    UpdateAfter,
    /// `-D`: a row disappears (a retraction).
    Delete,
}

impl RowKind {
    /// `+I`, `-U`, `+U`, `-D`.
    pub fn symbol(self) -> &'static str {
        match self {
            RowKind::Insert => "+I",
            RowKind::UpdateBefore => "-U",
            RowKind::UpdateAfter => "+U",
            RowKind::Delete => "-D",
        }
    }

    /// Whether the record takes a row away.
    pub fn is_retraction(self) -> bool {
        matches!(self, RowKind::UpdateBefore | RowKind::Delete)
    }
}

/// One record of the view's changelog.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ViewChange {
    pub kind: RowKind,
    pub key: u32,
    pub row: ViewRow,
}

/// Both tables and the view of their join.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JoinedView {
    left: SortedMap<u32, LeftRow>,
    right: SortedMap<u32, u32>,
    /// (fk, left key) of every left row: which view rows a right row's change touches.
    by_fk: SortedSet<(u32, u32)>,
    view: SortedMap<u32, ViewRow>,
}

impl JoinedView {
    pub fn new() -> Self {
        Self::default()
    }

    /// Applies one changelog record to its table and appends the view's changes.
    pub fn apply(&mut self, change: TableChange, out: &mut Vec<ViewChange>) {
        match change {
            TableChange::Left { key, row } => {
                if let Some(old) = self.left.remove(&key) {
                    self.by_fk.remove(&(old.fk, key));
                }
                if let Some(row) = row {
                    self.left.insert(key, row);
                    self.by_fk.insert((row.fk, key));
                }
                let new = row.and_then(|row| self.joined(row));
                self.replace(key, new, out);
            }
            TableChange::Right { key, value } => {
                match value {
                    Some(value) => self.right.insert(key, value),
                    None => self.right.remove(&key),
                };
                let touched: Vec<u32> = self
                    .by_fk
                    .range((key, 0)..=(key, u32::MAX))
                    .map(|&(_, left_key)| left_key)
                    .collect();
                for left_key in touched {
                    let new = self.joined(self.left[&left_key]);
                    self.replace(left_key, new, out);
                }
            }
        }
    }

    /// The view row `row` makes with the current right table, if its right row exists.
    fn joined(&self, row: LeftRow) -> Option<ViewRow> {
        self.right.get(&row.fk).map(|&right_value| ViewRow {
            fk: row.fk,
            left_value: row.value,
            right_value,
        })
    }

    /// Sets view row `key` to `new`, appending the retraction and addition that takes.
    fn replace(&mut self, key: u32, new: Option<ViewRow>, out: &mut Vec<ViewChange>) {
        let old = match new {
            Some(row) => self.view.insert(key, row),
            None => self.view.remove(&key),
        };
        let change = |kind, row| ViewChange { kind, key, row };
        match (old, new) {
            (None, None) => {}
            (None, Some(row)) => out.push(change(RowKind::Insert, row)),
            (Some(row), None) => out.push(change(RowKind::Delete, row)),
            (Some(before), Some(after)) if before != after => {
                out.push(change(RowKind::UpdateBefore, before));
                out.push(change(RowKind::UpdateAfter, after));
            }
            (Some(_), Some(_)) => {}
        }
    }

    /// The join computed from scratch from the two tables, as a batch job would.
    pub fn batch_join(&self) -> SortedMap<u32, ViewRow> {
        let mut joined = SortedMap::new();
        for (&key, &row) in &self.left {
            if let Some(view_row) = self.joined(row) {
                joined.insert(key, view_row);
            }
        }
        joined
    }

    pub fn view(&self) -> &SortedMap<u32, ViewRow> {
        &self.view
    }

    pub fn left(&self) -> &SortedMap<u32, LeftRow> {
        &self.left
    }

    pub fn right(&self) -> &SortedMap<u32, u32> {
        &self.right
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(view: &mut JoinedView, change: TableChange) -> Vec<String> {
        let mut out = Vec::new();
        view.apply(change, &mut out);
        out.iter()
            .map(|c| {
                format!(
                    "{} {}:{}/{}/{}",
                    c.kind.symbol(),
                    c.key,
                    c.row.fk,
                    c.row.left_value,
                    c.row.right_value
                )
            })
            .collect()
    }

    fn order(key: u32, fk: u32, value: u32) -> TableChange {
        TableChange::Left {
            key,
            row: Some(LeftRow { fk, value }),
        }
    }

    fn customer(key: u32, value: Option<u32>) -> TableChange {
        TableChange::Right { key, value }
    }

    #[test]
    fn each_change_retracts_what_it_replaces() {
        let mut view = JoinedView::new();
        assert!(
            apply(&mut view, order(1, 7, 50)).is_empty(),
            "no customer 7 yet"
        );
        assert_eq!(apply(&mut view, customer(7, Some(2))), ["+I 1:7/50/2"]);
        assert_eq!(apply(&mut view, order(2, 7, 30)), ["+I 2:7/30/2"]);
        // One change on the right touches every left row pointing at it.
        assert_eq!(
            apply(&mut view, customer(7, Some(3))),
            ["-U 1:7/50/2", "+U 1:7/50/3", "-U 2:7/30/2", "+U 2:7/30/3"]
        );
        // An order moving to a customer that does not exist leaves the view.
        assert_eq!(apply(&mut view, order(1, 8, 50)), ["-D 1:7/50/3"]);
        assert_eq!(apply(&mut view, customer(7, None)), ["-D 2:7/30/3"]);
        assert_eq!(view.view(), &view.batch_join());
        assert!(view.view().is_empty());
        // An upsert with the same content changes nothing.
        apply(&mut view, customer(8, Some(1)));
        assert!(apply(&mut view, customer(8, Some(1))).is_empty());
    }
}
