//! The app benchmark's baseline (`scripts/bench-app.sh`): the smallest Tauri app, one window
//! with a static page, built from the same Tauri version, features and profile as Memo.
//! What WebKitGTK and Tauri cost by themselves (start-up, memory) is measured on it, so
//! Memo's own cost is what its figures exceed this by.

fn main() {
    let context = tauri::generate_context!("src-tauri/bench/hello/tauri.conf.json");
    if let Err(error) = tauri::Builder::default().run(context) {
        eprintln!("memo-bench-hello: {error}");
        std::process::exit(1);
    }
}
