//! The misconceptions learners bring to stream processing, each paired with a run that refutes
//! it: the belief in a sentence, what is true instead, the preset (`misconception-N`, in the
//! order the course lists them) and the one figure of that preset's run that proves the point.
//!
//! This table is the single source for the gallery's cards, the banner a lesson shows while
//! such a run is on screen, and the test that runs every preset headless and checks its
//! figure, so a card can never claim a number its run does not produce.

use crate::family::preset::same;
use crate::family::Figures;

/// What the proving figure must show for the belief to fall.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refutation {
    /// The figure is above zero: the thing the belief says cannot happen, happened.
    AboveZero,
}

impl Refutation {
    pub fn holds(self, value: f64) -> bool {
        match self {
            Refutation::AboveZero => value > 0.0,
        }
    }

    /// How a card states the condition after the figure's name.
    pub fn condition(self) -> &'static str {
        match self {
            Refutation::AboveZero => "> 0",
        }
    }
}

/// One belief and the run that refutes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Misconception {
    /// Its place in the course's list (1 to 10).
    pub number: u8,
    pub belief: &'static str,
    /// What holds instead, in a sentence or two.
    pub truth: &'static str,
    /// The preset whose run refutes it (`misconception-N`).
    pub preset: &'static str,
    /// The lesson that offers the preset.
    pub lesson: &'static str,
    /// The figure of the preset's run that proves the point, by the name the CLI prints (the
    /// end of its dotted path when one lane or group makes the point).
    pub figure: &'static str,
    pub refuted_when: Refutation,
}

pub static MISCONCEPTION_1: Misconception = Misconception {
    number: 1,
    belief: "Kafka delivers a topic's records in the order they were produced.",
    truth: "Order holds inside a partition only. Partitions are read side by side, so \
            records of different partitions are handled in any order; give records that \
            must stay in order the same key.",
    preset: "misconception-1",
    lesson: "partitions",
    figure: "out_of_produced_order",
    refuted_when: Refutation::AboveZero,
};

pub static MISCONCEPTION_2: Misconception = Misconception {
    number: 2,
    belief: "Once the consumer acknowledges a record, it was processed exactly once.",
    truth: "An ack (a commit) after processing gives at least once: a crash between the \
            work and the ack repeats the work. Exactly once needs the output and the \
            offset committed together, or an output that ignores a repeat.",
    preset: "misconception-2",
    lesson: "delivery",
    figure: "duplicated",
    refuted_when: Refutation::AboveZero,
};

pub static MISCONCEPTION_3: Misconception = Misconception {
    number: 3,
    belief: "Adding consumers always makes a group go faster.",
    truth: "A partition is read by one member of a group at a time, so members beyond the \
            partition count get nothing to do. Add partitions first.",
    preset: "misconception-3",
    lesson: "partitions",
    figure: "idle_members",
    refuted_when: Refutation::AboveZero,
};

pub static MISCONCEPTION_4: Misconception = Misconception {
    number: 4,
    belief: "Once a record is consumed you can delete it, as you would from a queue.",
    truth: "Reading a log takes nothing from it, and other groups depend on what is still \
            there. Deleting consumed records takes them from every reader that has not got \
            to them yet; leave cleanup to retention or compaction.",
    preset: "misconception-4",
    lesson: "delivery",
    figure: "lost_to_deletion",
    refuted_when: Refutation::AboveZero,
};

pub static MISCONCEPTION_5: Misconception = Misconception {
    number: 5,
    belief: "Wrapping the second write of a dual write in a try/catch keeps the two \
             stores in sync.",
    truth: "A retry recovers a write that failed, but two writes that both succeed can \
            still reach the index in the other order than they reached the database, and \
            a late retry can overwrite a newer value. Feed the index from the database's \
            own change log (CDC, or an outbox), which has one order.",
    preset: "misconception-5",
    lesson: "dual-writes",
    figure: "try_catch.divergent_keys",
    refuted_when: Refutation::AboveZero,
};

pub static MISCONCEPTION_6: Misconception = Misconception {
    number: 6,
    belief: "Change data capture is the same thing as event sourcing.",
    truth: "CDC streams each row's new state, so a compacted topic may keep only the \
            latest per key. Event sourcing stores what happened, and the state is built \
            from all of it: keep only each account's last event and the balance is wrong.",
    preset: "misconception-6",
    lesson: "bootstrapping",
    figure: "event_sourced.wrong_if_compacted",
    refuted_when: Refutation::AboveZero,
};

pub static MISCONCEPTION_7: Misconception = Misconception {
    number: 7,
    belief: "Windows can be closed by the server's clock.",
    truth: "Counting by arrival time is only right while nothing is delayed. After an \
            outage the backlog lands in one window and the windows before it stay empty; \
            window by event time and close windows by a watermark.",
    preset: "misconception-7",
    lesson: "which-clock",
    figure: "max_processing_time_overcount",
    refuted_when: Refutation::AboveZero,
};

