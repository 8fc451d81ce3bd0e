//! Writes the UI's generated protocol types. Run from anywhere inside the repository.
use std::path::PathBuf;

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let path = root.join(memo_protocol::typescript::GENERATED_PATH);
    if let Some(parent) = path.parent() {
        if let Err(err) = std::fs::create_dir_all(parent) {
            eprintln!("cannot create {}: {err}", parent.display());
            std::process::exit(1);
        }
    }
    if let Err(err) = std::fs::write(&path, memo_protocol::typescript::render()) {
        eprintln!("cannot write {}: {err}", path.display());
        std::process::exit(1);
    }
    println!("wrote {}", path.display());
}
