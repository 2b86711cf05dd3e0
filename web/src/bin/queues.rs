//! The `queues` bundle of the site: the gallery and the `queues` family's lessons.

fn main() {
    streamlab_web::start(&streamlab_web::bundles::QUEUES);
}