pub static MISCONCEPTION_8: Misconception = Misconception {
    number: 8,
    belief: "Late records can always be ignored.",
    truth: "Dropping stragglers is fine for a rate on a dashboard, but a count that is \
            billed stays wrong for good. Choose the late policy on purpose: allowed \
            lateness with corrections, or a side output, and watch how much is dropped.",
    preset: "misconception-8",
    lesson: "watermarks",
    figure: "max_event_time_error",
    refuted_when: Refutation::AboveZero,
};

pub static MISCONCEPTION_9: Misconception = Misconception {
    number: 9,
    belief: "A microbatch engine gives exactly-once end to end.",
    truth: "Microbatches (like checkpoints) make the job's own state exactly once: a failed \
            batch runs again from the last committed state. Whatever the batch already \
            did outside the job (an email, a call) happens again. End to end needs a \
            receiver that deduplicates or commits the output with the offsets.",
    preset: "misconception-9",
    lesson: "effects",
    figure: "microbatch.external_duplicates",
    refuted_when: Refutation::AboveZero,
};

pub static MISCONCEPTION_10: Misconception = Misconception {
    number: 10,
    belief: "A stream join gives the same answer as a batch join of the same records.",
    truth: "A batch join sees every record at once. A stream join has to answer while \
            records are still arriving, keeps each side only for its interval, and lets \
            the watermark decide when to give up, so a record that comes late finds its \
            partner gone. Size the interval and the lateness for the delays you have, \
            and count what the join drops.",
    preset: "misconception-10",
    lesson: "stream-joins",
    figure: "lost_clicks",
    refuted_when: Refutation::AboveZero,
};

/// Every misconception with a run, in the course's order. A lesson's page reaches only its own
/// cards ([`lesson_misconceptions!`]), so a bundle carries no other lesson's words.
pub static MISCONCEPTIONS: &[&Misconception] = &[
    &MISCONCEPTION_1,
    &MISCONCEPTION_2,
    &MISCONCEPTION_3,
    &MISCONCEPTION_4,
    &MISCONCEPTION_5,
    &MISCONCEPTION_6,
    &MISCONCEPTION_7,
    &MISCONCEPTION_8,
    &MISCONCEPTION_9,
    &MISCONCEPTION_10,
];

/// How many misconceptions the lesson `lesson` offers a run for: the length of its
/// [`of_lesson`] table.
pub const fn count_of_lesson(lesson: &str) -> usize {
    let (mut count, mut i) = (0, 0);
    while i < MISCONCEPTIONS.len() {
        if same(MISCONCEPTIONS[i].lesson, lesson) {
            count += 1;
        }
        i += 1;
    }
    count
}

/// The misconceptions the lesson `lesson` offers a run for, in the course's order, as a table of
/// their own (`N` is [`count_of_lesson`]). Evaluated at compile time (see [`lesson_misconceptions!`]),
/// so a lesson's bundle carries only these cards' words, not its family's others.
pub const fn of_lesson<const N: usize>(lesson: &str) -> [&'static Misconception; N] {
    let mut table = [MISCONCEPTIONS[0]; N];
    let (mut filled, mut i) = (0, 0);
    while filled < N {
        if same(MISCONCEPTIONS[i].lesson, lesson) {
            table[filled] = MISCONCEPTIONS[i];
            filled += 1;
        }
        i += 1;
    }
    table
}

/// The `&'static` table of [`of_lesson`] for the lesson slug `$lesson`, built at compile time.
#[macro_export]
macro_rules! lesson_misconceptions {
    ($lesson:expr) => {{
        const TABLE: [&$crate::misconceptions::Misconception;
            $crate::misconceptions::count_of_lesson($lesson)] =
            $crate::misconceptions::of_lesson($lesson);
        &TABLE
    }};
}

/// The misconception whose preset is `slug`.
pub fn by_preset(slug: &str) -> Option<&'static Misconception> {
    MISCONCEPTIONS.iter().copied().find(|m| m.preset == slug)
}

impl Misconception {
    /// The proving figure as `figures` report it, matched on the last segments of its path (so
    /// `microbatch.external_duplicates` picks one lane, `duplicated` every group): where it
    /// appears more than once, the largest, since one reader hit is enough to refute the belief.
    pub fn measure(&self, figures: &Figures) -> Option<f64> {
        figures
            .flattened()
            .into_iter()
            .filter(|(path, _)| path == self.figure || path.ends_with(&format!(".{}", self.figure)))
            .map(|(_, value)| value)
            .reduce(f64::max)
    }

