//! Errors of the mock server and of scenario loading.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// Everything that can go wrong while starting, scripting or waiting on the mock server.
#[derive(Debug, thiserror::Error)]
pub enum MockError {
    #[error("cannot bind the mock LLM server on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        #[source]
        source: std::io::Error,
    },

    #[error("timed out after {timeout:?} waiting for {expected} request(s); {received} received")]
    Timeout {
        expected: usize,
        received: usize,
        timeout: Duration,
    },

    #[error("cannot read scenario file {path}: {source}")]
    ScenarioRead {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    #[error("invalid scenario {origin}: {source}")]
    ScenarioParse {
        origin: String,
        #[source]
        source: serde_json::Error,
    },
}
