//! Many small marks drawn a group at a time, still roughly in the order they were recorded.
//!
//! A chart of thousands of records drew each one on its own: an SVG element each, or a canvas
//! path each, with its colour set again every time. Marks that look alike (one device's, one
//! state's) can be one path instead. One group per look for the whole chart would draw every
//! look's marks over the previous look's, and where marks crowd, the last look's colour would
//! hide the others. So the marks are taken [`RUN_LEN`] at a time, in their order, and each run
//! gives one group per look, in the order of each group's latest mark: a mark recorded later
//! still lies over one recorded earlier, give or take a run.

/// Marks per run: a chart of a few thousand marks is drawn as a few hundred groups, and within
/// a run the drawing order may differ from the recorded order.
pub const RUN_LEN: usize = 50;

/// `items` grouped by `look_of`, a run of [`RUN_LEN`] at a time, each run's groups in the order
/// of their latest item; each group's items keep their order.
pub fn grouped_in_runs<T, L: PartialEq>(
    items: &[T],
    look_of: impl Fn(&T) -> L,
) -> Vec<(L, Vec<&T>)> {
    let mut groups: Vec<(L, Vec<&T>, usize)> = Vec::new();
    for (run, chunk) in items.chunks(RUN_LEN).enumerate() {
        let first = groups.len();
        for (offset, item) in chunk.iter().enumerate() {
            let look = look_of(item);
            let at = match groups[first..].iter().position(|(l, _, _)| *l == look) {
                Some(i) => first + i,
                None => {
                    groups.push((look, Vec::new(), 0));
                    groups.len() - 1
                }
            };
            groups[at].1.push(item);
            groups[at].2 = run * RUN_LEN + offset;
        }
        streamlab_sim::replay::sort::sort_by_key(&mut groups[first..], |&(_, _, last)| last);
    }
    groups
        .into_iter()
        .map(|(look, members, _)| (look, members))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn a_run_gives_one_group_per_look_in_the_order_of_each_ones_latest_item() {
        let items = ["b1", "a1", "b2", "c1", "a2"];
        let groups = grouped_in_runs(&items, |item| item.as_bytes()[0]);
        let drawn: Vec<(char, Vec<&str>)> = groups
            .into_iter()
            .map(|(look, members)| (look as char, members.into_iter().copied().collect()))
            .collect();
        assert_eq!(
            drawn,
            [
                ('b', vec!["b1", "b2"]),
                ('c', vec!["c1"]),
                ('a', vec!["a1", "a2"])
            ]
        );
    }

    #[wasm_bindgen_test]
    fn items_are_grouped_a_run_at_a_time() {
        // Two looks alternating over two runs and ten items.
        let items: Vec<usize> = (0..RUN_LEN * 2 + 10).collect();
        let groups = grouped_in_runs(&items, |i| i % 2);
        let sizes: Vec<(usize, usize)> = groups.iter().map(|(l, m)| (*l, m.len())).collect();
        let half = RUN_LEN / 2;
        assert_eq!(
            sizes,
            [(0, half), (1, half), (0, half), (1, half), (0, 5), (1, 5)]
        );
        let in_order: Vec<usize> = groups
            .iter()
            .flat_map(|(_, m)| m.iter().copied())
            .copied()
            .collect();
        assert_eq!(in_order.len(), items.len());
        assert_eq!(&in_order[..2], [0, 2], "a group keeps its items' order");
    }
}
