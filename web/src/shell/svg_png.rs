//! Saves SVG pictures as PNG: the pictures' colours come from the theme's CSS, which a
//! standalone SVG file does not carry, so every element's computed paint and type are written
//! onto a copy first. The copies of all matching pictures are stacked into one SVG, drawn on a
//! canvas at twice their size and downloaded.

use crate::platform::typed_number::parse_decimal;
use crate::shell::export::click_download;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlCanvasElement, HtmlImageElement, SvgsvgElement};

const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// The style properties that decide how an SVG element looks.
const PAINT: [&str; 16] = [
    "fill",
    "fill-opacity",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "stroke-opacity",
    "stroke-linejoin",
    // A halo (a count's outline in its box's fill) is painted under the glyphs, not over them.
    "paint-order",
    "opacity",
    "font-family",
    "font-size",
    "font-weight",
    "font-style",
    "text-anchor",
    "dominant-baseline",
    "visibility",
];

/// Pixels per SVG unit in the PNG, for a sharp picture on dense screens and slides.
const SCALE: f64 = 2.0;

/// Downloads every SVG matching `selector` as one PNG named `name`, stacked top to bottom.
/// Returns false when the page has no such picture.
pub fn download_svg(selector: &str, name: &str) -> bool {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    let Some((xml, width, height)) = stacked_svg(&document, selector) else {
        return false;
    };
    let Ok(image) = HtmlImageElement::new() else {
        return false;
    };
    let name = name.to_string();
    let drawn = image.clone();
    let onload = Closure::once_into_js(move || {
        if let Some(url) = rasterise(&document, &drawn, width, height) {
            click_download(&name, &url);
        }
    });
    image.set_onload(Some(onload.unchecked_ref()));
    let encoded = String::from(js_sys::encode_uri_component(&xml));
    image.set_src(&format!("data:image/svg+xml;charset=utf-8,{encoded}"));
    true
}

/// One SVG document holding a themed copy of each matching picture, and its size.
fn stacked_svg(document: &Document, selector: &str) -> Option<(String, f64, f64)> {
    let found = document.query_selector_all(selector).ok()?;
    let root = document.create_element_ns(Some(SVG_NS), "svg").ok()?;
    let paper = background(document);
    let background_rect = document.create_element_ns(Some(SVG_NS), "rect").ok()?;
    root.append_child(&background_rect).ok()?;
    let (mut width, mut height) = (0.0f64, 0.0f64);
    for i in 0..found.length() {
        let Some(svg) = found
            .item(i)
            .and_then(|n| n.dyn_into::<SvgsvgElement>().ok())
        else {
            continue;
        };
        let (w, h) = size_of(&svg);
        let copy = themed_copy(&svg)?;
        for (attribute, value) in [
            ("x", "0".to_string()),
            ("y", height.to_string()),
            ("width", w.to_string()),
            ("height", h.to_string()),
        ] {
            copy.set_attribute(attribute, &value).ok()?;
        }
        root.append_child(&copy).ok()?;
        width = width.max(w);
        height += h;
    }
    if height == 0.0 {
        return None;
    }
    for (element, attribute, value) in [
        (&root, "xmlns", SVG_NS.to_string()),
        (&root, "width", (width * SCALE).to_string()),
        (&root, "height", (height * SCALE).to_string()),
        (&root, "viewBox", format!("0 0 {width} {height}")),
        (&background_rect, "width", width.to_string()),
        (&background_rect, "height", height.to_string()),
        (&background_rect, "fill", paper),
    ] {
        element.set_attribute(attribute, &value).ok()?;
    }
    let xml = web_sys::XmlSerializer::new()
        .ok()?
        .serialize_to_string(&root)
        .ok()?;
    Some((xml, width * SCALE, height * SCALE))
}

/// The picture's own coordinate size: its viewBox, or its size on screen without one.
fn size_of(svg: &SvgsvgElement) -> (f64, f64) {
    let view: Vec<f64> = svg
        .get_attribute("viewBox")
        .unwrap_or_default()
        .split([' ', ','])
        .filter_map(parse_decimal)
        .collect();
    match view[..] {
        [_, _, w, h] if w > 0.0 && h > 0.0 => (w, h),
        _ => {
            let rect = svg.get_bounding_client_rect();
            (rect.width(), rect.height())
        }
    }
}

/// A deep copy of `svg` with each element's computed paint written into its style.
fn themed_copy(svg: &SvgsvgElement) -> Option<Element> {
    let window = web_sys::window()?;
    let copy = svg
        .clone_node_with_deep(true)
        .ok()?
        .dyn_into::<Element>()
        .ok()?;
    let originals = svg.query_selector_all("*").ok()?;
    let copies = copy.query_selector_all("*").ok()?;
    let pairs = std::iter::once((svg.clone().unchecked_into::<Element>(), copy.clone())).chain(
        (0..originals.length()).filter_map(|i| {
            let original = originals.item(i)?.dyn_into::<Element>().ok()?;
            let copied = copies.item(i)?.dyn_into::<Element>().ok()?;
            Some((original, copied))
        }),
    );
    for (original, copied) in pairs {
        let Ok(Some(computed)) = window.get_computed_style(&original) else {
            continue;
        };
        let style: String = PAINT
            .iter()
            .filter_map(|p| {
                let value = computed.get_property_value(p).ok()?;
                (!value.is_empty()).then(|| format!("{p}:{value};"))
            })
            .collect();
        copied.set_attribute("style", &style).ok()?;
    }
    Some(copy)
}

/// The theme's paper colour, as the page's body shows it.
fn background(document: &Document) -> String {
    document
        .body()
        .and_then(|body| web_sys::window()?.get_computed_style(&body).ok().flatten())
        .and_then(|style| style.get_property_value("background-color").ok())
        .filter(|colour| !colour.is_empty())
        .unwrap_or_else(|| "#ffffff".to_string())
}

/// Draws the loaded picture on a fresh canvas and returns it as a PNG data URL.
fn rasterise(
    document: &Document,
    image: &HtmlImageElement,
    width: f64,
    height: f64,
) -> Option<String> {
    let canvas = document
        .create_element("canvas")
        .ok()?
        .dyn_into::<HtmlCanvasElement>()
        .ok()?;
    canvas.set_width(width.ceil() as u32);
    canvas.set_height(height.ceil() as u32);
    let context = canvas
        .get_context("2d")
        .ok()??
        .dyn_into::<web_sys::CanvasRenderingContext2d>()
        .ok()?;
    context
        .draw_image_with_html_image_element_and_dw_and_dh(image, 0.0, 0.0, width, height)
        .ok()?;
    canvas.to_data_url_with_type("image/png").ok()
}
