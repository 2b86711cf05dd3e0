//! The `joins` bundle of the site: the `joins` family's lessons.

fn main() {
    streamlab_web::start(&streamlab_web::bundles::JOINS);
}
