//! Derivations the event-time lessons draw, as pure functions over plain data: where the
//! watermark stood when a record was read, whether the record was on time, late or too late,
//! the watermark's staircase, how long it stood still, how right and how quick the first
//! answers were, and a mobile record's three timestamps with the skew correction they allow.
//! They live in the core, not in the UI's components, so they are tested natively and the
//! components only lay their results out.

use super::records::Record;
use super::snapshot::WindowComparison;
use super::watermarks::WatermarkStep;
use crate::window::Watermark;

/// How a record stood when it was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lateness {
    /// Its window had not fired yet.
    OnTime,
    /// Its window had fired, but the allowed lateness had not run out: it re-fires it.
    Late,
    /// Past the allowed lateness too: dropped, or routed to the side output.
    TooLate,
}

/// The combined watermark just before processing time `at_ms`, from its recorded moves.
pub fn watermark_before(steps: &[WatermarkStep], at_ms: i64) -> Watermark {
    let moved = steps.partition_point(|step| step.at_ms < at_ms);
    moved
        .checked_sub(1)
        .map_or(Watermark::MinusInfinity, |i| steps[i].watermark)
}

/// Whether a record with event time `event_ms`, read when the watermark stood at `watermark`,
/// was on time, late or too late for its tumbling window of `size_ms` (the operator's rules:
/// a window fires when the watermark reaches its end and is gone at its end plus the allowed
/// lateness). Without tumbling windows (`None`) every record counts as on time.
pub fn lateness_of(
    event_ms: i64,
    watermark: Watermark,
    size_ms: Option<i64>,
    allowed_lateness_ms: i64,
) -> Lateness {
    let Some(size_ms) = size_ms else {
        return Lateness::OnTime;
    };
    let end_ms = event_ms.div_euclid(size_ms) * size_ms + size_ms;
    if watermark.has_reached(end_ms + allowed_lateness_ms) {
        Lateness::TooLate
    } else if watermark.has_reached(end_ms) {
        Lateness::Late
    } else {
        Lateness::OnTime
    }
}

/// The watermark's path as (event time, processing time) corners: at each move it steps right
/// at that processing time, then holds (a vertical run) until the next move; the last hold
/// reaches up to `now_ms`. Event times are clamped to `0..=x_end_ms`; plus infinity (the end
/// of input) runs to the right edge.
pub fn watermark_path(steps: &[WatermarkStep], now_ms: i64, x_end_ms: i64) -> Vec<(i64, i64)> {
    let mut path = Vec::with_capacity(steps.len() * 2 + 1);
    let mut current: Option<i64> = None;
    for step in steps {
        let x_ms = match step.watermark {
            Watermark::MinusInfinity => continue,
            Watermark::At(ms) => ms.clamp(0, x_end_ms),
            Watermark::PlusInfinity => x_end_ms,
        };
        if let Some(previous) = current {
            path.push((previous, step.at_ms));
        }
        path.push((x_ms, step.at_ms));
        current = Some(x_ms);
    }
    if let Some(last) = current {
        path.push((last, now_ms));
    }
    path
}

/// The longest stretch of processing time during which the watermark did not move. The jump
/// to plus infinity at the end of the input is the input running out, not the watermark
/// catching up, so a watermark still standing then stood still until `input_end_ms`; before
/// the end, the current stand counts up to `now_ms`.
pub fn longest_stall_ms(
    steps: &[WatermarkStep],
    input_ended: bool,
    input_end_ms: i64,
    now_ms: i64,
) -> i64 {
    let finite_moves: Vec<i64> = steps
        .iter()
        .filter(|step| step.watermark != Watermark::PlusInfinity)
        .map(|step| step.at_ms)
        .collect();
    let still_until_ms = if input_ended { input_end_ms } else { now_ms };
    let still_now_ms = finite_moves.last().map(|last| still_until_ms - last);
    finite_moves
        .windows(2)
        .map(|pair| pair[1] - pair[0])
        .chain(still_now_ms)
        .max()
        .unwrap_or(0)
}

/// How the first answers of the windows that have answered compare with the truth.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FirstAnswers {
    /// Windows (per key) whose first pane came out.
    pub answered: u64,
    /// Of those, how many first answers equalled the truth.
    pub right: u64,
    /// Mean processing time from a window's end to its first pane.
    pub mean_delay_ms: Option<i64>,
}

/// Accuracy against latency over the windows that have answered.
pub fn first_answers(rows: &[WindowComparison]) -> FirstAnswers {
    let answered: Vec<(&WindowComparison, u64, i64)> = rows
        .iter()
        .filter_map(|row| {
            Some((
                row,
                row.event_time_first?,
                row.event_time_first_emitted_at_ms?,
            ))
        })
        .collect();
    let total_delay_ms: i64 = answered
        .iter()
        .map(|(row, _, at_ms)| at_ms - row.window.end_ms)
        .sum();
    FirstAnswers {
        answered: answered.len() as u64,
        right: answered
            .iter()
            .filter(|(row, first, _)| *first == row.truth)
            .count() as u64,
        mean_delay_ms: (!answered.is_empty()).then(|| total_delay_ms / answered.len() as i64),
    }
}

/// A mobile record's three timestamps and what they let a pipeline work out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreeTimestamps {
    /// When it happened, by the device's clock.
    pub occurred_ms: i64,
    /// When the device sent it, by the device's clock.
    pub sent_ms: i64,
    /// When the server received it, by the server's clock.
    pub received_ms: i64,
    /// How long the device held it before sending (offline buffering): `sent - occurred`,
    /// exact because both readings come from the same clock.
    pub held_ms: i64,
    /// The skew-corrected event time on the server's clock: `occurred + (received - sent)`.
    pub corrected_ms: i64,
    /// What only the simulation knows: how far the device's clock is off (`occurred - true`)...
    pub device_clock_error_ms: i64,
    /// ...and how far the corrected time still is from the truth: the network delay, which no
    /// timestamp can measure.
    pub corrected_error_ms: i64,
}

