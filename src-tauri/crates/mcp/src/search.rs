//! `search_mcp_tools`: with hundreds of MCP tools, sending every definition each request
//! would flood the context. The model searches by words instead; the matches are loaded
//! and become callable tools from the next step on.

use futures::future::BoxFuture;
use memo_protocol::RiskLevel;
use memo_tools::{Tool, ToolContext, ToolError, ToolOutput, ToolResult};
use serde_json::{json, Value};

use crate::manager::{lock, McpManager, McpToolInfo};

pub const SEARCH_TOOL: &str = "search_mcp_tools";
const DEFAULT_LIMIT: usize = 8;
const MAX_LIMIT: usize = 30;

pub struct SearchTool {
    manager: McpManager,
    description: String,
}

impl SearchTool {
    pub fn new(manager: McpManager) -> Self {
        let mut servers: Vec<(String, usize)> = Vec::new();
        for tool in manager.tool_infos() {
            match servers.iter_mut().find(|(s, _)| *s == tool.server) {
                Some((_, n)) => *n += 1,
                None => servers.push((tool.server, 1)),
            }
        }
        let listed: Vec<String> = servers
            .iter()
            .map(|(s, n)| format!("{s} ({n} tools)"))
            .collect();
        let description = format!(
            "Find tools of the connected MCP servers: {}. Their definitions are not loaded up front. \
Search with a few words of what you need (or an exact tool name); the matching tools are loaded \
and can be called by their names from your next step on.",
            listed.join(", ")
        );
        Self {
            manager,
            description,
        }
    }
}

fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Name words weigh more than description words; an exact name wins outright.
fn score(query: &str, tool: &McpToolInfo) -> u32 {
    let q = query.trim();
    if q == tool.qualified || q == tool.name {
        return u32::MAX;
    }
    let name = words(&tool.qualified);
    let description = words(&tool.description);
    words(q)
        .iter()
        .map(|w| {
            let in_name = name
                .iter()
                .any(|n| n == w || (w.len() > 3 && n.starts_with(w.as_str())));
            let in_description = description.iter().any(|d| d == w);
            u32::from(in_name) * 3 + u32::from(in_description)
        })
        .sum()
}

/// The best matches, best first.
pub fn search(tools: &[McpToolInfo], query: &str, limit: usize) -> Vec<McpToolInfo> {
    let mut scored: Vec<(u32, &McpToolInfo)> = tools
        .iter()
        .map(|t| (score(query, t), t))
        .filter(|(s, _)| *s > 0)
        .collect();
    scored.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then_with(|| a.1.qualified.cmp(&b.1.qualified))
    });
    scored
        .into_iter()
        .take(limit)
        .map(|(_, t)| t.clone())
        .collect()
}

impl Tool for SearchTool {
    fn name(&self) -> &str {
        SEARCH_TOOL
    }

    fn description(&self) -> &str {
        &self.description
    }

    fn input_schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "Words describing the tool you need, or its exact name"},
                "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "description": "At most this many tools (default 8)"}
            },
            "required": ["query"],
            "additionalProperties": false
        })
    }

    fn risk(&self) -> RiskLevel {
        RiskLevel::Read
    }

    fn run(&self, _ctx: ToolContext, args: Value) -> BoxFuture<'static, ToolResult> {
        let manager = self.manager.clone();
        Box::pin(async move {
            let query = args
                .get("query")
                .and_then(Value::as_str)
                .filter(|q| !q.trim().is_empty())
                .ok_or_else(|| ToolError::invalid_input("search_mcp_tools needs a query"))?
                .to_owned();
            let limit = args
                .get("limit")
                .and_then(Value::as_u64)
                .map(|n| (n as usize).clamp(1, MAX_LIMIT))
                .unwrap_or(DEFAULT_LIMIT);
            let found = search(&manager.tool_infos(), &query, limit);
            if found.is_empty() {
                return Ok(ToolOutput::text(format!(
                    "No MCP tool matches \"{query}\". Try other words."
                )));
            }
            let added = {
                let mut loaded = lock(&manager.inner.loaded);
                found
                    .iter()
                    .filter(|t| loaded.insert(t.qualified.clone()))
                    .count()
            };
            if added > 0 {
                manager.inner.bump();
            }
            let listed: Vec<Value> = found
                .iter()
                .map(|t| {
                    json!({
                        "name": t.qualified,
                        "server": t.server,
                        "description": t.description,
                        "input_schema": t.input_schema,
                    })
                })
                .collect();
            Ok(ToolOutput::text(format!(
                "Loaded {} tool(s); call them by name.\n{}",
                found.len(),
                serde_json::to_string_pretty(&listed).unwrap_or_default()
            )))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(server: &str, name: &str, description: &str) -> McpToolInfo {
        McpToolInfo {
            server: server.into(),
            name: name.into(),
            qualified: crate::content::qualified_name(server, name),
            description: description.into(),
            input_schema: json!({"type": "object"}),
            read_only_hint: None,
        }
    }

    #[test]
    fn name_words_beat_description_words_and_exact_names_win() {
        let tools = vec![
            info("gh", "create_issue", "Open a new issue in a repository"),
            info("gh", "list_issues", "List issues of a repository"),
            info("jira", "search", "Find tickets; an issue tracker"),
            info("fs", "read_file", "Read a file"),
        ];
        let names = |q: &str| -> Vec<String> {
            search(&tools, q, 10)
                .into_iter()
                .map(|t| t.qualified)
                .collect()
        };
        assert_eq!(
            names("create issue"),
            ["gh__create_issue", "gh__list_issues", "jira__search"]
        );
        assert_eq!(names("fs__read_file"), ["fs__read_file"]);
        assert!(names("weather").is_empty());
        assert_eq!(search(&tools, "issue", 1).len(), 1);
    }
}
