//! The `eventtime` bundle of the site: the `eventtime` family's lessons.

fn main() {
    streamlab_web::start(&streamlab_web::bundles::EVENTTIME);
}