/// The three timestamps of `record` and the correction (see [`Record::corrected_ms`]).
pub fn three_timestamps(record: &Record) -> ThreeTimestamps {
    let corrected_ms = record.corrected_ms();
    ThreeTimestamps {
        occurred_ms: record.occurred_ms,
        sent_ms: record.sent_ms,
        received_ms: record.received_ms,
        held_ms: record.sent_ms - record.occurred_ms,
        corrected_ms,
        device_clock_error_ms: record.occurred_ms - record.true_ms,
        corrected_error_ms: corrected_ms - record.true_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eventtime::WindowId;

    fn step(at_ms: i64, watermark_ms: i64) -> WatermarkStep {
        WatermarkStep {
            at_ms,
            watermark: Watermark::At(watermark_ms),
        }
    }

    #[test]
    fn the_watermark_before_an_instant_ignores_moves_at_that_instant() {
        let steps = [step(100, 5), step(200, 9)];
        assert_eq!(watermark_before(&steps, 100), Watermark::MinusInfinity);
        assert_eq!(watermark_before(&steps, 101), Watermark::At(5));
        assert_eq!(watermark_before(&steps, 200), Watermark::At(5));
        assert_eq!(watermark_before(&steps, 201), Watermark::At(9));
    }

    #[test]
    fn lateness_follows_the_window_end_and_the_allowed_lateness_boundaries() {
        let at = Watermark::At;
        // Window [10, 20): on time until the watermark reaches 20, late until 20 + 5.
        assert_eq!(lateness_of(15, at(19), Some(10), 5), Lateness::OnTime);
        assert_eq!(lateness_of(15, at(20), Some(10), 5), Lateness::Late);
        assert_eq!(lateness_of(15, at(24), Some(10), 5), Lateness::Late);
        assert_eq!(lateness_of(15, at(25), Some(10), 5), Lateness::TooLate);
        // A record exactly at an end belongs to the next window.
        assert_eq!(lateness_of(20, at(20), Some(10), 0), Lateness::OnTime);
        assert_eq!(
            lateness_of(15, Watermark::MinusInfinity, Some(10), 0),
            Lateness::OnTime
        );
        assert_eq!(lateness_of(15, at(1_000), None, 0), Lateness::OnTime);
    }

    #[test]
    fn the_watermark_path_is_a_staircase_up_to_now() {
        let steps = [
            WatermarkStep {
                at_ms: 50,
                watermark: Watermark::MinusInfinity,
            },
            step(100, -30),
            step(300, 40),
            WatermarkStep {
                at_ms: 500,
                watermark: Watermark::PlusInfinity,
            },
        ];
        assert_eq!(
            watermark_path(&steps, 600, 90),
            vec![
                (0, 100),
                (0, 300),
                (40, 300),
                (40, 500),
                (90, 500),
                (90, 600)
            ]
        );
        assert!(watermark_path(&[], 600, 90).is_empty());
    }

    #[test]
    fn a_stall_runs_to_now_or_to_the_end_of_input_but_not_through_the_final_jump() {
        let steps = [step(100, 1), step(150, 2), step(400, 3)];
        // Gaps of 50 and 250; standing since 400.
        assert_eq!(longest_stall_ms(&steps, false, 0, 500), 250);
        assert_eq!(longest_stall_ms(&steps, false, 0, 900), 500);
        let ended = [
            step(100, 1),
            WatermarkStep {
                at_ms: 1_000,
                watermark: Watermark::PlusInfinity,
            },
        ];
        assert_eq!(longest_stall_ms(&ended, true, 1_000, 1_000), 900);
        assert_eq!(longest_stall_ms(&[], false, 0, 500), 0);
    }

    fn row(end_ms: i64, truth: u64, first: Option<(u64, i64)>) -> WindowComparison {
        WindowComparison {
            window: WindowId {
                end_ms,
                start_ms: end_ms - 10,
                key: 0,
            },
            truth,
            event_time: first.map(|(count, _)| count),
            event_time_first: first.map(|(count, _)| count),
            event_time_first_emitted_at_ms: first.map(|(_, at_ms)| at_ms),
            event_time_panes: u32::from(first.is_some()),
            dropped: 0,
            processing_time: None,
            result: None,
            merged_away: false,
        }
    }

    #[test]
    fn first_answers_count_right_ones_and_average_the_wait() {
        let rows = [
            row(10, 3, Some((3, 14))),
            row(20, 5, Some((4, 30))),
            row(30, 2, None),
        ];
        assert_eq!(
            first_answers(&rows),
            FirstAnswers {
                answered: 2,
                right: 1,
                mean_delay_ms: Some(7),
            }
        );
        assert_eq!(first_answers(&[]), FirstAnswers::default());
    }

    #[test]
    fn the_correction_removes_the_skew_and_the_buffering_but_not_the_network_delay() {
        // A clock 20 s behind, 15 s offline, then 300 ms on the network.
        let record = Record {
            index: 0,
            key: 0,
            partition: 0,
            offset: 0,
            true_ms: 30_000,
            occurred_ms: 10_000,
            sent_ms: 25_000,
            received_ms: 45_300,
            processed_ms: 45_300,
        };
        let t = three_timestamps(&record);
        assert_eq!(t.held_ms, 15_000);
        assert_eq!(t.corrected_ms, 30_300);
        assert_eq!(t.device_clock_error_ms, -20_000);
        assert_eq!(t.corrected_error_ms, 300);
    }
}
