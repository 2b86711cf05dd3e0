//! The `gallery` bundle of the site: the gallery alone: what the bare address loads.

fn main() {
    streamlab_web::start(&streamlab_web::bundles::GALLERY);
}
