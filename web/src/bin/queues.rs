//! The `queues` bundle of the site: the `queues` family's lessons.

fn main() {
    streamlab_web::start(&streamlab_web::bundles::QUEUES);
}
