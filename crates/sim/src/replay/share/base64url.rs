//! Unpadded base64url (RFC 4648, section 5), the alphabet a share link's payload is written in.
//!
//! Written here rather than taken from a general crate for the same reason as the link's
//! DEFLATE: every lesson's download carries it, and the general engine's chunked decoder, its
//! configurations and their panics weighed about 2.8 KiB gzipped where this is a few hundred
//! bytes. It reads exactly what that engine's `URL_SAFE_NO_PAD` reads (a property test holds
//! the two together): the 64 URL-safe symbols, no padding, no length that leaves a lone
//! symbol, and no set bits after the last whole byte, so every payload has one spelling.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Why a payload is not base64url; which symbol or length does not matter to a learner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotBase64Url;

/// `bytes` in unpadded base64url: four symbols per three bytes, two or three for a tail of
/// one or two.
pub fn encode(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let group = chunk.iter().enumerate().fold(0u32, |group, (i, &byte)| {
            group | u32::from(byte) << (16 - 8 * i)
        });
        // A chunk of n bytes takes n + 1 symbols: 8n bits in 6-bit steps, rounded up.
        for i in 0..=chunk.len() {
            let index = (group >> (18 - 6 * i)) & 63;
            text.push(char::from(ALPHABET[index as usize]));
        }
    }
    text
}

/// The bytes `text` spells, or why it spells none.
pub fn decode(text: &str) -> Result<Vec<u8>, NotBase64Url> {
    let symbols = text.as_bytes();
    if symbols.len() % 4 == 1 {
        return Err(NotBase64Url);
    }
    let mut bytes = Vec::with_capacity(symbols.len() / 4 * 3 + 2);
    for chunk in symbols.chunks(4) {
        let mut group = 0u32;
        for (i, &symbol) in chunk.iter().enumerate() {
            group |= value_of(symbol)? << (18 - 6 * i);
        }
        // n symbols carry 6n bits: n - 1 whole bytes, and the bits after them must be zero.
        let whole = chunk.len() - 1;
        if group & (0x00ff_ffff >> (8 * whole)) != 0 {
            return Err(NotBase64Url);
        }
        bytes.extend((0..whole).map(|i| (group >> (16 - 8 * i)) as u8));
    }
    Ok(bytes)
}

fn value_of(symbol: u8) -> Result<u32, NotBase64Url> {
    let value = match symbol {
        b'A'..=b'Z' => symbol - b'A',
        b'a'..=b'z' => symbol - b'a' + 26,
        b'0'..=b'9' => symbol - b'0' + 52,
        b'-' => 62,
        b'_' => 63,
        _ => return Err(NotBase64Url),
    };
    Ok(u32::from(value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use base64::Engine;
    use proptest::prelude::*;

    #[test]
    fn the_rfc_examples_in_the_url_safe_alphabet() {
        // RFC 4648, section 10, without the padding; then the two symbols base64url changes.
        let cases = [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, coded) in cases {
            assert_eq!(encode(plain.as_bytes()), coded);
            assert_eq!(decode(coded).unwrap(), plain.as_bytes());
        }
        assert_eq!(encode(&[0xfb, 0xff]), "-_8");
        assert_eq!(decode("-_8").unwrap(), [0xfb, 0xff]);
    }

    #[test]
    fn padding_lone_symbols_stray_bits_and_other_alphabets_are_refused() {
        for text in [
            "Zg==", "Zm9vY", "Zm9vA", "A", "Zh", "Zm9", "+/8", "Zm 9v", "Zm9v\n", "é",
        ] {
            let reference = URL_SAFE_NO_PAD.decode(text).ok();
            assert_eq!(decode(text).ok(), reference, "{text:?}");
        }
        assert_eq!(
            decode("Zh"),
            Err(NotBase64Url),
            "a set bit after the last byte"
        );
        assert_eq!(decode("Zm9vY"), Err(NotBase64Url), "a lone last symbol");
        assert_eq!(
            decode("Zm9vA"),
            Err(NotBase64Url),
            "a lone last symbol with no bits set"
        );
    }

    /// Strings mostly of the alphabet, sometimes with a symbol of another (padding, the
    /// standard alphabet's two, a space, a multi-byte character).
    fn payloads() -> impl Strategy<Value = String> {
        let symbol = prop_oneof![
            20 => proptest::sample::select(ALPHABET.to_vec()).prop_map(char::from),
            1 => proptest::sample::select(vec!['=', '+', '/', ' ', 'é', '.']),
        ];
        proptest::collection::vec(symbol, 0..40).prop_map(|s| s.into_iter().collect())
    }

    proptest! {
        #[test]
        fn encoding_matches_the_general_engine_and_reads_back(
            bytes in proptest::collection::vec(any::<u8>(), 0..200),
        ) {
            let text = encode(&bytes);
            prop_assert_eq!(&text, &URL_SAFE_NO_PAD.encode(&bytes));
            prop_assert_eq!(decode(&text).unwrap(), bytes);
        }

        #[test]
        fn decoding_accepts_and_refuses_what_the_general_engine_does(text in payloads()) {
            prop_assert_eq!(decode(&text).ok(), URL_SAFE_NO_PAD.decode(&text).ok());
        }
    }
}
