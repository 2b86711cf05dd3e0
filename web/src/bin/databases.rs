//! The `databases` bundle of the site: the `databases` family's lessons.

fn main() {
    streamlab_web::start(&streamlab_web::bundles::DATABASES);
}
