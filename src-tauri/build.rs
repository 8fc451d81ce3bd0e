fn main() {
    // tauri.conf.json sits at the repository root (the Tauri CLI wants it beside the
    // package's Cargo.toml), so the default `capabilities/` lookup would miss ours.
    //
    // Listing the app's commands in an app manifest makes each one an explicit
    // `allow-<command>` permission: a window can only call what its capability grants,
    // instead of every registered command being reachable by default.
    let attributes = tauri_build::Attributes::new()
        .capabilities_path_pattern("src-tauri/capabilities/**/*")
        .app_manifest(tauri_build::AppManifest::new().commands(&[
            "app_info",
            "list_providers",
            "start_session",
            "resume_session",
            "list_sessions",
            "subscribe_session",
            "submit_op",
            "rename_session",
            "delete_session",
            "rewind_session",
            "search_sessions",
            "key_status",
            "set_api_key",
            "delete_api_key",
            "prompt_layers",
        ]));
    if let Err(error) = tauri_build::try_build(attributes) {
        // A build script has no caller to return to; cargo shows this message.
        panic!("tauri-build failed: {error:#}");
    }
}
