//! The `kafka` bundle of the site: the `kafka` family's lessons.

fn main() {
    streamlab_web::start(&streamlab_web::bundles::KAFKA);
}
