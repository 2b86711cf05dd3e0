//! Ground truth: what every window would count if all data were there, by the time each event
//! really happened. No real pipeline can know this; the simulation can, and the lessons measure
//! both clocks against it. It reuses the window operator itself, fed in true-time order so
//! nothing is ever late, which keeps the window shapes (sessions included) identical to what
//! the pipeline computes.

use super::records::Record;
use super::WindowId;
use crate::invariant::Surely;
use crate::replay::sorted_map::SortedMap;
use crate::window::{LatePolicy, Output, WindowConfig, WindowOperator, WindowSpec};

/// The final count of every window by true event time, keyed in window output order.
pub(crate) fn ground_truth(records: &[Record], window: WindowSpec) -> SortedMap<WindowId, u64> {
    let mut by_true_time: Vec<&Record> = records.iter().collect();
    crate::replay::sort::sort_by_key(&mut by_true_time, |record| (record.true_ms, record.index));
    let mut operator = in_order_operator(window);
    let mut out = Vec::new();
    for record in by_true_time {
        operator
            .push(&record.key, record.true_ms, &mut out)
            .surely("true times are within the operator's range");
    }
    operator.finish(&mut out);
    let mut truth = SortedMap::new();
    for output in out {
        if let Output::Pane(pane) = output {
            // In order, each window fires once; a later pane of a merged session would replace.
            truth.insert(WindowId::of(&pane), pane.count);
        }
    }
    truth
}

/// An operator for input that arrives in time order: no out-of-orderness, no lateness.
pub(crate) fn in_order_operator(window: WindowSpec) -> WindowOperator<u32> {
    WindowOperator::new(WindowConfig {
        window,
        max_out_of_orderness_ms: 0,
        allowed_lateness_ms: 0,
        late: LatePolicy::Drop,
    })
    .surely("the scenario's window spec was validated")
}
