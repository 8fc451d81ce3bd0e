//! API key resolution order and the credential stores.

use std::collections::HashMap;
use std::path::Path;

use memo_config::redact::redact;
use memo_config::{
    resolve_api_key, Config, CredentialStore, KeyError, KeySource, KeyringStore,
    MemoryCredentialStore, ProviderConfig,
};
use memo_model::ApiKey;

fn provider(toml: &str) -> ProviderConfig {
    Config::parse(toml, Path::new("config.toml"))
        .unwrap()
        .provider(None)
        .unwrap()
}

fn deepseek() -> ProviderConfig {
    provider("[[providers.deepseek]]\nenv_api_key = \"MY_DS_KEY\"\nmodel = \"deepseek-chat\"\n")
}

fn env_of(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let map: HashMap<String, String> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |name| map.get(name).cloned()
}

/// A keychain that is there but broken (locked, no Secret Service...).
struct BrokenStore;

impl CredentialStore for BrokenStore {
    fn get(&self, _: &str) -> Result<Option<ApiKey>, KeyError> {
        Err(KeyError::Unavailable(
            "org.freedesktop.DBus.Error.ServiceUnknown".into(),
        ))
    }
    fn set(&self, _: &str, _: &ApiKey) -> Result<(), KeyError> {
        Err(KeyError::Unavailable("no".into()))
    }
    fn delete(&self, _: &str) -> Result<bool, KeyError> {
        Err(KeyError::Unavailable("no".into()))
    }
}

fn resolved(r: Result<Option<(ApiKey, KeySource)>, KeyError>) -> Option<(String, KeySource)> {
    r.unwrap().map(|(k, s)| (k.expose().to_owned(), s))
}

#[test]
fn keychain_wins_over_environment() {
    let store = MemoryCredentialStore::new();
    store
        .set("deepseek", &ApiKey::new("sk-from-keychain-123"))
        .unwrap();
    let env = env_of(&[("MY_DS_KEY", "sk-from-env-4567890")]);
    assert_eq!(
        resolved(resolve_api_key(&deepseek(), &store, &env)),
        Some(("sk-from-keychain-123".into(), KeySource::Keychain))
    );
}

#[test]
fn env_api_key_then_memo_code_fallbacks() {
    let store = MemoryCredentialStore::new();
    let p = deepseek();
    let all = [
        ("MY_DS_KEY", "sk-named-var-000001"),
        ("OPENAI_API_KEY", "sk-openai-fallback-01"),
        ("DEEPSEEK_API_KEY", "sk-deepseek-fallback-1"),
    ];
    let src = |vars: &[(&str, &str)]| resolved(resolve_api_key(&p, &store, &env_of(vars)));
    let env = |v: &str| KeySource::Env { var: v.to_owned() };

    assert_eq!(
        src(&all),
        Some(("sk-named-var-000001".into(), env("MY_DS_KEY")))
    );
    assert_eq!(
        src(&all[1..]),
        Some(("sk-openai-fallback-01".into(), env("OPENAI_API_KEY")))
    );
    assert_eq!(
        src(&all[2..]),
        Some(("sk-deepseek-fallback-1".into(), env("DEEPSEEK_API_KEY")))
    );
    // Blank values are absent; surrounding whitespace is trimmed.
    assert_eq!(
        src(&[
            ("MY_DS_KEY", "  \n"),
            ("DEEPSEEK_API_KEY", " sk-padded-key-99\n")
        ]),
        Some(("sk-padded-key-99".into(), env("DEEPSEEK_API_KEY")))
    );
    assert_eq!(src(&[]), None);
    assert_eq!(env("X").to_string(), "environment variable X");
}

#[test]
fn other_apis_never_get_openai_or_deepseek_keys() {
    let store = MemoryCredentialStore::new();
    let claude =
        provider("[[providers.claude]]\nmodel = \"claude-sonnet-4-5\"\napi = \"anthropic\"\n");
    let env = env_of(&[
        ("OPENAI_API_KEY", "sk-openai-fallback-01"),
        ("DEEPSEEK_API_KEY", "sk-deepseek-fallback-1"),
    ]);
    assert_eq!(resolved(resolve_api_key(&claude, &store, &env)), None);
    let env = env_of(&[("ANTHROPIC_API_KEY", "sk-ant-123456789")]);
    assert_eq!(
        resolved(resolve_api_key(&claude, &store, &env)),
        Some((
            "sk-ant-123456789".into(),
            KeySource::Env {
                var: "ANTHROPIC_API_KEY".into()
            }
        ))
    );
}

