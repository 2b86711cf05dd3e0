//! The `delivery` bundle of the site: the consumer-group family's delivery lesson alone.

fn main() {
    streamlab_web::start(&streamlab_web::bundles::DELIVERY);
}
