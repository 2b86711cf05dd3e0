//! Entry point for Trunk: everything lives in the library so wasm-bindgen tests can reach it.

fn main() {
    streamlab_web::start();
}
