//! The search's view of one component: topics, members, partition classes, entry bounds,
//! objectives, and solutions counted per (topic, member) *entry*.

/// The numbers of one connected part of a group: topics and members by local index.
pub(super) struct Shape {
    pub(super) partition_counts: Vec<u64>,
    /// Per topic, its subscribers in ascending member order.
    pub(super) subscribers: Vec<Vec<usize>>,
    /// Per member, its topics in ascending order.
    pub(super) subscriptions: Vec<Vec<usize>>,
}

impl Shape {
    pub(super) fn member_count(&self) -> usize {
        self.subscriptions.len()
    }

    pub(super) fn total_partitions(&self) -> u64 {
        self.partition_counts.iter().sum()
    }
}

/// Partitions of one topic that are interchangeable for the objective: `size` of them, each
/// counting 1 towards [`Objective::KeptOwned`] when held by one of `owners`.
pub(super) struct PartitionClass {
    pub(super) topic: usize,
    pub(super) size: u64,
    pub(super) owners: Vec<usize>,
}

/// What the search maximises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Objective<'w> {
    /// Partitions held by one of their class's owners.
    KeptOwned,
    /// The sum of entry counts times these per-entry weights.
    WeightedEntries(&'w [u64]),
}

/// A balanced (or, inside the search, relaxed) assignment in counts.
#[derive(Clone, Debug)]
pub(super) struct Solution {
    pub(super) value: u64,
    /// Per entry, how many partitions of the entry's topic its member holds.
    pub(super) entry_counts: Vec<u64>,
    /// Per class, per subscriber position of the class's topic, how many of the class it holds.
    pub(super) class_counts: Vec<Vec<u64>>,
}

/// A maximisation problem: a shape, its partition classes and bounds on every entry.
pub(super) struct Problem<'a> {
    pub(super) shape: &'a Shape,
    pub(super) classes: Vec<PartitionClass>,
    /// `(topic, member)` per entry, topic-major, members ascending within a topic.
    pub(super) entries: Vec<(usize, usize)>,
    /// Per topic, the entry of each subscriber position.
    pub(super) entry_ids: Vec<Vec<usize>>,
    pub(super) member_entries: Vec<Vec<usize>>,
    pub(super) entry_floor: Vec<u64>,
    pub(super) entry_ceiling: Vec<u64>,
    /// Per topic, the partitions of every topic some subscriber of it subscribes to: the most
    /// its subscribers can hold between them.
    pub(super) neighbourhood_partitions: Vec<u64>,
    /// Per member, the members sharing a topic with it (itself included), ascending.
    pub(super) neighbours: Vec<Vec<usize>>,
    /// Per member, the partitions of the topics it subscribes to.
    pub(super) subscribed_partitions: Vec<u64>,
    pub(super) total_partitions: u64,
}

impl<'a> Problem<'a> {
    pub(super) fn new(shape: &'a Shape, classes: Vec<PartitionClass>) -> Self {
        let mut entries = Vec::new();
        let mut entry_ids = Vec::new();
        let mut member_entries = vec![Vec::new(); shape.member_count()];
        for (topic, subscribers) in shape.subscribers.iter().enumerate() {
            let mut ids = Vec::new();
            for &member in subscribers {
                ids.push(entries.len());
                member_entries[member].push(entries.len());
                entries.push((topic, member));
            }
            entry_ids.push(ids);
        }
        let entry_ceiling = entries
            .iter()
            .map(|&(topic, _)| shape.partition_counts[topic])
            .collect();
        Self {
            shape,
            classes,
            entry_floor: vec![0; entries.len()],
            entry_ceiling,
            entries,
            entry_ids,
            member_entries,
            neighbourhood_partitions: neighbourhood_partitions(shape),
            neighbours: neighbours(shape),
            subscribed_partitions: shape
                .subscriptions
                .iter()
                .map(|topics| topics.iter().map(|&t| shape.partition_counts[t]).sum())
                .collect(),
            total_partitions: shape.total_partitions(),
        }
    }

    /// The entry of `member`'s holding of `topic`, if it subscribes to it.
    pub(super) fn entry(&self, topic: usize, member: usize) -> Option<usize> {
        let position = self.shape.subscribers[topic].binary_search(&member).ok()?;
        Some(self.entry_ids[topic][position])
    }

    pub(super) fn entry_ids(&self, topic: usize) -> &[usize] {
        &self.entry_ids[topic]
    }

