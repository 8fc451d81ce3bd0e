//! MCP servers' tools as agent tools (`server__tool`, risk guessed from the name), the
//! resource tools, and the tool source a session registry reads them from. Past the
//! defer threshold the model sees `search_mcp_tools` instead of every definition and
//! loads the ones it needs.

use std::sync::Arc;

use futures::future::BoxFuture;
use memo_protocol::{McpCallView, Phrase, RiskLevel, ToolErrorKind, ToolView};
use memo_tools::{
    risk::classify_by_name, Tool, ToolContext, ToolError, ToolOutput, ToolPreview, ToolResult,
    ToolSource,
};
use serde_json::{json, Value};

use crate::calls::CallError;
use crate::error::McpError;
use crate::manager::{lock, McpManager, McpToolInfo};
use crate::search::SearchTool;

/// One server tool.
pub struct McpTool {
    manager: McpManager,
    info: McpToolInfo,
    description: String,
    risk: RiskLevel,
}

impl McpTool {
    pub fn new(manager: McpManager, info: McpToolInfo) -> Self {
        let description = if info.description.is_empty() {
            format!(
                "Tool \"{}\" of the MCP server \"{}\".",
                info.name, info.server
            )
        } else {
            info.description.clone()
        };
        Self {
            risk: rated(&info),
            manager,
            info,
            description,
        }
    }
}

/// The tool's risk: the server's own word when it says the tool only reads
/// (`readOnlyHint`), else Memo's rating from its name (a hint of false says nothing
/// about how much it changes, so the name decides then too).
fn rated(info: &McpToolInfo) -> RiskLevel {
    match info.read_only_hint {
        Some(true) => RiskLevel::Read,
        _ => classify_by_name(&info.name),
    }
}

/// Where [`rated`]'s answer comes from, in words for the approval card.
fn rated_by(info: &McpToolInfo) -> Phrase {
    match info.read_only_hint {
        Some(true) => Phrase::McpRatedReadOnly,
        Some(false) => Phrase::McpRatedByNameAgainstServer,
        None => Phrase::McpRatedByName,
    }
}

pub(crate) fn call_error(e: CallError) -> ToolError {
    match e {
        CallError::Tool(text) => {
            ToolError::failed(format!("the MCP tool reported an error: {text}"))
        }
        CallError::Interrupted => ToolError::new(
            ToolErrorKind::Interrupted,
            "interrupted by the user; the call was cancelled",
        ),
        CallError::Failed(McpError::CallTimeout(after)) => ToolError::new(
            ToolErrorKind::Timeout,
            McpError::CallTimeout(after).to_string(),
        ),
        CallError::Failed(e) => ToolError::failed(e.to_string()),
    }
}

impl McpTool {
    /// The call before the server answers.
    fn asked(&self, args: &Value) -> McpCallView {
        McpCallView {
            server: self.info.server.clone(),
            tool: self.info.name.clone(),
            arguments: memo_protocol::pretty_arguments(args),
            read_only: self.info.read_only_hint,
            content: Vec::new(),
            changed_files: Vec::new(),
        }
    }
}

impl Tool for McpTool {
    // The model calls it by the qualified name; the server knows it by `info.name`.
    #[allow(clippy::misnamed_getters)]
    fn name(&self) -> &str {
        &self.info.qualified
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn input_schema(&self) -> Value {
        self.info.input_schema.clone()
    }

    fn risk(&self) -> RiskLevel {
        self.risk
    }

    /// A server's tool runs code Memo cannot see: whatever its rating, what it changed
    /// in the folder is looked for after the call.
    fn may_change_files(&self) -> bool {
        true
    }

    fn preview(
        &self,
        _ctx: &ToolContext,
        args: &Value,
    ) -> BoxFuture<'static, Result<ToolPreview, ToolError>> {
        let shown: String = args.to_string().chars().take(2_000).collect();
        let preview = ToolPreview {
            risk: self.risk,
            // A session grant covers this tool of this server, whatever the arguments.
            fingerprint: format!("mcp:{}:{}", self.info.server, self.info.name),
            why: vec![Phrase::McpToolRuns {
                server: self.info.server.clone(),
                tool: self.info.name.clone(),
                rated: Box::new(rated_by(&self.info)),
            }],
            command: Some(format!("{} · {} {shown}", self.info.server, self.info.name)),
            cwd: None,
            diff: None,
        };
        Box::pin(async move { Ok(preview) })
    }

    fn view(&self, _: &ToolContext, args: &Value) -> ToolView {
        ToolView::McpCall(self.asked(args))
    }

