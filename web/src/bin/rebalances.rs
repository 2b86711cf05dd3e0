//! The `rebalances` bundle of the site: the consumer-group family's rebalances lesson alone.

fn main() {
    streamlab_web::start(&streamlab_web::bundles::REBALANCES);
}