    pub(super) fn entry_floor(&self, entry: usize) -> u64 {
        self.entry_floor[entry]
    }

    pub(super) fn entry_ceiling(&self, entry: usize) -> u64 {
        self.entry_ceiling[entry]
    }

    /// Requires `floor <= count(entry) <= ceiling`.
    pub(super) fn bound_entry(&mut self, entry: usize, floor: u64, ceiling: u64) {
        self.entry_floor[entry] = floor;
        self.entry_ceiling[entry] = ceiling;
    }

    pub(super) fn entry_count(&self) -> usize {
        self.entries.len()
    }

    pub(super) fn class_topic(&self, class: usize) -> usize {
        self.classes[class].topic
    }

    pub(super) fn class_owned_by(&self, class: usize, member: usize) -> bool {
        self.classes[class].owners.contains(&member)
    }

    /// The solution with these entry counts, for a problem with exactly one class per topic
    /// (listed in topic order), where class counts and entry counts are the same numbers.
    pub(super) fn solution_from_entry_counts(&self, entry_counts: Vec<u64>) -> Solution {
        let class_counts = self
            .classes
            .iter()
            .map(|class| {
                self.entry_ids[class.topic]
                    .iter()
                    .map(|&entry| entry_counts[entry])
                    .collect()
            })
            .collect();
        Solution {
            value: 0,
            entry_counts,
            class_counts,
        }
    }

    /// The value `solution` scores under `objective`.
    pub(super) fn score(&self, objective: Objective<'_>, solution: &Solution) -> u64 {
        match objective {
            Objective::WeightedEntries(weights) => weights
                .iter()
                .zip(&solution.entry_counts)
                .map(|(weight, count)| weight * count)
                .sum(),
            Objective::KeptOwned => self
                .classes
                .iter()
                .zip(&solution.class_counts)
                .map(|(class, counts)| {
                    let subscribers = &self.shape.subscribers[class.topic];
                    subscribers
                        .iter()
                        .zip(counts)
                        .filter(|(member, _)| class.owners.contains(member))
                        .map(|(_, &count)| count)
                        .sum::<u64>()
                })
                .sum(),
        }
    }

    /// The most `objective` can score: every partition counting with the largest weight.
    pub(super) fn max_score(&self, objective: Objective<'_>) -> u64 {
        match objective {
            Objective::KeptOwned => self.total_partitions,
            Objective::WeightedEntries(weights) => weights
                .iter()
                .zip(&self.entries)
                .map(|(weight, &(topic, _))| weight * self.shape.partition_counts[topic])
                .sum(),
        }
    }

    /// Entry counts implied by per-class counts.
    pub(super) fn entry_counts_of(&self, class_counts: &[Vec<u64>]) -> Vec<u64> {
        let mut counts = vec![0; self.entries.len()];
        for (class, per_position) in self.classes.iter().zip(class_counts) {
            for (&entry, &count) in self.entry_ids[class.topic].iter().zip(per_position) {
                counts[entry] += count;
            }
        }
        counts
    }

    pub(super) fn member_loads(&self, entry_counts: &[u64]) -> Vec<u64> {
        let mut loads = vec![0; self.shape.member_count()];
        for (&(_, member), &count) in self.entries.iter().zip(entry_counts) {
            loads[member] += count;
        }
        loads
    }
}

/// Per member, the members that share one of its topics, itself included.
fn neighbours(shape: &Shape) -> Vec<Vec<usize>> {
    shape
        .subscriptions
        .iter()
        .map(|topics| {
            let mut reach = vec![false; shape.member_count()];
            for &topic in topics {
                for &member in &shape.subscribers[topic] {
                    reach[member] = true;
                }
            }
            (0..shape.member_count()).filter(|&m| reach[m]).collect()
        })
        .collect()
}

/// Per topic, the partitions of all topics its subscribers subscribe to.
fn neighbourhood_partitions(shape: &Shape) -> Vec<u64> {
    shape
        .subscribers
        .iter()
        .map(|subscribers| {
            let mut reachable = vec![false; shape.partition_counts.len()];
            for &member in subscribers {
                for &topic in &shape.subscriptions[member] {
                    reachable[topic] = true;
                }
            }
            reachable
                .iter()
                .zip(&shape.partition_counts)
                .filter(|(reached, _)| **reached)
                .map(|(_, &count)| count)
                .sum()
        })
        .collect()
}
