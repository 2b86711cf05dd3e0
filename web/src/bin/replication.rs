//! The `replication` bundle of the site: the `replication` family's lessons.

fn main() {
    streamlab_web::start(&streamlab_web::bundles::REPLICATION);
}
