//! `init_tracing` installs a process-wide subscriber, so it gets its own test binary.

use memo_config::redact::TracingInitError;
use memo_config::{init_tracing, register_secret};
use memo_model::ApiKey;

const CHILD_ENV: &str = "MEMO_CONFIG_TEST_TRACING_CHILD";
const SECRET: &str = "sk-init-tracing-secret-31337";

/// Child half of `stderr_log_lines_are_redacted`: logs a registered key to stderr.
#[test]
fn tracing_child() {
    if std::env::var(CHILD_ENV).is_err() {
        return;
    }
    init_tracing("info").unwrap();
    register_secret(&ApiKey::new(SECRET));
    tracing::info!(auth = %format!("Bearer {SECRET}"), "request with {SECRET}");
}

/// The real stderr writer, end to end, in a child process.
#[test]
fn stderr_log_lines_are_redacted() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "tracing_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_ENV, "1")
        .env_remove("RUST_LOG")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("request with [REDACTED]"), "{stderr}");
    assert!(stderr.contains("Bearer [REDACTED]"), "{stderr}");
    assert!(!stderr.contains(SECRET), "{stderr}");
}

#[test]
fn installs_once_and_rejects_bad_filters() {
    if std::env::var(CHILD_ENV).is_ok() {
        return;
    }
    if std::env::var_os("RUST_LOG").is_none() {
        let err = init_tracing("memo=notalevel").unwrap_err();
        assert!(matches!(err, TracingInitError::Filter { .. }), "{err:?}");
    }
    init_tracing("warn").unwrap();
    let err = init_tracing("warn").unwrap_err();
    assert!(
        matches!(err, TracingInitError::AlreadyInstalled(_)),
        "{err:?}"
    );
}
