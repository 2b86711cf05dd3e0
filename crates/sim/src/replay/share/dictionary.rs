//! DEFLATE primed with a dictionary, the way zlib's preset dictionaries work: the compressor
//! may point back into the dictionary (`fixed_deflate`), so the link's few bytes of JSON can
//! refer to field names the dictionary already spells out instead of spelling them again. The
//! decoder puts the same dictionary in front of its output before inflating.
//!
//! [`DICTIONARY_V2`] is part of format 2 and is frozen: changing one byte would make every
//! version 2 link already shared decode to garbage (`tests/fixtures/links-v2.txt` catches
//! that). A later format that wants another dictionary gets a new version number.

/// Words format 2 links are made of: every scenario field, the values knobs take, and a
/// scheduled action of each kind. Frozen (see the module documentation).
pub const DICTIONARY_V2: &[u8] = br#"{"window":{"type":"tumbling","size":10000},{"type":"hopping","size":60000,"hop":20000},{"type":"session","gap":30000},"time_domain":"event_time","processing_time","timestamp":"device","corrected","late_policy":"drop","restate","side_output","max_out_of_orderness_ms":2000,"allowed_lateness_ms":0,"idleness_ms":0,"events_per_second":20,"keys":8,"delay":{"network_ms":50,"jitter_ms":200,"tail_probability":0.05,"tail_mean_ms":5000},"offline":{"devices":0,"duration_ms":30000},"skew":{"devices":0,"clock_skew_ms":-30000},"outage":{"start_ms":30000,"duration_ms":0,"catch_up_records_per_second":200},"version":1,"seed":42,"duration_ms":60000,"topic":{"name":"events","partitions":6},"producer":{"rate_per_s":200,"key_count":50,"key_skew":0.0,"linger_ms":5},"broker":{"group_initial_rebalance_delay_ms":3000},"groups":{"0":{"group_id":"search","members":3,"partition_assignment_strategy":"range","roundrobin","sticky","cooperative-sticky","max_poll_records":500,"enable_auto_commit":true,"auto_commit_interval_ms":5000,"fetch_max_wait_ms":500,"processing":{"time_ms":10,"distribution":"constant","uniform","exponential"},"session_timeout_ms":45000,"heartbeat_interval_ms":3000,"max_poll_interval_ms":300000,"static_membership":false,"commit_on_revoke":false}},"schedule":[{"action":"start","leave","crash","at_ms":10001,"group_id":"search","member_id":"c1"},{"action":{"pause":{"duration_ms":10000}},{"action":{"slow_down":{"duration_ms":15000,"factor":4}},{"action":{"restart":{"down_ms":10000}},"at_ms":20001,"group_id":"search","member_id":"c2"}]}"#;

/// Raw DEFLATE of `data`, with `dictionary` as the window it may refer back to.
pub fn deflate(dictionary: &[u8], data: &[u8]) -> Vec<u8> {
    super::fixed_deflate::deflate(dictionary, data)
}

/// Inflates what [`deflate`] made with the same dictionary; `None` if the data is damaged or
/// would inflate past `limit` bytes.
pub fn inflate(dictionary: &[u8], compressed: &[u8], limit: usize) -> Option<Vec<u8>> {
    super::inflate::inflate(dictionary, compressed, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_the_dictionary_pays() {
        let data = br#"{"groups":{"0":{"max_poll_records":100,"members":4}}}"#;
        let primed = deflate(DICTIONARY_V2, data);
        assert_eq!(inflate(DICTIONARY_V2, &primed, 1024).unwrap(), data);
        let plain = miniz_oxide::deflate::compress_to_vec(data, 9);
        assert!(
            primed.len() * 3 < plain.len() * 2,
            "{} vs {}",
            primed.len(),
            plain.len()
        );
    }

    #[test]
    fn damaged_or_oversized_data_is_refused() {
        assert!(inflate(DICTIONARY_V2, &[0xff, 0x00, 0x12], 1024).is_none());
        assert!(inflate(DICTIONARY_V2, &[], 1024).is_none());
        let big = deflate(DICTIONARY_V2, &[b'a'; 5000]);
        assert!(inflate(DICTIONARY_V2, &big, 1000).is_none());
    }
}
