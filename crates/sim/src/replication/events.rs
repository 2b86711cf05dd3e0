//! Typed events of the replication family and [`narrate`], the sentence for each.
//!
//! Events hold broker ids (from 1, as the picture shows them), partitions, offsets, counts
//! and typed causes, never prose: the trace hash folds their fields and every word a learner
//! reads is chosen here. Per-record work is not an event (a run appends tens of thousands of
//! records); what changes the story is: a broker failing or coming back, a fence, an
//! election and what it lost, the ISR shrinking or growing, a log cut back, a write refused,
//! a request that timed out, a retry written twice or recognised.

use serde::Serialize;

/// Something that happened at a simulated time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReplicationEvent {
    pub at_ms: u64,
    #[serde(flatten)]
    pub kind: EventKind,
}

/// Why a follower left the ISR.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ShrinkCause {
    /// It had not caught up with the leader's log end for longer than
    /// `replica.lag.time.max.ms`.
    Lagging,
    /// The controller fenced its broker.
    Fenced,
}

/// Why the producer gave records up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailCause {
    /// `delivery.timeout.ms` ran out.
    DeliveryTimeout,
    /// The batch failed more times than `retries` allows.
    RetriesExhausted,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    /// A broker's process died while leading this many partitions.
    BrokerCrashed {
        broker: u32,
        leading: u32,
    },
    BrokerRestarted {
        broker: u32,
    },
    /// A network partition cut a broker off from the other brokers and the controller.
    BrokerIsolated {
        broker: u32,
        leading: u32,
    },
    BrokerHealed {
        broker: u32,
    },
    FollowerSlowed {
        broker: u32,
        extra_ms: u64,
    },
    FollowerNormal {
        broker: u32,
    },
    /// The controller heard no heartbeat for `broker.session.timeout.ms` and fenced it.
    BrokerFenced {
        broker: u32,
        session_timeout_ms: u64,
        /// It registered again (a restart) before the session ran out.
        reregistered: bool,
    },
    /// A new leader; `newly_lost` acknowledged records are not in its log.
    LeaderElected {
        partition: u32,
        broker: u32,
        epoch: u32,
        unclean: bool,
        log_end: u64,
        newly_lost: u64,
    },
    /// No replica may lead: the partition accepts no writes and serves no reads.
    PartitionOffline {
        partition: u32,
        unclean_allowed: bool,
    },
    IsrShrunk {
        partition: u32,
        broker: u32,
        isr: u32,
        min_isr: u32,
        cause: ShrinkCause,
        /// For a lagging follower: how long since it was last caught up.
        lag_ms: u64,
    },
    IsrExpanded {
        partition: u32,
        broker: u32,
        isr: u32,
    },
    /// A cut-off leader tried to change the ISR; the controller could not hear it.
    IsrChangeRefused {
        partition: u32,
        broker: u32,
    },
    /// A returning replica cut its log back to where it agrees with the leader's.
    Truncated {
        partition: u32,
        broker: u32,
        from: u64,
        to: u64,
        /// Of the records cut, those the producer had been told were written and the log
        /// that counts lacks: acknowledged, then lost.
        acknowledged: u64,
    },
    /// With `acks=all`, a write the ISR was too small for (first of a run of them).
    NotEnoughReplicas {
        partition: u32,
        isr: u32,
        min_isr: u32,
        after_append: bool,
    },
    /// The producer heard nothing for `request.timeout.ms` and will try again.
    RequestTimedOut {
        partition: u32,
        records: u32,
        request_timeout_ms: u64,
    },
    /// A retried batch the log already held was written again.
    DuplicateWritten {
        partition: u32,
        offset: u64,
        records: u32,
    },
    /// The leader recognised a retried batch by its producer id and sequence number.
    DuplicateIgnored {
        partition: u32,
        records: u32,
    },
    /// A broker that no longer leads (cut off, it does not know) acknowledged writes.
    AckedByDeposedLeader {
        partition: u32,
        broker: u32,
        records: u32,
    },
    /// The producer's callback reported failure for these records (first of a run of them).
    DeliveryFailed {
        partition: u32,
        records: u32,
        cause: FailCause,
    },
    /// The consumer's position was past the new leader's log end: it starts again at the
    /// high watermark.
    ConsumerReset {
        partition: u32,
        from: u64,
        to: u64,
    },
}

fn seconds(ms: u64) -> String {
    if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
}

fn records(n: u64) -> String {
    if n == 1 {
        "1 record".to_string()
    } else {
        format!("{n} records")
    }
}

