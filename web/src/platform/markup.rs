//! Markup written as text, for pictures handed to Yew whole (`Html::from_html_unchecked`).
//!
//! Yew builds each element of an `html!` tree with code of its own, and for the busiest
//! pictures (the gallery's thumbnails, the kafka diagram) that code weighed far more in the
//! download than the same markup written as format strings. Text that a link can set (a
//! topic's, a group's or a member's name) goes through [`Escaped`], so it can never become
//! markup.

use std::fmt::{self, Write as _};
use yew::Html;

/// Markup written by `write`, as one Yew node. Yew leaves it alone while its text is unchanged
/// and replaces it whole when the text changes.
pub fn written(write: impl FnOnce(&mut String)) -> Html {
    let mut out = String::with_capacity(1024);
    write(&mut out);
    Html::from_html_unchecked(out.into())
}

/// Appends formatted markup (writing to a `String` cannot fail).
pub fn put(out: &mut String, markup: fmt::Arguments) {
    let _ = out.write_fmt(markup);
}

/// Text written so that markup reads it as text, in an element or in a quoted attribute.
pub struct Escaped<'a>(pub &'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, out: &mut fmt::Formatter) -> fmt::Result {
        let mut rest = self.0;
        while let Some(at) = rest.find(['&', '<', '>', '"', '\'']) {
            out.write_str(&rest[..at])?;
            out.write_str(match rest.as_bytes()[at] {
                b'&' => "&amp;",
                b'<' => "&lt;",
                b'>' => "&gt;",
                b'"' => "&quot;",
                _ => "&#39;",
            })?;
            rest = &rest[at + 1..];
        }
        out.write_str(rest)
    }
}

#[cfg(test)]
mod tests {
    use super::{put, Escaped};
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn names_that_look_like_markup_stay_text() {
        assert_eq!(
            Escaped(r#"<img src=x onerror="alert('x')">&"#).to_string(),
            "&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;"
        );
    }

    #[wasm_bindgen_test]
    fn plain_text_is_written_as_it_is() {
        assert_eq!(
            Escaped("orders · group-1 ✓").to_string(),
            "orders · group-1 ✓"
        );
        assert_eq!(Escaped("").to_string(), "");
    }

    #[wasm_bindgen_test]
    fn markup_is_appended() {
        let mut out = String::from("<g>");
        put(&mut out, format_args!("<text>{}</text>", Escaped("a<b")));
        assert_eq!(out, "<g><text>a&lt;b</text>");
    }
}
