//! `memo-cli key set|delete|status <provider>`: the keychain side of API key resolution.
//! The key is read from stdin so it never appears in shell history or `ps`.

use std::io::Read;
use std::process::ExitCode;

use clap::Subcommand;
use memo_service::{Service, ServiceError};

#[derive(Subcommand)]
pub enum KeyAction {
    /// Store the key read from stdin for a provider of config.toml.
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
        Err(error) => crate::report(&error),
    }
}

fn run_inner(action: KeyAction) -> Result<String, ServiceError> {
    let service = Service::with_keychain(crate::memo_home())?;
    match action {
        KeyAction::Set { provider } => {
            let mut input = String::new();
            std::io::stdin()
                .read_to_string(&mut input)
                .map_err(|e| ServiceError::io("stdin", e))?;
            if input.trim().is_empty() {
                return Err(ServiceError::InvalidInput(
                    "no key on stdin (pipe it in: `printf %s \"$KEY\" | memo-cli key set NAME`)"
                        .into(),
                ));
            }
            service.set_api_key(&provider, &input)?;
            Ok(format!(
                "stored the key for '{provider}' in the OS keychain"
            ))
        }
        KeyAction::Delete { provider } => {
            service.delete_api_key(&provider)?;
            Ok(format!(
                "no key for '{provider}' in the OS keychain any more"
            ))
        }
        KeyAction::Status { provider } => {
            let status = service.key_status(&provider)?;
            Ok(match (status.source, status.keychain_error) {
                (Some(source), _) => format!("'{provider}': key found ({source})"),
                (None, Some(error)) => format!(
                    "'{provider}': no key in the environment; the keychain could not be read: {error}"
                ),
                (None, None) if !status.required => {
                    format!("'{provider}': no key, and none is needed (a server on this machine)")
                }
                (None, None) => format!(
                    "'{provider}': no key in the keychain or the environment"
                ),
            })
        }
    }
}
