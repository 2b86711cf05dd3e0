//! Words every family's narration needs: a duration as a learner reads it ("1.5 s",
//! "30 min") and a count with its noun ("1 record", "7 records").

/// "40 ms", "12 s", "1.5 s", "30 min", "2 h", "7 days".
pub fn duration(ms: u64) -> String {
    const HOUR_MS: u64 = 3_600_000;
    const DAY_MS: u64 = 24 * HOUR_MS;
    if ms < 1_000 && ms > 0 {
        return format!("{ms} ms");
    }
    if ms >= DAY_MS && ms % DAY_MS == 0 {
        return count(ms / DAY_MS, "day");
    }
    if ms >= 2 * HOUR_MS && ms % HOUR_MS == 0 {
        return format!("{} h", ms / HOUR_MS);
    }
    if ms >= 120_000 && ms % 60_000 == 0 {
        return format!("{} min", ms / 60_000);
    }
    let tenths = (ms + 50) / 100;
    if tenths % 10 == 0 {
        format!("{} s", tenths / 10)
    } else {
        format!("{}.{} s", tenths / 10, tenths % 10)
    }
}

/// "1 record", "7 records" (any noun with a plain plural).
pub fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_counts_read_naturally() {
        assert_eq!(duration(40), "40 ms");
        assert_eq!(duration(1_500), "1.5 s");
        assert_eq!(duration(1_800_000), "30 min");
        assert_eq!(count(1, "record"), "1 record");
        assert_eq!(count(7, "record"), "7 records");
    }
}
