//! Links people have already shared must keep working: every link format version that has
//! been released has a fixture file here, one link per line, and each must still decode to a
//! valid scenario, whatever the Scenario struct has become since.

use streamlab_sim::share;

fn check_fixture(text: &str) -> usize {
    let links: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    for (line, link) in links.iter().enumerate() {
        if let Err(error) = share::decode(link) {
            panic!("line {}: {error}", line + 1);
        }
    }
    links.len()
}

#[test]
fn format_1_links_still_decode() {
    let count = check_fixture(include_str!("fixtures/links-v1.txt"));
    assert!(
        count >= 10,
        "the fixture holds the default and every preset: {count}"
    );
}
