//! Reading a number out of text the page holds: what a learner typed into a knob's box, or a
//! picture's `viewBox`.
//!
//! The text goes through the browser's own number parser (`Number(text)` in JavaScript), not
//! Rust's `str::parse::<f64>`: that one brings its tables of powers of five into every bundle
//! (about 14 KB of code and data, poorly compressible), and the page has a correct parser
//! already. Both round a decimal to the nearest double, so the result is the same. Only plain
//! decimals are read (digits, one sign, a point, an exponent), as `str::parse` would: the
//! browser alone would also take hexadecimal, `Infinity` and an empty box (as zero).

/// The finite number `text` spells, surrounding blanks aside; `None` for anything else.
pub fn parse_decimal(text: &str) -> Option<f64> {
    let text = text.trim();
    if !spells_a_decimal(text) {
        return None;
    }
    let value = js_sys::Number::from(wasm_bindgen::JsValue::from_str(text)).value_of();
    value.is_finite().then_some(value)
}

/// Whether `text` has the shape of a plain decimal: a sign, digits with at most one point (at
/// least one digit), and an exponent with digits.
fn spells_a_decimal(text: &str) -> bool {
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let mantissa = mantissa.strip_prefix(['+', '-']).unwrap_or(mantissa);
    let mut parts = mantissa.splitn(2, '.');
    let whole = parts.next().unwrap_or_default();
    let fraction = parts.next().unwrap_or_default();
    let digits_only = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok =
        digits_only(whole) && digits_only(fraction) && !(whole.is_empty() && fraction.is_empty());
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['+', '-']).unwrap_or(e);
        !e.is_empty() && digits_only(e)
    });
    mantissa_ok && exponent_ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn plain_decimals_read_as_rust_reads_them() {
        for text in [
            "0",
            "7",
            "-3",
            "+12",
            "1.5",
            ".5",
            "5.",
            "1e3",
            "2.5E-2",
            "-0.125",
            "1e+2",
            "0.1",
            "123456789.987654321",
            "3000",
        ] {
            let rust: f64 = text.parse().expect("a decimal");
            assert_eq!(parse_decimal(text), Some(rust), "{text}");
        }
        assert_eq!(parse_decimal("  42 \n"), Some(42.0), "blanks around");
    }

    #[wasm_bindgen_test]
    fn anything_but_a_finite_decimal_is_refused() {
        for text in [
            "", "  ", ".", "-", "+", "e3", "1e", "1e+", "1.2.3", "0x10", "12abc", "1 2",
            "Infinity", "NaN", "inf", "--1", "1e400",
        ] {
            assert_eq!(parse_decimal(text), None, "{text:?}");
        }
    }
}
