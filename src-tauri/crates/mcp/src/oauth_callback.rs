//! The loopback redirect target of a login: a one-shot HTTP listener on 127.0.0.1 that
//! takes the authorization server's redirect, hands its query to the flow and tells the
//! user they can close the tab.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::{Query, State};
use axum::response::Html;
use axum::routing::get;
use tokio::net::TcpListener;
use tokio::sync::oneshot;

use crate::error::McpError;

type Params = HashMap<String, String>;
type Slot = Arc<Mutex<Option<oneshot::Sender<Params>>>>;

pub struct CallbackListener {
    port: u16,
    rx: oneshot::Receiver<Params>,
    stop: tokio_util::sync::CancellationToken,
}

impl CallbackListener {
    /// Listens on `port` (a pre-registered redirect needs a fixed one) or any free port.
    pub async fn bind(port: Option<u16>) -> Result<CallbackListener, McpError> {
        let listener = TcpListener::bind(("127.0.0.1", port.unwrap_or(0)))
            .await
            .map_err(|e| {
                McpError::OAuth(format!(
                    "cannot listen on 127.0.0.1:{} for the login redirect: {e}",
                    port.unwrap_or(0)
                ))
            })?;
        let port = listener.local_addr()?.port();
        let (tx, rx) = oneshot::channel();
        let slot: Slot = Arc::new(Mutex::new(Some(tx)));
        let app = axum::Router::new()
            .route("/callback", get(callback))
            .with_state(slot);
        let stop = tokio_util::sync::CancellationToken::new();
        let shutdown = stop.clone();
        tokio::spawn(async move {
            let served = axum::serve(listener, app)
                .with_graceful_shutdown(async move { shutdown.cancelled().await })
                .await;
            if let Err(e) = served {
                tracing::warn!(error = %e, "OAuth callback listener failed");
            }
        });
        Ok(CallbackListener { port, rx, stop })
    }

    pub fn redirect_uri(&self) -> String {
        format!("http://127.0.0.1:{}/callback", self.port)
    }

    /// The redirect's query parameters.
    pub async fn wait(self, timeout: Duration) -> Result<Params, McpError> {
        let CallbackListener { rx, stop, .. } = self;
        let result = tokio::time::timeout(timeout, rx).await;
        // Give the browser its page before the listener goes away.
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(200)).await;
            stop.cancel();
        });
        match result {
            Ok(Ok(params)) => Ok(params),
            Ok(Err(_)) => Err(McpError::OAuth(
                "the login redirect listener stopped".into(),
            )),
            Err(_) => Err(McpError::OAuth(format!(
                "no login redirect within {}s",
                timeout.as_secs()
            ))),
        }
    }
}

async fn callback(State(slot): State<Slot>, Query(params): Query<Params>) -> Html<&'static str> {
    let ok = !params.contains_key("error");
    if let Some(tx) = slot.lock().unwrap_or_else(|p| p.into_inner()).take() {
        let _ = tx.send(params);
    }
    Html(if ok {
        "<!doctype html><title>Memo</title><p>Signed in. You can close this tab and return to Memo.</p>"
    } else {
        "<!doctype html><title>Memo</title><p>Sign-in failed. Return to Memo for details.</p>"
    })
}