#[test]
fn broken_keychain_falls_back_to_env_and_reports_when_nothing_found() {
    let env = env_of(&[("MY_DS_KEY", "sk-named-var-000001")]);
    assert_eq!(
        resolved(resolve_api_key(&deepseek(), &BrokenStore, &env)),
        Some((
            "sk-named-var-000001".into(),
            KeySource::Env {
                var: "MY_DS_KEY".into()
            }
        ))
    );
    // No key anywhere: the keychain failure is the useful explanation.
    let err = resolve_api_key(&deepseek(), &BrokenStore, &env_of(&[])).unwrap_err();
    assert!(matches!(err, KeyError::Unavailable(_)), "{err:?}");
}

#[test]
fn resolved_keys_are_registered_for_redaction() {
    let env = env_of(&[("MY_DS_KEY", "sk-must-not-be-logged-42")]);
    let (key, _) = resolve_api_key(&deepseek(), &MemoryCredentialStore::new(), &env)
        .unwrap()
        .unwrap();
    assert_eq!(
        redact(&format!("Authorization: Bearer {}", key.expose())),
        "Authorization: Bearer [REDACTED]"
    );
    // And the key type itself never prints.
    assert_eq!(format!("{key:?} {key}"), "ApiKey(<redacted>) <redacted>");
}

#[test]
fn memory_store_round_trip() {
    let store = MemoryCredentialStore::new();
    assert!(store.get("p").unwrap().is_none());
    store.set("p", &ApiKey::new("k1-aaaaaaaa")).unwrap();
    store.set("p", &ApiKey::new("k2-bbbbbbbb")).unwrap();
    assert_eq!(store.get("p").unwrap().unwrap().expose(), "k2-bbbbbbbb");
    assert!(store.delete("p").unwrap());
    assert!(!store.delete("p").unwrap());
    assert!(store.get("p").unwrap().is_none());
}

/// The real OS keychain. Needs a Secret Service, which CI provides by running this under
/// `dbus-run-session` with an unlocked gnome-keyring-daemon and `MEMO_TEST_KEYRING=1`:
///
/// ```sh
/// XDG_DATA_HOME=$(mktemp -d) dbus-run-session -- sh -c 'echo -n pw | \
///   gnome-keyring-daemon --unlock --components=secrets >/dev/null; \
///   MEMO_TEST_KEYRING=1 cargo test -p memo-config keyring'
/// ```
#[test]
fn keyring_store_round_trip() {
    if std::env::var("MEMO_TEST_KEYRING").as_deref() != Ok("1") {
        eprintln!(
            "skipped: set MEMO_TEST_KEYRING=1 and run under dbus-run-session with an unlocked \
             gnome-keyring-daemon to test the real OS keychain"
        );
        return;
    }
    // A separate service name, so a developer's real keys are never touched.
    let store = KeyringStore::with_service("memo-desktop-test").unwrap();
    let provider = format!("test-provider-{}", std::process::id());
    let key = ApiKey::new("sk-keyring-test-0123456789");

    // Start clean in case an earlier run died halfway.
    store.delete(&provider).unwrap();
    assert!(store.get(&provider).unwrap().is_none());

    store.set(&provider, &key).unwrap();
    assert_eq!(store.get(&provider).unwrap(), Some(key.clone()));

    // A second store instance (as after an app restart) reads the same entry.
    let again = KeyringStore::with_service("memo-desktop-test").unwrap();
    assert_eq!(again.get(&provider).unwrap(), Some(key.clone()));

    // Overwrite, then resolve through the normal path.
    let newer = ApiKey::new("sk-keyring-test-newer-987654");
    store.set(&provider, &newer).unwrap();
    let config = Config::parse(
        &format!("[[providers]]\nname = \"{provider}\"\nmodel = \"m\"\n"),
        Path::new("config.toml"),
    )
    .unwrap();
    let resolved = resolve_api_key(&config.provider(None).unwrap(), &store, &|_| None).unwrap();
    assert_eq!(resolved, Some((newer, KeySource::Keychain)));

    assert!(store.delete(&provider).unwrap());
    assert!(!store.delete(&provider).unwrap());
    assert!(store.get(&provider).unwrap().is_none());
}
