//! Reaching model servers before a session does: "Test connection" sends one real, minimal
//! request and says in one sentence what went wrong; the first-run screen probes this
//! machine for OpenAI-compatible servers (Ollama, llama.cpp, LM Studio, vLLM) and lists
//! their models.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use memo_config::{resolve_api_key, ProviderConfig};
use memo_engine::is_loopback;
use memo_model::ApiKey;
use memo_model::{Message, ModelRequest};
use memo_protocol::{ConnectionReport, LocalServer, Phrase, ProviderInput};
use memo_providers::{create_client, Endpoint, ProviderError};

use crate::error::Result;
use crate::service::Service;
use crate::settings::wire_api;

/// A test answers in seconds or not at all; a local model reading its first prompt on a
/// busy CPU can take a while, so the limit is generous.
const TEST_TIMEOUT: Duration = Duration::from_secs(45);
/// A probe of a port that nothing listens on fails at once; one that hangs is not a
/// server worth offering.
const PROBE_TIMEOUT: Duration = Duration::from_millis(1500);

/// The ports local model servers listen on by default: (kind, label, port).
pub const LOCAL_SERVERS: [(&str, &str, u16); 4] = [
    ("ollama", "Ollama", 11434),
    ("llama.cpp", "llama.cpp server", 8080),
    ("lm-studio", "LM Studio", 1234),
    ("vllm", "vLLM", 8000),
];

fn report(ok: bool, outcome: &str, phrase: Phrase, started: Instant) -> ConnectionReport {
    ConnectionReport {
        ok,
        outcome: outcome.to_owned(),
        message: phrase.english(),
        phrase,
        elapsed_ms: started.elapsed().as_millis() as u64,
    }
}

impl Service {
    /// Sends one tiny request ("reply with OK", a few output tokens) to `provider` with
    /// `key` (a key typed but not stored yet), or else the key stored for it or set in
    /// the environment.
    pub async fn test_connection(
        &self,
        provider: &ProviderInput,
        key: Option<&str>,
    ) -> Result<ConnectionReport> {
        self.test_connection_within(provider, key, TEST_TIMEOUT)
            .await
    }

    async fn test_connection_within(
        &self,
        provider: &ProviderInput,
        key: Option<&str>,
        limit: Duration,
    ) -> Result<ConnectionReport> {
        let started = Instant::now();
        let config = ProviderConfig {
            name: provider.name.trim().to_owned(),
            api: wire_api(&provider.api)?,
            env_api_key: provider
                .env_api_key
                .clone()
                .filter(|v| !v.trim().is_empty()),
            model: provider.model.trim().to_owned(),
            base_url: provider
                .base_url
                .clone()
                .map(|u| u.trim().to_owned())
                .filter(|u| !u.is_empty()),
            extra: Default::default(),
        };
        if config.model.is_empty() {
            return Ok(report(false, "other", Phrase::ConnectChooseModel, started));
        }
        let base_url = config.base_url_or_default().to_owned();
        let key = match key.map(str::trim).filter(|k| !k.is_empty()) {
            Some(typed) => Some(ApiKey::new(typed)),
            None => {
                let env = self.env().clone();
                let lookup = move |name: &str| env(name);
                resolve_api_key(&config, self.credentials.as_ref(), &lookup)
                    .ok()
                    .flatten()
                    .map(|(key, _)| key)
            }
        };
        if key.is_none() && !is_loopback(&base_url) {
            return Ok(report(
                false,
                "missing_key",
                Phrase::ConnectNoKey { base_url },
                started,
            ));
        }
        let client = match create_client(Endpoint {
            api: config.api,
            base_url: base_url.clone(),
            api_key: key,
        }) {
            Ok(client) => client,
            Err(error) => {
                return Ok(report(
                    false,
                    "other",
                    Phrase::ConnectBadUrl {
                        error: error.to_string(),
                    },
                    started,
                ))
            }
        };
        let request = ModelRequest {
            model: config.model.clone(),
            system: "You answer connection tests.".into(),
            messages: Arc::new(vec![Message::User {
                text: "Reply with OK.".into(),
                images: Vec::new(),
            }]),
            tools: Vec::new(),
            parallel_tool_calls: false,
            max_output_tokens: Some(8),
            thinking_budget_tokens: None,
            temperature: None,
        };
        let attempt = async {
            let mut stream = client.stream(request).await?;
            // The first event proves the key, the URL and the model; the rest is not
            // worth waiting for.
            match stream.next().await {
                Some(Ok(_)) | None => Ok(()),
                Some(Err(error)) => Err(error),
            }
        };
        let outcome = tokio::time::timeout(limit, attempt).await;
        Ok(match outcome {
            Ok(Ok(())) => report(
                true,
                "ok",
                Phrase::ConnectOk {
                    model: config.model.clone(),
                    base_url: base_url.clone(),
                },
                started,
            ),
            Ok(Err(error)) => explain(&error, &config.model, &base_url, started),
            Err(_) => report(
                false,
                "timeout",
                Phrase::ConnectTimeout {
                    base_url: base_url.clone(),
                    seconds: limit.as_secs_f32().round() as u64,
                },
                started,
            ),
        })
    }

