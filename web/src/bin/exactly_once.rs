//! The `exactly_once` bundle of the site: the `exactly_once` family's lessons.

fn main() {
    streamlab_web::start(&streamlab_web::bundles::EXACTLY_ONCE);
}
