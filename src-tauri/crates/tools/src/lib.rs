//! The agent's tools. A tool is a named handler with a JSON-schema input, a risk level and
//! flags the engine's orchestrator uses to decide approval and concurrency. This crate has
//! no knowledge of sessions or models: the engine drives it.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod list_dir;
mod read_file;
pub mod truncate;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use futures::future::BoxFuture;
use memo_protocol::{RiskLevel, ToolErrorKind};
use memo_providers::ToolSpec;
use serde::de::DeserializeOwned;
use thiserror::Error;

pub use list_dir::ListDirTool;
pub use read_file::ReadFileTool;

/// What a tool knows about where it runs.
#[derive(Debug, Clone)]
pub struct ToolContext {
    /// The session's working directory; relative paths resolve against it.
    pub cwd: PathBuf,
}

impl ToolContext {
    pub fn resolve(&self, path: &str) -> PathBuf {
        let p = Path::new(path);
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.cwd.join(p)
        }
    }
}

/// A failure the model should see (it goes back as an error tool result, never ends a turn).
#[derive(Debug, Error, Clone, PartialEq)]
#[error("{message}")]
pub struct ToolError {
    pub kind: ToolErrorKind,
    pub message: String,
}

impl ToolError {
    pub fn new(kind: ToolErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }

    pub fn invalid_input(message: impl Into<String>) -> Self {
        Self::new(ToolErrorKind::InvalidInput, message)
    }

    pub fn failed(message: impl Into<String>) -> Self {
        Self::new(ToolErrorKind::ExecutionFailed, message)
    }
}

pub type ToolResult = Result<String, ToolError>;

pub trait Tool: Send + Sync {
    fn name(&self) -> &str;
    /// Written for the model: what the tool does and when to use it.
    fn description(&self) -> &str;
    fn input_schema(&self) -> serde_json::Value;
    fn risk(&self) -> RiskLevel;
    fn is_mutating(&self) -> bool {
        self.risk() > RiskLevel::Read
    }
    /// Whether calls may run concurrently with other parallel-safe calls.
    fn parallel_safe(&self) -> bool {
        !self.is_mutating()
    }
    fn run(&self, ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult>;
}

/// Parses a tool's arguments into its typed input, turning serde's message into one the
/// model can act on.
pub fn parse_args<T: DeserializeOwned>(
    tool: &str,
    args: serde_json::Value,
) -> Result<T, ToolError> {
    serde_json::from_value(args)
        .map_err(|e| ToolError::invalid_input(format!("invalid arguments for {tool}: {e}")))
}

#[derive(Clone, Default)]
pub struct ToolRegistry {
    tools: BTreeMap<String, Arc<dyn Tool>>,
}

impl ToolRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    /// The built-in tools of the foundation.
    pub fn builtin() -> Self {
        let mut registry = Self::new();
        registry.register(Arc::new(ReadFileTool));
        registry.register(Arc::new(ListDirTool));
        registry
    }

    /// Adds a tool, replacing one of the same name.
    pub fn register(&mut self, tool: Arc<dyn Tool>) {
        self.tools.insert(tool.name().to_owned(), tool);
    }

    pub fn get(&self, name: &str) -> Option<Arc<dyn Tool>> {
        self.tools.get(name).cloned()
    }

    pub fn names(&self) -> Vec<String> {
        self.tools.keys().cloned().collect()
    }

    pub fn specs(&self) -> Vec<ToolSpec> {
        self.tools
            .values()
            .map(|t| ToolSpec {
                name: t.name().to_owned(),
                description: t.description().to_owned(),
                input_schema: t.input_schema(),
            })
            .collect()
    }
}
