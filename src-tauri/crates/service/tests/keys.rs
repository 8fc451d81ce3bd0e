//! API keys through the service: stored in a credential store, never returned.

mod support;

use std::sync::Arc;

use memo_config::{CredentialStore, MemoryCredentialStore};
use memo_protocol::ErrorCode;
use memo_service::StartRequest;
use support::service_at;

const REMOTE: &str = "current_provider = \"remote\"\n[[providers.remote]]\nname = \"remote\"\nmodel = \"m\"\nbase_url = \"https://api.example.invalid/v1\"\nenv_api_key = \"MEMO_TEST_SURELY_UNSET_KEY_VAR\"\n[[providers.local]]\nname = \"local\"\nmodel = \"m\"\nbase_url = \"http://127.0.0.1:9/v1\"\napi = \"anthropic\"\n";

fn setup() -> (
    tempfile::TempDir,
    memo_service::Service,
    Arc<MemoryCredentialStore>,
) {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("config.toml"), REMOTE).unwrap();
    let keys = Arc::new(MemoryCredentialStore::new());
    let service = service_at(home.path(), keys.clone());
    (home, service, keys)
}

#[test]
fn providers_are_listed_with_their_wire_api_and_the_current_one() {
    let (_home, service, _keys) = setup();
    let providers = service.list_providers().unwrap();
    let names: Vec<(&str, &str, bool)> = providers
        .iter()
        .map(|p| (p.name.as_str(), p.api.as_str(), p.is_current))
        .collect();
    assert_eq!(
        names,
        [("remote", "openai", true), ("local", "anthropic", false)]
    );
}

/// The window shows this error as it comes (file:line, the names configured); it works
/// nothing out from the list itself.
#[test]
fn a_current_provider_the_file_does_not_define_is_a_config_error_naming_its_line() {
    let (home, service, _keys) = setup();
    let typo = REMOTE.replace(
        "current_provider = \"remote\"",
        "current_provider = \"remot\"",
    );
    std::fs::write(home.path().join("config.toml"), typo).unwrap();
    let err = service.list_providers().unwrap_err();
    assert_eq!(err.code(), ErrorCode::Config);
    let message = err.to_string();
    assert!(message.contains("config.toml:1"), "{message}");
    assert!(
        message.contains("\"remot\"") && message.contains("remote, local"),
        "{message}"
    );
}

#[test]
fn status_set_and_delete_go_through_the_keychain_without_returning_the_key() {
    let (_home, service, keys) = setup();
    let before = service.key_status("remote").unwrap();
    assert_eq!(before.source, None);
    assert!(before.required);
    assert!(!service.key_status("local").unwrap().required);

    let after = service.set_api_key("remote", "  sk-test-123  ").unwrap();
    assert_eq!(after.source.as_deref(), Some("OS keychain"));
    assert_eq!(
        keys.get("remote").unwrap().map(|k| k.expose().to_owned()),
        Some("sk-test-123".to_owned())
    );
    assert!(!format!("{after:?}").contains("sk-test-123"));
    let removed = service.delete_api_key("remote").unwrap();
    assert_eq!(removed.source, None);
    assert!(keys.get("remote").unwrap().is_none());
}

#[test]
fn bad_keys_and_unknown_providers_are_refused_and_store_nothing() {
    let (_home, service, keys) = setup();
    for bad in ["", "   ", "sk with spaces", "line\nbreak"] {
        let error = service.set_api_key("remote", bad).unwrap_err();
        assert_eq!(error.code(), ErrorCode::InvalidInput, "{bad:?}");
    }
    assert!(keys.get("remote").unwrap().is_none());
    let unknown = service.set_api_key("nope", "sk-1").unwrap_err();
    assert_eq!(unknown.code(), ErrorCode::NotFound);
    assert!(keys.get("nope").unwrap().is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_without_a_key_fails_with_missing_key_until_one_is_stored() {
    let (_home, service, _keys) = setup();
    let work = tempfile::tempdir().unwrap();
    let request = StartRequest {
        cwd: work.path().to_path_buf(),
        ..StartRequest::default()
    };
    let error = service.start_session(request.clone()).unwrap_err();
    assert_eq!(error.code(), ErrorCode::MissingKey);
    assert!(error.to_string().contains("remote"), "{error}");
    service.set_api_key("remote", "sk-test-456").unwrap();
    service.start_session(request).unwrap();
    service.shutdown().await;
}

#[test]
fn without_a_keychain_a_key_is_refused_not_kept_in_memory() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(home.path().join("config.toml"), REMOTE).unwrap();
    let service = memo_service::Service::new(
        Ok(memo_config::MemoHome::at(home.path())),
        Arc::new(memo_config::UnavailableCredentialStore::new(
            "no Secret Service on this system",
        )),
        Arc::new(|_: &str| None),
    );
    let error = service.set_api_key("remote", "sk-1").unwrap_err();
    assert_eq!(error.code(), ErrorCode::Unavailable);
    let message = error.to_string();
    assert!(message.contains("no Secret Service"), "{message}");
    assert!(message.contains("environment variable"), "{message}");
    assert_eq!(service.key_status("remote").unwrap().source, None);
}
