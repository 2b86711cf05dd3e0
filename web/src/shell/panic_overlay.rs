//! The panic overlay: a Rust panic in the browser becomes a visible, copyable report.
//!
//! After a panic the wasm instance cannot be trusted to run again, so the overlay is plain DOM
//! built inside the panic hook, and its "Copy report" button uses an inline script attribute
//! rather than a Rust closure: it keeps working when the wasm side is dead.

use wasm_bindgen::JsCast;

const OVERLAY_ID: &str = "panic-overlay";

/// Installs the hook; later panics show the overlay (once) and log to the console. It goes
/// through Yew, which otherwise installs its own console-only hook when the app first renders.
pub fn install() {
    yew::set_custom_panic_hook(Box::new(|info| {
        let report = build_report(&info.to_string());
        web_sys::console::error_1(&report.clone().into());
        show(&report);
    }));
}

fn build_report(panic_message: &str) -> String {
    let window = web_sys::window();
    let href = window
        .as_ref()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let agent = window
        .as_ref()
        .and_then(|w| w.navigator().user_agent().ok())
        .unwrap_or_default();
    format!(
        "Streamlab {} stopped with an internal error.\n\n{panic_message}\n\nLink to reproduce: {href}\nBrowser: {agent}\n",
        env!("CARGO_PKG_VERSION")
    )
}

fn show(report: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if document.get_element_by_id(OVERLAY_ID).is_some() {
        return;
    }
    let Ok(overlay) = document.create_element("div") else {
        return;
    };
    overlay.set_id(OVERLAY_ID);
    let _ = overlay.set_attribute("role", "alertdialog");
    let _ = overlay.set_attribute("aria-labelledby", "panic-title");
    overlay.set_inner_html(concat!(
        "<div class=\"panic-box\">",
        "<h2 id=\"panic-title\">Something went wrong inside Streamlab</h2>",
        "<p>The simulation stopped. Reload the page to start again; if you send the report ",
        "below to the course team, it contains the link that reproduces the problem.</p>",
        "<textarea id=\"panic-report\" readonly rows=\"10\"></textarea>",
        "<p><button type=\"button\" onclick=\"navigator.clipboard &amp;&amp; ",
        "navigator.clipboard.writeText(document.getElementById('panic-report').value)",
        ".then(function(){this.textContent='Copied'}.bind(this))\">Copy report</button> ",
        "<button type=\"button\" onclick=\"location.reload()\">Reload</button></p>",
        "</div>"
    ));
    if let Some(body) = document.body() {
        let _ = body.append_child(&overlay);
    }
    if let Some(area) = document
        .get_element_by_id("panic-report")
        .and_then(|e| e.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
    {
        area.set_value(report);
    }
}