    fn run(&self, ctx: ToolContext, args: Value) -> BoxFuture<'static, ToolResult> {
        let manager = self.manager.clone();
        let asked = self.asked(&args);
        let (server, tool) = (self.info.server.clone(), self.info.name.clone());
        Box::pin(async move {
            manager
                .call_tool(
                    &server,
                    &tool,
                    args,
                    ctx.cancel.clone(),
                    ctx.progress.clone(),
                )
                .await
                .map(|answer| {
                    let view = ToolView::McpCall(McpCallView {
                        content: answer.content,
                        ..asked
                    });
                    ToolOutput::text(answer.text).with_view(view)
                })
                .map_err(call_error)
        })
    }
}

#[derive(Clone, Copy)]
enum ResourceOp {
    List,
    Templates,
    Read,
}

/// `list_mcp_resources`, `list_mcp_resource_templates`, `read_mcp_resource`.
pub struct ResourceTool {
    manager: McpManager,
    op: ResourceOp,
}

impl ResourceTool {
    pub fn all(manager: &McpManager) -> Vec<Arc<dyn Tool>> {
        [ResourceOp::List, ResourceOp::Templates, ResourceOp::Read]
            .into_iter()
            .map(|op| {
                Arc::new(ResourceTool {
                    manager: manager.clone(),
                    op,
                }) as Arc<dyn Tool>
            })
            .collect()
    }
}

fn server_arg(args: &Value) -> Option<String> {
    args.get("server")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

/// The resource tools' names, as the model calls them.
pub const RESOURCE_TOOL_NAMES: [&str; 3] = [
    "list_mcp_resources",
    "list_mcp_resource_templates",
    "read_mcp_resource",
];

impl Tool for ResourceTool {
    fn name(&self) -> &str {
        match self.op {
            ResourceOp::List => RESOURCE_TOOL_NAMES[0],
            ResourceOp::Templates => RESOURCE_TOOL_NAMES[1],
            ResourceOp::Read => RESOURCE_TOOL_NAMES[2],
        }
    }

    fn description(&self) -> &str {
        match self.op {
            ResourceOp::List => "List the resources (files, documents, records) MCP servers offer. Give `server` to list one server's; without it every server that offers resources is listed. Read one with read_mcp_resource.",
            ResourceOp::Templates => "List the resource templates (parameterized URIs such as `db://table/{id}`) MCP servers offer. Fill a template in and read it with read_mcp_resource.",
            ResourceOp::Read => "Read one resource of an MCP server by its URI (from list_mcp_resources, or a filled-in template).",
        }
    }

    fn input_schema(&self) -> Value {
        match self.op {
            ResourceOp::List | ResourceOp::Templates => json!({
                "type": "object",
                "properties": {
                    "server": {"type": "string", "description": "MCP server name; omit for all servers"}
                },
                "additionalProperties": false
            }),
            ResourceOp::Read => json!({
                "type": "object",
                "properties": {
                    "server": {"type": "string", "description": "MCP server name"},
                    "uri": {"type": "string", "description": "Resource URI"}
                },
                "required": ["server", "uri"],
                "additionalProperties": false
            }),
        }
    }

    fn risk(&self) -> RiskLevel {
        RiskLevel::Read
    }

    fn view(&self, _: &ToolContext, args: &Value) -> ToolView {
        let what = match self.op {
            ResourceOp::List => "list resources",
            ResourceOp::Templates => "list resource templates",
            ResourceOp::Read => "read resource",
        };
        ToolView::McpCall(McpCallView {
            server: server_arg(args).unwrap_or_else(|| "every server".into()),
            tool: what.into(),
            arguments: memo_protocol::pretty_arguments(args),
            read_only: Some(true),
            content: Vec::new(),
            changed_files: Vec::new(),
        })
    }

    fn run(&self, ctx: ToolContext, args: Value) -> BoxFuture<'static, ToolResult> {
        let manager = self.manager.clone();
        let op = self.op;
        Box::pin(async move {
            let server = server_arg(&args);
            let listed = match op {
                ResourceOp::List => manager.list_resources(server.as_deref()).await,
                ResourceOp::Templates => manager.list_resource_templates(server.as_deref()).await,
                ResourceOp::Read => {
                    let (Some(server), Some(uri)) =
                        (server, args.get("uri").and_then(Value::as_str))
                    else {
                        return Err(ToolError::invalid_input(
                            "read_mcp_resource needs server and uri",
                        ));
                    };
                    // A server's file resource is a file all the same: the user's
                    // read-deny rules hold for it.
                    if let Some(path) = file_uri_path(uri) {
                        ctx.check_not_denied(uri, &path)?;
                    }
                    return manager
                        .read_resource(&server, uri, ctx.cancel.clone())
                        .await
                        .map(ToolOutput::text)
                        .map_err(call_error);
                }
            };
            let value = listed.map_err(|e| ToolError::failed(e.to_string()))?;
            Ok(ToolOutput::text(
                serde_json::to_string_pretty(&value).unwrap_or_default(),
            ))
        })
    }
}