    /// Local OpenAI-compatible servers listening on their usual ports, with their models.
    pub async fn probe_local_servers(&self) -> Vec<LocalServer> {
        self.probe_ports(
            &LOCAL_SERVERS.map(|(kind, label, port)| (kind.to_owned(), label.to_owned(), port)),
        )
        .await
    }

    /// [`Service::probe_local_servers`] on chosen ports (kind, label, port).
    pub async fn probe_ports(&self, ports: &[(String, String, u16)]) -> Vec<LocalServer> {
        let client = match memo_http::builder()
            .timeout(PROBE_TIMEOUT)
            .no_proxy()
            .build()
        {
            Ok(client) => client,
            Err(error) => {
                tracing::warn!(%error, "cannot build the HTTP client for the local probe");
                return Vec::new();
            }
        };
        let probes = ports.iter().map(|(kind, label, port)| {
            let client = client.clone();
            async move {
                let root = format!("http://127.0.0.1:{port}");
                let listed = if kind == "ollama" {
                    match ollama_models(&client, &root).await {
                        Ok(models) => Ok(models),
                        Err(_) => openai_models(&client, &root).await,
                    }
                } else {
                    openai_models(&client, &root).await
                };
                let (models, no_models) = match listed {
                    Ok(models) if !models.is_empty() => (models, None),
                    Ok(_) => (
                        Vec::new(),
                        Some(Phrase::AnsweredNoModels {
                            path: "/v1/models".into(),
                        }),
                    ),
                    Err(Listing::Answered(said)) => (Vec::new(), Some(said)),
                    Err(Listing::Nothing) => return None,
                };
                let context_window = context_window(&client, &root, kind, models.first()).await;
                Some(LocalServer {
                    kind: kind.clone(),
                    label: label.clone(),
                    base_url: format!("{root}/v1"),
                    models,
                    no_models,
                    context_window,
                })
            }
        });
        futures::future::join_all(probes)
            .await
            .into_iter()
            .flatten()
            .collect()
    }
}

/// Why a port gave no model list.
enum Listing {
    /// Nothing listens there (refused, timed out).
    Nothing,
    /// Something answered, but not with a model list: what it said, in words.
    Answered(Phrase),
}

/// A GET that answers JSON; else whether anything answered at all, and what.
async fn get_json(client: &reqwest::Client, url: String) -> Result<serde_json::Value, Listing> {
    let path = reqwest::Url::parse(&url)
        .map(|u| u.path().to_owned())
        .unwrap_or_default();
    let response = client
        .get(&url)
        .send()
        .await
        .map_err(|_| Listing::Nothing)?;
    let status = response.status();
    if !status.is_success() {
        return Err(Listing::Answered(Phrase::AnsweredHttp {
            status: u64::from(status.as_u16()),
            path,
        }));
    }
    response
        .json()
        .await
        .map_err(|_| Listing::Answered(Phrase::AnsweredNotJson { path }))
}

/// The names under `list_key` of a model listing (`data[].id`, Ollama's `models[].name`).
fn names(body: &serde_json::Value, list_key: &str, name_key: &str) -> Result<Vec<String>, Listing> {
    let list = body
        .get(list_key)
        .and_then(|v| v.as_array())
        .ok_or_else(|| {
            Listing::Answered(Phrase::AnsweredNoModelList {
                list_key: list_key.to_owned(),
            })
        })?;
    Ok(list
        .iter()
        .filter_map(|m| m.get(name_key)?.as_str().map(str::to_owned))
        .collect())
}

async fn openai_models(client: &reqwest::Client, root: &str) -> Result<Vec<String>, Listing> {
    names(
        &get_json(client, format!("{root}/v1/models")).await?,
        "data",
        "id",
    )
}

async fn ollama_models(client: &reqwest::Client, root: &str) -> Result<Vec<String>, Listing> {
    names(
        &get_json(client, format!("{root}/api/tags")).await?,
        "models",
        "name",
    )
}

