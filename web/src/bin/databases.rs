//! The `databases` bundle of the site: the gallery and the `databases` family's lessons.

fn main() {
    streamlab_web::start(&streamlab_web::bundles::DATABASES);
}
