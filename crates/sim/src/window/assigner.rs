//! Which fixed-size windows an event time belongs to. A tumbling window is the hopping window
//! whose hop equals its size, so one assigner serves both: windows start at every multiple of
//! the hop (negative multiples included) and are `size_ms` long.

/// Window placement for tumbling (`hop_ms == size_ms`) and hopping windows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FixedAssigner {
    pub(crate) size_ms: i64,
    pub(crate) hop_ms: i64,
}

impl FixedAssigner {
    /// Starts of the windows `[start, start + size)` that contain `time_ms`, ascending: the
    /// multiples of the hop in `(time_ms - size_ms, time_ms]`.
    ///
    /// With validated inputs (|time| and size at most 2^61) nothing here can overflow, and the
    /// count is at most `ceil(size / hop)`, which validation bounds.
    pub(crate) fn starts(self, time_ms: i64) -> impl Iterator<Item = i64> {
        let hop_ms = self.hop_ms;
        let last_start_ms = self.last_start_ms(time_ms);
        let count = if hop_ms == self.size_ms {
            1 // Tumbling: skip the division below, this is the per-event hot path.
        } else {
            // Windows start at last, last - hop, ... while the start is > time - size.
            let offset_ms = time_ms - last_start_ms; // in 0..hop
            (self.size_ms - offset_ms + hop_ms - 1) / hop_ms
        };
        let first_start_ms = last_start_ms - (count - 1) * hop_ms;
        (0..count).map(move |index| first_start_ms + index * hop_ms)
    }

    /// The end of the latest window containing `time_ms`: if that window is gone, so are all
    /// the earlier ones, and the event is dropped.
    pub(crate) fn latest_end_ms(self, time_ms: i64) -> i64 {
        self.last_start_ms(time_ms) + self.size_ms
    }

    fn last_start_ms(self, time_ms: i64) -> i64 {
        time_ms.div_euclid(self.hop_ms) * self.hop_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn starts(size_ms: i64, hop_ms: i64, time_ms: i64) -> Vec<i64> {
        FixedAssigner { size_ms, hop_ms }.starts(time_ms).collect()
    }

    #[test]
    fn tumbling_window_boundary_belongs_to_the_next_window() {
        assert_eq!(starts(10, 10, 9), vec![0]);
        assert_eq!(starts(10, 10, 10), vec![10]);
        assert_eq!(starts(10, 10, 0), vec![0]);
    }

    #[test]
    fn hopping_windows_include_negative_starts() {
        assert_eq!(starts(10, 3, 0), vec![-9, -6, -3, 0]);
        assert_eq!(starts(10, 5, 7), vec![0, 5]);
        assert_eq!(starts(10, 5, 10), vec![5, 10]);
    }

    #[test]
    fn hop_that_does_not_divide_size_gives_varying_counts() {
        assert_eq!(starts(10, 4, 8), vec![0, 4, 8]);
        assert_eq!(starts(10, 4, 10), vec![4, 8]);
    }

    #[test]
    fn latest_end_is_the_end_of_the_last_window() {
        let assigner = FixedAssigner {
            size_ms: 10,
            hop_ms: 3,
        };
        assert_eq!(assigner.latest_end_ms(7), 16);
        assert_eq!(assigner.latest_end_ms(0), 10);
    }
}