    /// Whether `figures` refute the belief.
    pub fn refuted_by(&self, figures: &Figures) -> bool {
        self.measure(figures)
            .is_some_and(|value| self.refuted_when.holds(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> &'static Misconception {
        by_preset("misconception-4").unwrap()
    }

    #[test]
    fn the_figure_is_found_in_any_group_and_the_largest_counts() {
        let figures = Figures::new()
            .count("produced", 10)
            .group("billing", Figures::new().count("lost_to_deletion", 0))
            .group("audit", Figures::new().count("lost_to_deletion", 7));
        assert_eq!(sample().measure(&figures), Some(7.0));
        assert!(sample().refuted_by(&figures));
    }

    #[test]
    fn a_zero_or_a_missing_figure_refutes_nothing() {
        let zero = Figures::new().group("audit", Figures::new().count("lost_to_deletion", 0));
        assert!(!sample().refuted_by(&zero));
        let other = Figures::new().count("not_lost_to_deletion", 5);
        assert_eq!(sample().measure(&other), None);
        assert!(!sample().refuted_by(&other));
    }

    /// Whether family `H` offers `m`'s preset in the lesson the card names.
    fn offers<H: crate::family::Headless>(m: &Misconception) -> bool {
        H::presets()
            .iter()
            .any(|p| p.slug == m.preset && p.lesson == m.lesson)
    }

    #[test]
    fn each_misconception_is_offered_by_one_family_in_the_lesson_it_names() {
        // A lesson shows the banner for the cards that name it (`of_lesson`): a card whose
        // lesson does not offer its run would open it with no verdict.
        for m in MISCONCEPTIONS {
            let offering = [
                offers::<crate::kafka::World>(m),
                offers::<crate::queues::QueuesWorld>(m),
                offers::<crate::replication::ReplicationWorld>(m),
                offers::<crate::databases::DatabasesWorld>(m),
                offers::<crate::exactly_once::EosWorld>(m),
                offers::<crate::eventtime::EventTimeWorld>(m),
                offers::<crate::joins::JoinsWorld>(m),
                offers::<crate::practice::InkwellWorld>(m),
            ];
            let families = offering.iter().filter(|offered| **offered).count();
            assert_eq!(families, 1, "{} in {}", m.preset, m.lesson);
        }
    }

    #[test]
    fn the_condition_a_card_prints_is_the_one_the_verdict_applies() {
        // A card says "the belief falls if <figure> <condition>"; read that condition back as
        // a comparison and check it agrees with `holds` on both sides of its threshold.
        for m in MISCONCEPTIONS {
            let condition = m.refuted_when.condition();
            let (op, threshold) = condition.split_once(' ').expect("an operator and a number");
            let threshold: f64 = threshold.parse().expect("a number");
            assert_eq!(op, ">", "{condition}");
            assert!(!m.refuted_when.holds(threshold), "{condition}");
            assert!(m.refuted_when.holds(threshold + 1.0), "{condition}");
        }
    }

    #[test]
    fn a_figure_named_by_its_lane_ignores_the_same_name_elsewhere() {
        let microbatch = by_preset("misconception-9").unwrap();
        let figures = Figures::new()
            .group(
                "checkpoint",
                Figures::new().count("external_duplicates", 430),
            )
            .group(
                "microbatch",
                Figures::new().count("external_duplicates", 149),
            );
        assert_eq!(microbatch.measure(&figures), Some(149.0));
    }

    #[test]
    fn numbers_follow_the_course_and_presets_are_named_after_them() {
        let mut previous = 0;
        for m in MISCONCEPTIONS {
            assert!(m.number > previous && m.number <= 10);
            previous = m.number;
            assert_eq!(m.preset, format!("misconception-{}", m.number));
        }
    }

    #[test]
    fn a_lesson_table_holds_exactly_the_cards_that_name_the_lesson_in_order() {
        let partitions: &[&Misconception] = crate::lesson_misconceptions!("partitions");
        let numbers: Vec<u8> = partitions.iter().map(|m| m.number).collect();
        assert_eq!(numbers, [1, 3]);
        let delivery: &[&Misconception] = crate::lesson_misconceptions!("delivery");
        assert_eq!(
            delivery.iter().map(|m| m.number).collect::<Vec<_>>(),
            [2, 4]
        );
        let effects: &[&Misconception] = crate::lesson_misconceptions!("effects");
        assert_eq!(effects, [&MISCONCEPTION_9]);
        let rebalances: &[&Misconception] = crate::lesson_misconceptions!("rebalances");
        assert!(rebalances.is_empty());
        // The counts share out every card: no lesson's banner misses one.
        let mut lessons: Vec<&str> = MISCONCEPTIONS.iter().map(|m| m.lesson).collect();
        lessons.sort_unstable();
        lessons.dedup();
        let counted: usize = lessons.iter().map(|lesson| count_of_lesson(lesson)).sum();
        assert_eq!(counted, MISCONCEPTIONS.len());
        assert_eq!(count_of_lesson("no-such-lesson"), 0);
    }
}
