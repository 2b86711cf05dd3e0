//! What a recovery model's lane gets from the world at each tick: the input, the scenario,
//! the instant, where to tell events, and the trace every counted record is folded into.

use super::events::{EosEventKind, Model};
use super::records::Input;
use super::scenario::EosScenario;
use crate::replay::trace::TraceHasher;

pub struct Ctx<'a> {
    pub input: &'a Input,
    pub scenario: &'a EosScenario,
    pub now_ms: u64,
    pub told: &'a mut Vec<EosEventKind>,
    pub trace: &'a mut TraceHasher,
}

impl Ctx<'_> {
    pub fn tell(&mut self, kind: EosEventKind) {
        self.told.push(kind);
    }

    /// Folds one counted record into the trace: which model (and which instance) counted
    /// which record (and its key, so that two seeds whose records arrive at the same
    /// instants still differ) when.
    pub fn fold_count(&mut self, model: Model, epoch: u32, seq: u32) {
        self.trace.write_u64(model as u64);
        self.trace.write_u64(u64::from(epoch));
        self.trace.write_u64(u64::from(seq));
        self.trace
            .write_u64(u64::from(self.input.records[seq as usize].key));
        self.trace.write_u64(self.now_ms);
    }
}
