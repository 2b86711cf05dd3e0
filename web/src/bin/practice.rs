//! The `practice` bundle of the site: the `practice` family's lessons.

fn main() {
    streamlab_web::start(&streamlab_web::bundles::PRACTICE);
}
