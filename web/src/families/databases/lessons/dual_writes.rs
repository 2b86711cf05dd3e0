//! "Dual writes and change data capture": two application servers keep a database and a
//! search index in step four ways on one seed (dual write, dual write in a try/catch, CDC,
//! a transactional outbox), and the run counts where each leaves the index.

use crate::families::databases::DatabasesFamily;
use crate::shell::family::{Lesson, LessonWords, PageText, Theme, TryThis};
use streamlab_sim::databases::knobs::section::*;
use streamlab_sim::databases::DUAL_WRITE_SIMPLIFICATIONS;

/// What the lesson says, apart from its code: the gallery's card reads it, and the header
/// its slug and title (`crate::catalog`).
pub static WORDS: LessonWords = LessonWords {
    slug: "dual-writes",
    title: "Dual writes and change data capture",
    theme: Theme::Log,
    question: "My service saves a product to the database and then to the search index. \
               Nothing ever fails. Why does the index still show old prices, and would a \
               try/catch fix it?",
    guarantee: "A dual write promises nothing about order across servers. CDC and the \
                outbox promise the database's commit order, per key, and nothing lost: \
                the index converges once the connector has caught up.",
    knowledge: "Each server knows only its own writes. Only the database knows the order \
                of all of them, and its log records that order: CDC reads it instead of \
                guessing.",
    failure: "Dual writes: writes crossing on the network, a refused write, a late retry. \
              CDC and the outbox: a stopped connector and a failing sink only add lag; \
              the log keeps every change until they read it.",
};

pub static LESSON: Lesson<DatabasesFamily> = Lesson {
    words: &WORDS,
    text: PageText {
        explanation: &[
            "Two servers handle updates for the same few products. Each one writes the \
             database first and the index second, and every message takes its own time on \
             the network. The database puts the two updates of a product in one order; the \
             index can receive them in the other. When the older value arrives last, the \
             index keeps it, and no one gets an error: both writes succeeded.",
            "A try/catch with retries recovers writes the index refused, so fewer are lost. \
             It cannot put two successful writes back in order, and a retry that lands after \
             a newer value makes things worse: the stale value overwrites the fresh one.",
            "Change data capture turns the problem around. The application writes only the \
             database; a connector (Debezium) reads the database's own change log and a sink \
             applies the changes to the index in commit order. The outbox pattern does the \
             same with an event row written in the same transaction. Both lag behind the \
             database, sometimes by seconds, but once they catch up the index is exactly the \
             database.",
        ],
        simplifications: DUAL_WRITE_SIMPLIFICATIONS,
        simpler_than: "a database, Debezium and Elasticsearch",
    },
    try_this: &[
        TryThis {
            prompt: "Make the network steady: no jitter.",
            expect: "Every message takes the same time, so writes reach the index in the order \
                     they reached the database: the dual writes end equal. The race needs \
                     delays that vary.",
            apply: |s| s.network.jitter_ms = 0,
        },
        TryThis {
            prompt: "Put one server in front instead of two.",
            expect: "About as many crossings: each request is handled concurrently and every \
                     message takes its own time, so one server's writes overtake each other \
                     too.",
            apply: |s| s.writes.app_servers = 1,
        },
        TryThis {
            prompt: "Fail one index write in five.",
            expect: "The dual write loses hundreds of writes; the try/catch loses only those \
                     that fail three times but lands more writes out of order. CDC and the \
                     outbox only lag more.",
            apply: |s| s.network.index_failure_rate = 0.2,
        },
        TryThis {
            prompt: "Stop the connectors for 20 seconds.",
            expect: "The CDC and outbox lag climbs to 20 s and their indexes drift; then they \
                     read the waiting changes from the log and end equal to the database.",
            apply: |s| {
                s.outage.enabled = true;
                s.outage.at_ms = 15_000;
                s.outage.for_ms = 20_000;
            },
        },
    ],
    knob_sections: &[WRITES, NETWORK, RETRY, CONNECTOR, OUTAGE, RUN],
    presets: streamlab_sim::databases::PRESETS,
    misconceptions: streamlab_sim::lesson_misconceptions!(WORDS.slug),
    options: (),
};
