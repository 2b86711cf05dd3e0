//! The `partitions` bundle of the site: the consumer-group family's partitions lesson alone.

fn main() {
    streamlab_web::start(&streamlab_web::bundles::PARTITIONS);
}
