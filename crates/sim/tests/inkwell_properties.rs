//! Every Inkwell attempt the challenge's knobs allow is a scenario the consumer-group world
//! accepts. The practice world builds its consumer-group world without running that world's
//! own checks (so the practice bundle leaves them out), which is only sound while this holds.

use proptest::prelude::*;
use streamlab_sim::practice::knobs::KNOBS;
use streamlab_sim::practice::InkwellScenario;

/// Every number knob set to the point `fraction` of the way through its range, rounded to a
/// whole multiple of its step from the bottom, as the knob's slider would leave it.
fn attempt(fractions: &[f64]) -> InkwellScenario {
    let mut scenario = InkwellScenario::default();
    let numbers = KNOBS.iter().filter_map(|knob| knob.number());
    for (number, fraction) in numbers.zip(fractions) {
        let bounds = number.bounds_in(&scenario);
        let steps = ((bounds.max - bounds.min) / number.step).floor();
        let value = bounds.min + (steps * fraction).round() * number.step;
        (number.set)(&mut scenario, value);
    }
    scenario
}

/// Fractions that often land on the ends of a range, where the limits disagree first.
fn fraction() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.0), Just(1.0), 0.0..=1.0_f64]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn every_attempt_the_knobs_allow_is_a_valid_consumer_group_scenario(
        fractions in prop::collection::vec(fraction(), KNOBS.len()),
    ) {
        let scenario = attempt(&fractions);
        prop_assert_eq!(scenario.validate(), Ok(()));
        let kafka = scenario.to_kafka();
        prop_assert_eq!(kafka.validate(), Ok(()), "{:?}", scenario);
    }
}
