//! A member's partitions said in the room its box in the kafka diagram leaves for them.
//!
//! A member of a group on a wide topic owns tens of partitions, and written out in full
//! ("p0,p1,p2,…,p19") they ran past the box and under the words beside them. Runs of three or
//! more consecutive partitions (what the range assignor hands out) are written as a range, and
//! a list still too long keeps the partitions that fit and counts the rest. The ownership lines
//! from each partition to its member still show every one.

use std::fmt::Write as _;

/// About how wide one character of the diagram's small text is, in the diagram's units: the
/// text is 10 px, and digits and "p" are 5.6–6.4 px wide in the sans-serif fonts browsers pick.
pub const SMALL_CHAR_W: f64 = 6.0;

/// `partitions` in at most about `width` units: runs of three or more as a range
/// ("p0–p19"), and when that is still too long the first ones that fit and how many more
/// ("p0–p9,p14 +6", or "+20" when not even the first fits). Measured in bytes, so a range's
/// dash (three bytes) counts a little wider than it is.
///
/// Written item by item, each kept only if it leaves room to count the rest; the count is
/// never longer than the items it stands for, so a list that fits whole is written whole.
pub fn owned_label(partitions: &[u32], width: f64) -> String {
    let max_bytes = (width / SMALL_CHAR_W) as usize;
    let mut label = String::new();
    let mut start = 0;
    while start < partitions.len() {
        let mut end = start + 1;
        while end < partitions.len() && partitions[end] == partitions[end - 1] + 1 {
            end += 1;
        }
        if end - start < 3 {
            end = start + 1;
        }
        let kept = label.len();
        if kept > 0 {
            label.push(',');
        }
        let _ = write!(label, "p{}", partitions[start]);
        if end - start >= 3 {
            let _ = write!(label, "–p{}", partitions[end - 1]);
        }
        let left = partitions.len() - end;
        let count_bytes = if left == 0 {
            0
        } else {
            2 + digits(left as u64)
        };
        if label.len() + count_bytes > max_bytes {
            label.truncate(kept);
            break;
        }
        start = end;
    }
    let left = partitions.len() - start;
    if left > 0 {
        let space = if label.is_empty() { "" } else { " " };
        let _ = write!(label, "{space}+{left}");
    }
    label
}

/// How many decimal digits `n` takes.
pub fn digits(mut n: u64) -> usize {
    let mut count = 1;
    while n >= 10 {
        n /= 10;
        count += 1;
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    /// Room for `chars` characters.
    fn room(chars: usize) -> f64 {
        chars as f64 * SMALL_CHAR_W
    }

    #[wasm_bindgen_test]
    fn a_few_partitions_are_listed_as_they_are() {
        assert_eq!(owned_label(&[0, 1], room(20)), "p0,p1");
        assert_eq!(owned_label(&[4], room(20)), "p4");
        assert_eq!(owned_label(&[], room(20)), "");
    }

    #[wasm_bindgen_test]
    fn runs_of_three_or_more_become_ranges() {
        assert_eq!(owned_label(&[0, 1, 2], room(20)), "p0–p2");
        let range_assignor: Vec<u32> = (20..40).collect();
        assert_eq!(owned_label(&range_assignor, room(20)), "p20–p39");
        assert_eq!(
            owned_label(&[0, 1, 2, 3, 7, 8, 11, 12, 13], room(40)),
            "p0–p3,p7,p8,p11–p13"
        );
    }

    #[wasm_bindgen_test]
    fn a_list_too_long_keeps_what_fits_and_counts_the_rest() {
        // What the round-robin assignor gives one of three members of sixty partitions.
        let strided: Vec<u32> = (0..60).step_by(3).collect();
        let label = owned_label(&strided, room(16));
        assert_eq!(label, "p0,p3,p6,p9 +16");
        assert!(label.chars().count() <= 16);
    }

    #[wasm_bindgen_test]
    fn the_count_alone_when_not_even_one_partition_fits() {
        let strided: Vec<u32> = (10..70).step_by(3).collect();
        assert_eq!(owned_label(&strided, room(5)), "+20");
    }

    #[wasm_bindgen_test]
    fn the_count_says_every_partition_left_out() {
        let partitions = [0, 1, 2, 5, 9, 10, 11, 12, 20];
        for chars in 0..30 {
            let label = owned_label(&partitions, room(chars));
            let said: usize = label
                .split(' ')
                .next()
                .unwrap_or("")
                .split(',')
                .filter(|item| item.starts_with('p'))
                .map(|item| match item.split_once('–') {
                    Some((from, to)) => {
                        let number = |p: &str| p[1..].parse::<usize>().unwrap();
                        number(to) - number(from) + 1
                    }
                    None => 1,
                })
                .sum();
            let counted: usize = label
                .rsplit_once('+')
                .map_or(0, |(_, count)| count.parse().unwrap());
            assert_eq!(said + counted, partitions.len(), "{chars} chars: {label}");
        }
    }

    #[wasm_bindgen_test]
    fn a_label_stays_within_its_room_unless_only_the_count_is_left() {
        let strided: Vec<u32> = (0..300).step_by(3).collect();
        for partitions in [&[0, 1, 2, 3, 9, 10, 11][..], &strided, &[], &[7, 8]] {
            let count_alone = 1 + digits(partitions.len() as u64);
            for bytes in 0..40 {
                let label = owned_label(partitions, room(bytes));
                assert!(label.len() <= bytes.max(count_alone), "{label} in {bytes}");
            }
        }
    }

    #[wasm_bindgen_test]
    fn digits_are_counted_at_every_power_of_ten() {
        let cases = [
            (0, 1),
            (9, 1),
            (10, 2),
            (99, 2),
            (100, 3),
            (123_456, 6),
            (u64::MAX, 20),
        ];
        for (n, expected) in cases {
            assert_eq!(digits(n), expected, "{n}");
        }
    }
}
