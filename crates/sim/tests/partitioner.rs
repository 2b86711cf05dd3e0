//! Kafka's default partitioner, checked against values the Java client produces.

use streamlab_sim::kafka::partitioner::{murmur2, partition_for_key, to_positive};

/// The cases of Kafka's own `UtilsTest.testMurmur2`.
const KAFKA_MURMUR2_CASES: [(&str, i32); 6] = [
    ("21", -973_932_308),
    ("foobar", -790_332_482),
    ("a-little-bit-long-string", -985_981_536),
    ("a-little-bit-longer-string", -1_486_304_829),
    (
        "lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8",
        -58_897_971,
    ),
    ("abc", 479_470_107),
];

#[test]
fn murmur2_matches_kafkas_utils_test() {
    for (key, expected) in KAFKA_MURMUR2_CASES {
        assert_eq!(murmur2(key.as_bytes()), expected, "murmur2({key:?})");
    }
}

/// The cases of librdkafka's `unittest_murmur2`, which checks its port against the Java client
/// (as unsigned bit patterns). They cover the tails the Kafka cases miss: 1 byte ("kafka", "4",
/// "giberish123456789") and 3 bytes ("234", "reAmble...").
const LIBRDKAFKA_MURMUR2_CASES: [(&str, u32); 11] = [
    ("kafka", 0xd067_cf64),
    ("giberish123456789", 0x8f55_2b0c),
    ("1234", 0x9fc9_7b14),
    ("234", 0xe7c0_09ca),
    ("34", 0x8739_30da),
    ("4", 0x5a4b_5ca1),
    ("PreAmbleWillBeRemoved,ThePrePartThatIs", 0x7842_4f1c),
    ("reAmbleWillBeRemoved,ThePrePartThatIs", 0x4a62_b377),
    ("eAmbleWillBeRemoved,ThePrePartThatIs", 0xe0e4_e09e),
    ("AmbleWillBeRemoved,ThePrePartThatIs", 0x62b8_b43f),
    ("", 0x106e_08d9),
];

#[test]
fn murmur2_matches_librdkafkas_cross_checked_cases() {
    for (key, expected_bits) in LIBRDKAFKA_MURMUR2_CASES {
        assert_eq!(
            murmur2(key.as_bytes()) as u32,
            expected_bits,
            "murmur2({key:?})"
        );
    }
}

#[test]
fn partition_is_the_positive_hash_modulo_the_count() {
    // toPositive(-790332482) = 1357151166; 1357151166 % 10 = 6 and % 50 = 16.
    assert_eq!(to_positive(-790_332_482), 1_357_151_166);
    assert_eq!(partition_for_key(b"foobar", 10), 6);
    assert_eq!(partition_for_key(b"foobar", 50), 16);
}

#[test]
fn to_positive_clears_the_sign_bit_instead_of_negating() {
    assert_eq!(to_positive(i32::MIN), 0);
    assert_eq!(to_positive(-1), 0x7fff_ffff);
    assert_eq!(to_positive(5), 5);
}

#[test]
fn one_partition_takes_every_key() {
    for (key, _) in KAFKA_MURMUR2_CASES {
        assert_eq!(partition_for_key(key.as_bytes(), 1), 0);
    }
}

#[test]
fn keys_spread_over_twelve_partitions_as_the_java_client_puts_them() {
    let placements = [
        ("1039-36302-36840-2-9f138052", 4),
        ("1388-20023-36900-2-c9985f66", 0),
        ("1175-03505-36600-2-126dd9ca", 1),
        ("1011-98208-36480-2-9eef750a", 8),
        ("233-75504-36900-2-609151bd", 10),
        ("1182-07205-22440-2-0ad4507d", 9),
        ("1010-98110-23700-2-295bfb4c", 10),
        ("1137-01302-23820-2-d560d49a", 4),
        ("599999", 3),
    ];
    for (key, partition) in placements {
        assert_eq!(partition_for_key(key.as_bytes(), 12), partition, "{key}");
    }
}
