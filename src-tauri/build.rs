use std::path::Path;

/// The IPC calls declared in `ipc_calls!` (src/ipc/mod.rs): each `fn name(state`
/// line inside the macro. Read from the source so the list is written once; a test in the
/// crate checks it against the macro's own list and the window's capability.
fn command_names(source: &str) -> Vec<String> {
    let Some(start) = source.find("ipc_calls! {") else {
        return Vec::new();
    };
    source[start..]
        .lines()
        .filter_map(|line| {
            let rest = line.trim_start().strip_prefix("fn ")?;
            let (name, args) = rest.split_once('(')?;
            (args.starts_with("state") && name.chars().all(|c| c.is_ascii_lowercase() || c == '_'))
                .then(|| name.to_owned())
        })
        .collect()
}

/// How the release binaries are linked on x86_64 Linux, where rustc links with its own LLD:
/// - relative relocations packed (DT_RELR, glibc 2.36+): the 1.2 MB relocation table the
///   loader reads at every start, and keeps resident, shrinks to a few kilobytes;
/// - memo-desktop's functions in the order `src-tauri/startup-order.txt` gives: the code
///   a start runs sits together, so the kernel, which maps code 64 KB around every page
///   touched, keeps far less of the binary resident. A name the build no longer has is
///   skipped (`scripts/startup-order.sh` writes the file again).
///
/// `MEMO_LINK_MAP=FILE` also writes the linker's map (where each function landed), which
/// that script reads.
fn release_link_args() {
    let release = std::env::var("PROFILE").is_ok_and(|p| p == "release");
    let target = std::env::var("TARGET").unwrap_or_default();
    if !release || target != "x86_64-unknown-linux-gnu" {
        return;
    }
    // Only this build reads them: a new order does not rebuild the debug app.
    println!("cargo:rerun-if-env-changed=MEMO_LINK_MAP");
    println!("cargo:rerun-if-changed={ORDER_FILE}");
    println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    if let Ok(order) = Path::new(ORDER_FILE).canonicalize() {
        println!(
            "cargo:rustc-link-arg-bin=memo-desktop=-Wl,--symbol-ordering-file={}",
            order.display()
        );
        println!("cargo:rustc-link-arg-bin=memo-desktop=-Wl,--no-warn-symbol-ordering");
    }
    if let Ok(map) = std::env::var("MEMO_LINK_MAP") {
        println!("cargo:rustc-link-arg-bin=memo-desktop=-Wl,-Map={map}");
    }
}

const ORDER_FILE: &str = "src-tauri/startup-order.txt";

fn main() {
    release_link_args();
    let calls_file = Path::new("src-tauri/src/ipc/mod.rs");
    println!("cargo:rerun-if-changed={}", calls_file.display());
    let source = match std::fs::read_to_string(calls_file) {
        Ok(source) => source,
        Err(error) => panic!("cannot read {}: {error}", calls_file.display()),
    };
    let names = command_names(&source);
    if names.is_empty() {
        panic!("no IPC calls found in {}", calls_file.display());
    }
    // The manifest wants `&'static [&'static str]`; a build script runs once, so leaking
    // the short list is the plain way to give it that.
    let names: &'static [&'static str] = Box::leak(
        names
            .into_iter()
            .map(|n| &*Box::leak(n.into_boxed_str()))
            .collect::<Vec<&'static str>>()
            .into_boxed_slice(),
    );
    // tauri.conf.json sits at the repository root (the Tauri CLI wants it beside the
    // package's Cargo.toml), so the default `capabilities/` lookup would miss ours.
    //
    // Listing the app's commands in an app manifest makes each one an explicit
    // `allow-<command>` permission: a window can only call what its capability grants,
    // instead of every registered command being reachable by default.
    // tauri-build watches only its default folder, so a capability edited here would
    // otherwise not reach the build until something else changed.
    println!("cargo:rerun-if-changed=src-tauri/capabilities");
    let attributes = tauri_build::Attributes::new()
        .capabilities_path_pattern("src-tauri/capabilities/**/*")
        .app_manifest(tauri_build::AppManifest::new().commands(names));
    if let Err(error) = tauri_build::try_build(attributes) {
        // A build script has no caller to return to; cargo shows this message.
        panic!("tauri-build failed: {error:#}");
    }
}