/// The sentence a learner reads for `event`.
pub fn narrate(event: &ReplicationEvent) -> String {
    use EventKind::*;
    match &event.kind {
        BrokerCrashed { broker, leading } => match leading {
            0 => format!("Broker {broker} crashes. It leads no partition; its followers stop fetching."),
            n => format!(
                "Broker {broker} crashes while leading {n} partition{}. Its log stays on disk. Until the \
                 controller notices, {} no working leader: writes wait.",
                if *n == 1 { "" } else { "s" },
                if *n == 1 { "that partition has" } else { "those partitions have" }
            ),
        },
        BrokerRestarted { broker } => format!("Broker {broker} starts again and rejoins as a follower."),
        BrokerIsolated { broker, leading } => format!(
            "A network partition cuts broker {broker} off from the other brokers and the controller{}. \
             Clients can still reach it.",
            if *leading > 0 { " while it leads" } else { "" }
        ),
        BrokerHealed { broker } => format!("The network partition around broker {broker} heals."),
        FollowerSlowed { broker, extra_ms } => format!(
            "Broker {broker} slows down: each of its fetches now takes {} longer.",
            seconds(*extra_ms)
        ),
        FollowerNormal { broker } => format!("Broker {broker} fetches at its normal pace again."),
        BrokerFenced { broker, session_timeout_ms, reregistered } => {
            let why = if *reregistered {
                format!("Broker {broker} registers again before the controller missed it; the controller fences the old process")
            } else {
                format!(
                    "The controller has heard nothing from broker {broker} for broker.session.timeout.ms ({}) and fences it",
                    seconds(*session_timeout_ms)
                )
            };
            format!("{why}: its leaderships move, and it leaves every ISR it is not alone in.")
        }
        LeaderElected { partition, broker, epoch, unclean, log_end, newly_lost } => {
            let how = if *unclean {
                "from outside the ISR (unclean.leader.election.enable=true)"
            } else {
                "from the ISR"
            };
            let lost = match newly_lost {
                0 => "Every acknowledged write is in its log.".to_string(),
                n => format!(
                    "{} the producer was told were written are not in its log: acknowledged, then lost.",
                    records(*n)
                ),
            };
            format!(
                "Broker {broker} becomes leader of p{partition} in leader epoch {epoch}, {how}; its log \
                 ends at offset {log_end}. {lost}"
            )
        }
        PartitionOffline { partition, unclean_allowed } => {
            if *unclean_allowed {
                format!("p{partition} has no live replica at all: it is offline until one comes back.")
            } else {
                format!(
                    "p{partition} has no live in-sync replica. With unclean.leader.election.enable=false \
                     it stays offline (no writes, no reads) rather than elect a replica that may lack \
                     acknowledged writes."
                )
            }
        }
        IsrShrunk { partition, broker, isr, min_isr, cause, lag_ms } => {
            let why = match cause {
                ShrinkCause::Lagging => format!(
                    "it has not caught up for {}, more than replica.lag.time.max.ms",
                    seconds(*lag_ms)
                ),
                ShrinkCause::Fenced => "its broker was fenced".to_string(),
            };
            let warning = if isr < min_isr {
                format!(" That is fewer than min.insync.replicas ({min_isr}): acks=all writes will be refused.")
            } else {
                String::new()
            };
            format!("Broker {broker} leaves p{partition}'s ISR ({isr} left): {why}.{warning}")
        }
        IsrExpanded { partition, broker, isr } => format!(
            "Broker {broker} has caught up with p{partition}'s high watermark and rejoins the ISR ({isr} in sync)."
        ),
        IsrChangeRefused { partition, broker } => format!(
            "Broker {broker} still believes it leads p{partition} and wants to shrink its ISR, but it cannot \
             reach the controller: the ISR stays, and acks=all writes wait."
        ),
        Truncated { partition, broker, from, to, acknowledged } => {
            let cut = from - to;
            let acked = match acknowledged {
                0 => String::new(),
                n => format!(
                    " {n} of them had been acknowledged to the producer, and no other copy is left."
                ),
            };
            format!(
                "Broker {broker} asks the leader where its last leader epoch ends and cuts its p{partition} \
                 log from {from} back to {to}: {} the new leader never had.{acked}",
                records(cut)
            )
        }
        NotEnoughReplicas { partition, isr, min_isr, after_append } => {
            if *after_append {
                format!(
                    "p{partition}: the records are in the log, but the ISR shrank to {isr}, below \
                     min.insync.replicas ({min_isr}): NotEnoughReplicasAfterAppendException. A retry may \
                     write them twice."
                )
            } else {
                format!(
                    "p{partition} refuses acks=all writes: {isr} in sync, min.insync.replicas is {min_isr} \
                     (NotEnoughReplicasException). Nothing is written; the producer retries."
                )
            }
        }
        RequestTimedOut { partition, records: n, request_timeout_ms } => format!(
            "No answer for {} on p{partition} within request.timeout.ms ({}): the producer sends them again.",
            records(u64::from(*n)),
            seconds(*request_timeout_ms)
        ),
        DuplicateWritten { partition, offset, records: n } => format!(
            "A retry writes {} to p{partition} again at offset {offset}: the first attempt had been written \
             after all. Without enable.idempotence the broker cannot tell.",
            records(u64::from(*n))
        ),
        DuplicateIgnored { partition, records: n } => format!(
            "p{partition}'s leader recognises a retried batch of {} by its producer id and sequence number \
             and answers with the offsets it already has.",
            records(u64::from(*n))
        ),
        AckedByDeposedLeader { partition, broker, records: n } => format!(
            "Broker {broker} no longer leads p{partition} but does not know it, and acknowledges {}: they \
             are already lost.",
            records(u64::from(*n))
        ),
        DeliveryFailed { partition, records: n, cause } => {
            let why = match cause {
                FailCause::DeliveryTimeout => "delivery.timeout.ms ran out",
                FailCause::RetriesExhausted => "no retries left",
            };
            format!(
                "The producer gives up on {} for p{partition} ({why}): the application's callback gets an error.",
                records(u64::from(*n))
            )
        }
        ConsumerReset { partition, from, to } => format!(
            "The consumer's position on p{partition} ({from}) is past the new leader's log end: it starts \
             again at the high watermark, {to}. Records it read beyond that are gone."
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(kind: EventKind) -> String {
        narrate(&ReplicationEvent { at_ms: 1_000, kind })
    }

    #[test]
    fn an_election_says_what_it_lost_and_how() {
        let clean = said(EventKind::LeaderElected {
            partition: 0,
            broker: 2,
            epoch: 3,
            unclean: false,
            log_end: 120,
            newly_lost: 0,
        });
        assert!(clean.contains("Broker 2 becomes leader of p0 in leader epoch 3, from the ISR"));
        assert!(clean.contains("Every acknowledged write is in its log"));
        let unclean = said(EventKind::LeaderElected {
            partition: 1,
            broker: 3,
            epoch: 4,
            unclean: true,
            log_end: 80,
            newly_lost: 41,
        });
        assert!(unclean.contains("unclean.leader.election.enable=true"));
        assert!(unclean.contains("41 records the producer was told were written"));
    }

    #[test]
    fn refusals_name_the_exception() {
        let before = said(EventKind::NotEnoughReplicas {
            partition: 0,
            isr: 1,
            min_isr: 2,
            after_append: false,
        });
        assert!(before.contains("NotEnoughReplicasException"), "{before}");
        let after = said(EventKind::NotEnoughReplicas {
            partition: 0,
            isr: 1,
            min_isr: 2,
            after_append: true,
        });
        assert!(
            after.contains("NotEnoughReplicasAfterAppendException"),
            "{after}"
        );
    }

    #[test]
    fn a_shrink_below_min_isr_warns() {
        let text = said(EventKind::IsrShrunk {
            partition: 1,
            broker: 3,
            isr: 1,
            min_isr: 2,
            cause: ShrinkCause::Lagging,
            lag_ms: 31_500,
        });
        assert!(
            text.contains("31.5 s, more than replica.lag.time.max.ms"),
            "{text}"
        );
        assert!(
            text.contains("fewer than min.insync.replicas (2)"),
            "{text}"
        );
    }

    #[test]
    fn truncation_counts_what_it_cut() {
        let text = said(EventKind::Truncated {
            partition: 0,
            broker: 1,
            from: 130,
            to: 118,
            acknowledged: 12,
        });
        assert!(text.contains("from 130 back to 118: 12 records"), "{text}");
        assert!(text.contains("12 of them had been acknowledged"), "{text}");
    }

    #[test]
    fn offline_explains_the_choice() {
        let text = said(EventKind::PartitionOffline {
            partition: 0,
            unclean_allowed: false,
        });
        assert!(text.contains("stays offline"), "{text}");
    }

    #[test]
    fn fingerprints_hold_fields_not_words() {
        let event = ReplicationEvent {
            at_ms: 5,
            kind: EventKind::BrokerCrashed {
                broker: 1,
                leading: 1,
            },
        };
        assert_eq!(
            serde_json::to_string(&event).unwrap(),
            r#"{"at_ms":5,"type":"broker_crashed","broker":1,"leading":1}"#
        );
    }
}
