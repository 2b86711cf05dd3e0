//! The `eventtime` bundle of the site: the gallery and the `eventtime` family's lessons.

fn main() {
    streamlab_web::start(&streamlab_web::bundles::EVENTTIME);
}