/// The context size the server runs with, asked the way each kind answers it: llama.cpp's
/// `/props` (`n_ctx`), Ollama's `/api/show` (`num_ctx` in its parameters), vLLM's model
/// listing (`max_model_len`). `None` when it does not say.
async fn context_window(
    client: &reqwest::Client,
    root: &str,
    kind: &str,
    model: Option<&String>,
) -> Option<u64> {
    if kind == "ollama" {
        let model = model?;
        let body = client
            .post(format!("{root}/api/show"))
            .json(&serde_json::json!({ "model": model }))
            .send()
            .await
            .ok()?
            .error_for_status()
            .ok()?
            .json::<serde_json::Value>()
            .await
            .ok()?;
        let parameters = body.get("parameters")?.as_str()?;
        return parameters.lines().find_map(|line| {
            let mut words = line.split_whitespace();
            (words.next()? == "num_ctx").then(|| words.next()?.parse().ok())?
        });
    }
    if let Ok(props) = get_json(client, format!("{root}/props")).await {
        if let Some(n) = props
            .pointer("/default_generation_settings/n_ctx")
            .and_then(serde_json::Value::as_u64)
        {
            return Some(n);
        }
    }
    let listing = get_json(client, format!("{root}/v1/models")).await.ok()?;
    listing
        .get("data")?
        .as_array()?
        .iter()
        .find_map(|m| m.get("max_model_len")?.as_u64())
}

/// The innermost cause of a chained error message ("…: tcp connect error: Connection
/// refused (os error 111)" → "Connection refused (os error 111)"): what a person can act on.
fn innermost(text: &str) -> &str {
    match text.rsplit_once(": ") {
        Some((_, cause)) if cause.trim().len() >= 6 => cause.trim(),
        _ => text,
    }
}

fn explain(
    error: &ProviderError,
    model: &str,
    base_url: &str,
    started: Instant,
) -> ConnectionReport {
    let full = error.to_string();
    let text = innermost(&full).to_owned();
    let lower = full.to_lowercase();
    let base_url = base_url.to_owned();
    let unreachable = error.phrase();
    let (outcome, message) = match (error, unreachable) {
        (ProviderError::Auth(_), _) => ("auth", Phrase::ConnectKeyRefused { detail: text }),
        (ProviderError::Transient(_), _)
            if lower.contains("timed out") || lower.contains("timeout") =>
        {
            (
                "timeout",
                Phrase::ConnectSlow {
                    base_url,
                    detail: text,
                },
            )
        }
        (ProviderError::Transient(_), _) => (
            "network",
            Phrase::ConnectNothing {
                base_url,
                detail: text,
            },
        ),
        // Already a sentence, with its advice.
        (ProviderError::Unreachable { reason, .. }, Some(said))
            if matches!(reason.as_ref(), Phrase::ReachTimedOut) =>
        {
            ("timeout", said)
        }
        (ProviderError::Unreachable { .. }, Some(said)) => ("network", said),
        (ProviderError::Fatal(_), _)
            if lower.contains("404")
                || lower.contains("not found")
                || lower.contains("does not exist") =>
        {
            (
                "not_found",
                Phrase::ConnectNoModel {
                    base_url,
                    model: model.to_owned(),
                    detail: full.clone(),
                },
            )
        }
        (ProviderError::RateLimited { .. } | ProviderError::Overloaded { .. }, _) => {
            ("ok", Phrase::ConnectBusy { detail: text })
        }
        _ => (
            "other",
            Phrase::ConnectFailed {
                detail: full.clone(),
            },
        ),
    };
    // A rate limit proves the key and URL: the connection itself is fine.
    tracing::info!(outcome, error = %full, "connection test failed");
    report(outcome == "ok", outcome, message, started)
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_test_support::{MockLlmServer, MockResponse};

    #[test]
    fn the_innermost_cause_is_what_a_person_reads() {
        assert_eq!(
            innermost("network error: error sending request for url (http://x/v1): client error (Connect): tcp connect error: Connection refused (os error 111)"),
            "Connection refused (os error 111)"
        );
        assert_eq!(
            innermost("authentication failed: invalid x-api-key"),
            "invalid x-api-key"
        );
        assert_eq!(innermost("plain"), "plain");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_server_that_never_answers_is_a_timeout() {
        let mock = MockLlmServer::start_with([MockResponse::text("late").hang_after_events(0)])
            .await
            .unwrap();
        let home = tempfile::tempdir().unwrap();
        let service = Service::new(
            Ok(memo_config::MemoHome::at(home.path())),
            Arc::new(memo_config::MemoryCredentialStore::new()),
            Arc::new(|_: &str| None),
        );
        let provider = ProviderInput {
            name: "slow".into(),
            api: "openai".into(),
            model: "m".into(),
            base_url: Some(format!("{}/v1", mock.base_url())),
            env_api_key: None,
        };
        let report = service
            .test_connection_within(&provider, None, Duration::from_millis(400))
            .await
            .unwrap();
        assert_eq!(report.outcome, "timeout", "{report:?}");
        assert!(!report.ok);
        assert!(
            report.message.contains("did not answer"),
            "{}",
            report.message
        );
        mock.shutdown().await;
    }
}
