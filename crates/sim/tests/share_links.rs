//! Share links never break anything: whatever arrives in the URL, decoding either gives a valid
//! scenario or one readable sentence, never a panic.

use proptest::prelude::*;
use streamlab_sim::scenario::Scenario;
use streamlab_sim::{presets, share};

fn real_links() -> Vec<String> {
    let mut links = vec![share::encode(&Scenario::default())];
    links.extend(presets::PRESETS.iter().map(|p| share::encode(&(p.build)())));
    links
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn arbitrary_text_is_refused_with_a_sentence(text in ".{0,300}") {
        if let Err(error) = share::decode(&text) {
            prop_assert!(error.0.starts_with("This link could not be read"));
            prop_assert!(!error.0.contains('\n'));
        }
    }

    #[test]
    fn damaged_real_links_decode_or_explain(
        which in 0usize..64,
        cut in 0usize..400,
        flips in prop::collection::vec((0usize..400, any::<char>()), 0..4),
    ) {
        let links = real_links();
        let mut chars: Vec<char> = links[which % links.len()].chars().collect();
        for (at, replacement) in flips {
            if !chars.is_empty() {
                let index = at % chars.len();
                chars[index] = replacement;
            }
        }
        chars.truncate(cut.min(chars.len()));
        let link: String = chars.into_iter().collect();
        match share::decode(&link) {
            Ok(scenario) => prop_assert!(scenario.validate().is_ok()),
            Err(error) => prop_assert!(error.0.starts_with("This link could not be read")),
        }
    }
}

#[test]
fn every_preset_survives_a_round_trip() {
    for preset in presets::PRESETS {
        let scenario = (preset.build)();
        let decoded = share::decode(&share::encode(&scenario)).expect(preset.slug);
        assert_eq!(decoded, scenario, "{}", preset.slug);
    }
}
