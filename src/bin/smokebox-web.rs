//! The web page's entry point: `web/build.sh` builds it for wasm32 and wasm-bindgen calls `main`
//! when the page loads. Natively it only says so.

#[cfg(target_arch = "wasm32")]
fn main() {
    smokebox::app::run_web();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("smokebox-web: this is the web page's entry point; build the page with web/build.sh (README, section Web)");
    std::process::exit(2);
}
