//! Model selection over ACP: the session's `model` setting (a `select` session config
//! option, the current protocol's way), its values Memo's configured providers, each with
//! its model. Setting it switches the session as the window's model menu does, from the
//! next turn on.

use memo_protocol::{Op, SessionId};
use memo_service::Service;
use serde_json::Value;

use crate::schema as acp;

/// The setting's id.
pub const MODEL: &str = "model";

/// The session's model setting, with `current` (a provider's name) selected; none when
/// config.toml has no providers to offer.
pub fn options(service: &Service, current: &str) -> Vec<acp::SessionConfigOption> {
    let Ok(providers) = service.list_providers() else {
        return Vec::new();
    };
    if providers.is_empty() {
        return Vec::new();
    }
    let mut values: Vec<acp::SessionConfigSelectOption> = providers
        .iter()
        .map(|p| acp::SessionConfigSelectOption {
            value: p.name.clone(),
            name: format!("{} · {}", p.name, p.model),
            description: Some(p.base_url.clone()),
        })
        .collect();
    // A session on a provider config.toml no longer has keeps it listed, as it runs.
    if !providers.iter().any(|p| p.name == current) {
        values.insert(
            0,
            acp::SessionConfigSelectOption {
                value: current.to_owned(),
                name: current.to_owned(),
                description: None,
            },
        );
    }
    vec![acp::SessionConfigOption {
        id: MODEL.to_owned(),
        name: "Model".to_owned(),
        description: None,
        category: Some("model".to_owned()),
        kind: "select".to_owned(),
        current_value: current.to_owned(),
        options: values,
    }]
}

/// `session/set_config_option` for the model: switches the live session `id` to the
/// provider named, and answers with the settings as they are now.
pub fn set(
    service: &Service,
    id: &SessionId,
    request: &acp::SetSessionConfigOptionRequest,
) -> Result<Vec<acp::SessionConfigOption>, acp::Error> {
    if request.config_id != MODEL {
        return Err(acp::Error::invalid_params().data(format!(
            "no setting {:?}: this agent has {MODEL:?}",
            request.config_id
        )));
    }
    let Value::String(provider) = &request.value else {
        return Err(acp::Error::invalid_params().data("the model is chosen by its value, a string"));
    };
    let known = service
        .list_providers()
        .map_err(|e| acp::Error::internal_error().data(e.to_string()))?;
    if !known.iter().any(|p| &p.name == provider) {
        return Err(acp::Error::invalid_params().data(format!(
            "no provider {provider:?} in config.toml (there are: {})",
            known
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    service
        .submit(
            id,
            Op::SwitchModel {
                provider: Some(provider.clone()),
                model: None,
            },
        )
        .map_err(|e| acp::Error::internal_error().data(e.to_string()))?;
    Ok(options(service, provider))
}
