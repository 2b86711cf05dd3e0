//! A bundle's own style rules: the CSS of the families whose components it draws
//! (`static/families/`), compiled into the bundle and added to the page's head when it starts.
//! The page's style sheets hold only what every page needs, so opening a lesson downloads no
//! other family's rules.

/// Adds `styles` to the page as one `<style>` element, after the page's own sheets, before the
/// app first renders (so nothing shows unstyled). Without a document there is nothing to style.
pub fn install(styles: &[&str]) {
    if styles.is_empty() {
        return;
    }
    let Some(document) = web_sys::window().and_then(|window| window.document()) else {
        return;
    };
    let (Ok(style), Some(head)) = (document.create_element("style"), document.head()) else {
        return;
    };
    style.set_text_content(Some(&styles.concat()));
    let _ = head.append_child(&style);
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_bindgen_test::wasm_bindgen_test;

    #[wasm_bindgen_test]
    fn a_bundles_rules_style_the_page() {
        let window = web_sys::window().unwrap();
        let document = window.document().unwrap();
        let probe = document.create_element("p").unwrap();
        probe.set_class_name("family-style-probe");
        document.body().unwrap().append_child(&probe).unwrap();
        let margin = || {
            let style = window.get_computed_style(&probe).unwrap().unwrap();
            style.get_property_value("margin-left").unwrap()
        };
        assert_ne!(margin(), "17px");
        install(&[
            ".other { margin: 0; }",
            ".family-style-probe { margin-left: 17px; }",
        ]);
        assert_eq!(margin(), "17px");
        probe.remove();
    }
}
