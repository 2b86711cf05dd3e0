//! `streamlab partition`, run as a user would: keys on stdin, one partition per line out.

mod support;

use std::process::Output;
use support::assert_rejected;

fn partition(args: &[&str], stdin: &[u8]) -> Output {
    support::run("partition", args, stdin)
}

fn lines(output: &Output) -> Vec<String> {
    assert!(
        output.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone())
        .expect("UTF-8 output")
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn prints_the_java_clients_partition_for_each_key() {
    // murmur2("foobar") = -790332482; & 0x7fffffff = 1357151166; % 10 = 6.
    let output = partition(
        &["--partitions", "12"],
        b"1039-36302-36840-2-9f138052\n599999\n",
    );
    assert_eq!(lines(&output), ["4", "3"]);
    let output = partition(&["--partitions", "10"], b"foobar\n");
    assert_eq!(lines(&output), ["6"]);
}

#[test]
fn a_carriage_return_is_part_of_the_key() {
    let with_cr = lines(&partition(&["--partitions", "1000"], b"foobar\r\n"));
    let without = lines(&partition(&["--partitions", "1000"], b"foobar\n"));
    assert_ne!(with_cr, without);
    // The hash of the six letters and '\r' is what decides, not the letters alone.
    assert_eq!(
        with_cr,
        lines(&partition(&["--partitions", "1000"], b"foobar\r"))
    );
}

#[test]
fn keys_need_not_be_utf8() {
    let output = partition(&["--partitions", "7"], b"\xff\xfe\x00key\n\xc3\x28\n");
    let printed = lines(&output);
    assert_eq!(printed.len(), 2);
    assert!(printed.iter().all(|p| p.parse::<u32>().unwrap() < 7));
    // The same bytes always land in the same place, whatever surrounds them.
    let again = partition(&["--partitions", "7"], b"\xc3\x28\n");
    assert_eq!(lines(&again), printed[1..]);
}

#[test]
fn a_last_line_without_newline_is_a_key_and_empty_lines_are_empty_keys() {
    let with_newline = lines(&partition(&["--partitions", "50"], b"21\n\nabc\n"));
    let without = lines(&partition(&["--partitions", "50"], b"21\n\nabc"));
    assert_eq!(with_newline.len(), 3);
    assert_eq!(with_newline, without);
    // murmur2("") = 275646681, which is 31 modulo 50.
    assert_eq!(with_newline[1], "31");
}

#[test]
fn empty_input_prints_nothing() {
    let output = partition(&["--partitions", "3"], b"");
    assert!(output.status.success());
    assert!(output.stdout.is_empty());
    assert!(output.stderr.is_empty());
}

#[test]
fn one_partition_takes_every_key() {
    let output = partition(&["--partitions", "1"], b"a\nb\nc\n\xff\n");
    assert_eq!(lines(&output), ["0", "0", "0", "0"]);
}

#[test]
fn the_largest_partition_count_is_accepted() {
    let output = partition(&["--partitions", "2147483647"], b"foobar\n");
    assert_eq!(lines(&output), ["1357151166"]);
}

#[test]
fn partition_counts_outside_1_to_2147483647_are_rejected() {
    for bad in [
        "0",
        "2147483648",
        "-1",
        "+5",
        "1e3",
        "ten",
        "",
        " 5",
        "99999999999999999999",
    ] {
        assert_rejected(
            &partition(&["--partitions", bad], b"foobar\n"),
            "--partitions",
        );
    }
}

#[test]
fn missing_or_unknown_flags_are_rejected() {
    assert_rejected(&partition(&[], b"foobar\n"), "--partitions");
    assert_rejected(&partition(&["--partitions"], b"foobar\n"), "--partitions");
    assert_rejected(
        &partition(&["--partitions", "3", "--keys", "x"], b""),
        "--keys",
    );
    assert_rejected(
        &partition(&["--partitions", "3", "--partitions", "4"], b""),
        "twice",
    );
}