/// The local path a `file://` URI names (`file:///p/.env`, `file://localhost/p/.env`),
/// percent-escapes decoded so `%2Eenv` is `.env`; `None` for other schemes and hosts.
fn file_uri_path(uri: &str) -> Option<std::path::PathBuf> {
    let url = reqwest::Url::parse(uri).ok()?;
    (url.scheme() == "file")
        .then(|| url.to_file_path().ok())
        .flatten()
}

/// What a session's registry reads MCP tools from.
pub struct McpToolSource {
    manager: McpManager,
}

impl McpToolSource {
    pub fn new(manager: McpManager) -> Self {
        Self { manager }
    }

    fn deferred(&self, count: usize) -> bool {
        count > self.manager.inner.options.defer_threshold
    }
}

impl ToolSource for McpToolSource {
    fn tools(&self) -> Vec<Arc<dyn Tool>> {
        let manager = &self.manager;
        // The resource tools appear once a running server offers resources.
        let mut out = if manager.has_resources() {
            ResourceTool::all(manager)
        } else {
            Vec::new()
        };
        let all = manager.tool_infos();
        if self.deferred(all.len()) {
            out.push(Arc::new(SearchTool::new(manager.clone())));
            let loaded = lock(&manager.inner.loaded).clone();
            out.extend(
                all.into_iter()
                    .filter(|t| loaded.contains(&t.qualified))
                    .map(|t| Arc::new(McpTool::new(manager.clone(), t)) as Arc<dyn Tool>),
            );
        } else {
            out.extend(
                all.into_iter()
                    .map(|t| Arc::new(McpTool::new(manager.clone(), t)) as Arc<dyn Tool>),
            );
        }
        out
    }

    fn get(&self, name: &str) -> Option<Arc<dyn Tool>> {
        let manager = &self.manager;
        if manager.inner.slots.is_empty() {
            return None;
        }
        if let Some(tool) = ResourceTool::all(manager)
            .into_iter()
            .find(|t| t.name() == name)
        {
            return Some(tool);
        }
        if name == crate::search::SEARCH_TOOL {
            return Some(Arc::new(SearchTool::new(manager.clone())));
        }
        manager
            .tool_infos()
            .into_iter()
            .find(|t| t.qualified == name)
            .map(|t| Arc::new(McpTool::new(manager.clone(), t)) as Arc<dyn Tool>)
    }

    fn generation(&self) -> u64 {
        self.manager.generation()
    }

    fn ready(&self) -> BoxFuture<'static, ()> {
        let manager = self.manager.clone();
        Box::pin(async move { manager.wait_ready().await })
    }

    fn shutdown(&self) {
        self.manager.shutdown();
    }
}

#[cfg(test)]
mod tests {
    use super::{file_uri_path, rated, rated_by, McpToolInfo};
    use memo_protocol::RiskLevel;
    use std::path::PathBuf;

    fn info(name: &str, hint: Option<bool>) -> McpToolInfo {
        McpToolInfo {
            server: "fs".into(),
            name: name.into(),
            qualified: format!("fs__{name}"),
            description: String::new(),
            input_schema: serde_json::json!({}),
            read_only_hint: hint,
        }
    }

    #[test]
    fn the_servers_read_only_hint_wins_over_the_name_and_the_card_says_which() {
        // `directory_tree` has no reading word: by its name alone it would ask as a write.
        assert_eq!(rated(&info("directory_tree", None)), RiskLevel::Write);
        assert_eq!(rated(&info("directory_tree", Some(true))), RiskLevel::Read);
        assert_eq!(rated(&info("delete_file", Some(false))), RiskLevel::Write);
        assert_eq!(
            rated_by(&info("directory_tree", Some(true))).english(),
            "the server marks it read-only"
        );
        assert!(rated_by(&info("x", None))
            .english()
            .contains("rated it by its name"));
    }

    #[test]
    fn file_uris_name_local_paths_with_escapes_decoded() {
        assert_eq!(
            file_uri_path("file:///p/.env"),
            Some(PathBuf::from("/p/.env"))
        );
        assert_eq!(
            file_uri_path("FILE://localhost/p/%2Eenv?x#y"),
            Some(PathBuf::from("/p/.env"))
        );
        assert_eq!(file_uri_path("demo://x"), None);
        assert_eq!(file_uri_path("file://relative"), None);
    }
}
