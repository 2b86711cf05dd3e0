//! The accounts behind the compaction comparison, written two ways at once.
//!
//! Each operation on an account is an event of the application's own language (an account
//! opened with a deposit, a deposit, a withdrawal, a closing): that is what an event-sourced
//! log stores, and the balance is the sum of an account's events. The same operation also
//! changes the account's row in a database, and change data capture turns that into a record
//! of the row as it now is (the new balance, or a tombstone when the account closes): that is
//! what the compacted topic stores, and each record replaces the one before it. The two logs
//! have the same keys and the same number of entries; only the CDC one can forget the past.

use super::draws::{poisson_arrivals, stream};
use super::scenario::DatabasesScenario;
use crate::replay::rng::SimRng;
use serde::Serialize;

/// An event of the event-sourced log: what the user did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AccountEvent {
    Opened { deposit: i64 },
    Deposited { amount: i64 },
    Withdrew { amount: i64 },
    Closed,
}

impl AccountEvent {
    /// What an account's balance would be if this were the only event kept of it (a log
    /// compacted by key): right only when it happens to be the whole story.
    pub fn balance_alone(self) -> Option<i64> {
        match self {
            AccountEvent::Opened { deposit } => Some(deposit),
            AccountEvent::Deposited { amount } => Some(amount),
            AccountEvent::Withdrew { amount } => Some(-amount),
            AccountEvent::Closed => None,
        }
    }
}

/// One operation: the event, and the row it leaves (`None` when the account is closed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Operation {
    pub at_ms: u64,
    pub key: u32,
    pub event: AccountEvent,
    pub balance_after: Option<i64>,
}

/// Every operation of the run: `writes.keys` accounts open at time 0, then operations at
/// random instants on a random open account; a closed account is replaced by a new one (with
/// the next unused key), so as many stay open.
pub fn operations(scenario: &DatabasesScenario) -> Vec<Operation> {
    let keys = scenario.writes.keys.max(1);
    let mut rng = SimRng::for_stream(scenario.seed, stream::ACCOUNTS);
    let mut balances: Vec<i64> = Vec::new();
    let mut open: Vec<u32> = Vec::new();
    let mut ops = Vec::new();
    fn open_account(
        at_ms: u64,
        rng: &mut SimRng,
        balances: &mut Vec<i64>,
        ops: &mut Vec<Operation>,
    ) -> u32 {
        let key = balances.len() as u32;
        let deposit = 10 + rng.below(91) as i64;
        balances.push(deposit);
        ops.push(Operation {
            at_ms,
            key,
            event: AccountEvent::Opened { deposit },
            balance_after: Some(deposit),
        });
        key
    }
    for _ in 0..keys {
        open.push(open_account(0, &mut rng, &mut balances, &mut ops));
    }
    for at_ms in poisson_arrivals(
        scenario.seed,
        scenario.writes.per_second,
        scenario.duration_ms,
    ) {
        let slot = rng.below(open.len() as u64) as usize;
        let key = open[slot];
        let balance = balances[key as usize];
        if rng.unit_f64() < scenario.accounts.close_rate {
            ops.push(Operation {
                at_ms,
                key,
                event: AccountEvent::Closed,
                balance_after: None,
            });
            open[slot] = open_account(at_ms, &mut rng, &mut balances, &mut ops);
            continue;
        }
        let amount = 1 + rng.below(100) as i64;
        let event = if balance == 0 || rng.below(2) == 0 {
            balances[key as usize] += amount;
            AccountEvent::Deposited { amount }
        } else {
            let amount = amount.min(balance);
            balances[key as usize] -= amount;
            AccountEvent::Withdrew { amount }
        };
        ops.push(Operation {
            at_ms,
            key,
            event,
            balance_after: Some(balances[key as usize]),
        });
    }
    ops
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn the_events_add_up_to_the_rows_and_as_many_accounts_stay_open() {
        let mut scenario = DatabasesScenario::default();
        scenario.writes.keys = 20;
        scenario.writes.per_second = 50;
        scenario.accounts.close_rate = 0.1;
        let ops = operations(&scenario);
        let mut folded: BTreeMap<u32, i64> = BTreeMap::new();
        for op in &ops {
            match op.event {
                AccountEvent::Closed => {
                    folded.remove(&op.key);
                }
                event => {
                    *folded.entry(op.key).or_default() += match event {
                        AccountEvent::Opened { deposit } => deposit,
                        AccountEvent::Deposited { amount } => amount,
                        AccountEvent::Withdrew { amount } => -amount,
                        AccountEvent::Closed => 0,
                    }
                }
            }
            assert_eq!(folded.get(&op.key).copied(), op.balance_after);
            assert!(op.balance_after.is_none_or(|b| b >= 0));
        }
        assert_eq!(folded.len(), 20);
        assert!(ops.iter().any(|op| op.event == AccountEvent::Closed));
        assert!(ops.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
    }
}
