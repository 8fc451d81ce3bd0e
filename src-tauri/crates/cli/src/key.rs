//! `memo-cli key set|delete|status <provider>`: the keychain side of API key resolution.
//! The key is read from stdin so it never appears in shell history or `ps`.

use std::io::Read;
use std::process::ExitCode;

use clap::Subcommand;
use memo_config::{
    process_env, resolve_api_key, ApiKey, Config, CredentialStore, KeyringStore, MemoHome,
};

#[derive(Subcommand)]
pub enum KeyAction {
    /// Store the key read from stdin for a provider.
    Set { provider: String },
    /// Remove a provider's key from the keychain.
    Delete { provider: String },
    /// Tell where the provider's key would come from (never prints the key).
    Status { provider: String },
}

pub fn run(action: KeyAction) -> ExitCode {
    match run_inner(action) {
        Ok(message) => {
            println!("{message}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

fn run_inner(action: KeyAction) -> Result<String, String> {
    let store = KeyringStore::new().map_err(|e| e.to_string())?;
    match action {
        KeyAction::Set { provider } => {
            let mut input = String::new();
            std::io::stdin()
                .read_to_string(&mut input)
                .map_err(|e| format!("cannot read the key from stdin: {e}"))?;
            let key = input.trim();
            if key.is_empty() {
                return Err(
                    "no key on stdin (pipe it in: `printf %s \"$KEY\" | memo-cli key set NAME`)"
                        .into(),
                );
            }
            store
                .set(&provider, &ApiKey::new(key))
                .map_err(|e| e.to_string())?;
            Ok(format!(
                "stored the key for '{provider}' in the OS keychain"
            ))
        }
        KeyAction::Delete { provider } => {
            match store.delete(&provider).map_err(|e| e.to_string())? {
                true => Ok(format!("deleted the key for '{provider}'")),
                false => Ok(format!("no key stored for '{provider}'")),
            }
        }
        KeyAction::Status { provider } => {
            let home = MemoHome::resolve().map_err(|e| e.to_string())?;
            let config = Config::load(&home).map_err(|e| e.to_string())?;
            let provider_config = config
                .provider(Some(&provider))
                .map_err(|e| e.to_string())?;
            match resolve_api_key(&provider_config, &store, &process_env)
                .map_err(|e| e.to_string())?
            {
                Some((_, source)) => Ok(format!("'{provider}': key found ({source})")),
                None => Ok(format!(
                    "'{provider}': no key in the keychain or the environment"
                )),
            }
        }
    }
}
