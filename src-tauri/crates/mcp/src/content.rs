//! What the model sees of MCP results: text as text, binary parts as one-line notes,
//! structured content as JSON when there is no text, and tool names that every provider
//! accepts.

use memo_protocol::McpContent;
use serde_json::Value;

/// Providers accept `^[a-zA-Z0-9_-]{1,64}$` as a tool name.
const MAX_TOOL_NAME: usize = 64;

/// `server__tool`, with characters providers reject replaced and long names shortened
/// with a hash so two long names stay distinct.
pub fn qualified_name(server: &str, tool: &str) -> String {
    let raw = format!("{server}__{tool}");
    let clean: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean == raw && clean.len() <= MAX_TOOL_NAME {
        return clean;
    }
    // A changed or shortened name gets a hash of the original, so it cannot collide with
    // a tool that is literally called that.
    let hash = format!("{:08x}", fnv1a(raw.as_bytes()) as u32);
    let keep = clean.len().min(MAX_TOOL_NAME - hash.len() - 1);
    format!("{}_{hash}", &clean[..keep])
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf29ce484222325u64, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100000001b3)
    })
}

/// A `tools/call` result read once: the text the model sees, whether the server flagged
/// it as an error, and its content blocks as people are shown them.
pub fn call_result(result: &Value) -> (String, bool, Vec<McpContent>) {
    let is_error = result
        .get("isError")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let blocks: Vec<McpContent> = result
        .get("content")
        .and_then(Value::as_array)
        .map(|items| items.iter().map(block).collect())
        .unwrap_or_default();
    let mut text = blocks.iter().map(block_text).collect::<Vec<_>>().join("\n");
    if text.trim().is_empty() {
        if let Some(structured) = result.get("structuredContent").filter(|v| !v.is_null()) {
            text = serde_json::to_string_pretty(structured).unwrap_or_default();
        }
    }
    if text.is_empty() && !is_error {
        text = "(the tool returned no content)".into();
    }
    (text, is_error, blocks)
}

/// One content part (text, image, audio, embedded resource, resource link) as the model
/// reads it.
pub fn content_text(item: &Value) -> String {
    block_text(&block(item))
}

/// One content part as it came (binary data by its size only).
fn block(item: &Value) -> McpContent {
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
    match item.get("type").and_then(Value::as_str).unwrap_or("") {
        "text" => McpContent::Text {
            text: text(item, "text").unwrap_or_default(),
        },
        kind @ ("image" | "audio") => {
            let mime_type = text(item, "mimeType").unwrap_or_else(|| "?".into());
            let bytes = item
                .get("data")
                .and_then(Value::as_str)
                .map_or(0, base64_len) as u64;
            if kind == "image" {
                McpContent::Image { mime_type, bytes }
            } else {
                McpContent::Audio { mime_type, bytes }
            }
        }
        "resource" => match item.get("resource") {
            Some(resource) => McpContent::Resource {
                uri: text(resource, "uri").unwrap_or_else(|| "?".into()),
                text: Some(resource_contents_text(resource)),
            },
            None => McpContent::Text {
                text: String::new(),
            },
        },
        "resource_link" => McpContent::ResourceLink {
            uri: text(item, "uri").unwrap_or_else(|| "?".into()),
            name: text(item, "name"),
        },
        other => McpContent::Text {
            text: format!("[{other} content]"),
        },
    }
}

/// A content block as the model reads it: text as text, anything else as a one-line note.
fn block_text(block: &McpContent) -> String {
    match block {
        McpContent::Text { text } => text.clone(),
        McpContent::Image { mime_type, bytes } => format!("[image: {mime_type}, {bytes} bytes]"),
        McpContent::Audio { mime_type, bytes } => format!("[audio: {mime_type}, {bytes} bytes]"),
        McpContent::Resource { text, .. } => text.clone().unwrap_or_default(),
        McpContent::ResourceLink { uri, name } => {
            format!("[resource link: {} <{uri}>]", name.as_deref().unwrap_or(""))
        }
    }
}

/// One entry of a `resources/read` result or an embedded resource.
pub fn resource_contents_text(contents: &Value) -> String {
    if let Some(text) = contents.get("text").and_then(Value::as_str) {
        return text.to_owned();
    }
    let uri = contents.get("uri").and_then(Value::as_str).unwrap_or("?");
    let mime = contents
        .get("mimeType")
        .and_then(Value::as_str)
        .unwrap_or("application/octet-stream");
    let size = contents
        .get("blob")
        .and_then(Value::as_str)
        .map(base64_len)
        .unwrap_or(0);
    format!("[binary resource {uri}: {mime}, {size} bytes]")
}

fn base64_len(data: &str) -> usize {
    let trimmed = data.trim_end_matches('=');
    trimmed.len() * 3 / 4
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_are_server_qualified_and_provider_safe() {
        assert_eq!(qualified_name("everything", "echo"), "everything__echo");
        assert_eq!(qualified_name("fs", "read-file"), "fs__read-file");
        let dotted = qualified_name("fs", "files.read");
        assert!(dotted.starts_with("fs__files_read_"), "{dotted}");
        assert_ne!(dotted, qualified_name("fs", "files_read"));
        let long = qualified_name("server", &"x".repeat(100));
        assert_eq!(long.len(), 64);
        assert_ne!(long, qualified_name("server", &"x".repeat(101)));
        assert!(long
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'));
    }

    #[test]
    fn results_become_text_with_notes_for_binary_parts() {
        let result = json!({"content": [
            {"type": "text", "text": "hello"},
            {"type": "image", "mimeType": "image/png", "data": "AAAA"},
            {"type": "resource", "resource": {"uri": "file:///a", "text": "inside"}},
            {"type": "resource", "resource": {"uri": "file:///b", "blob": "AAAAAAAA", "mimeType": "application/zip"}},
            {"type": "resource_link", "uri": "demo://x", "name": "X"}
        ]});
        let (text, err, blocks) = call_result(&result);
        assert!(!err);
        assert_eq!(
            blocks[1],
            McpContent::Image {
                mime_type: "image/png".into(),
                bytes: 3
            }
        );
        assert_eq!(blocks.len(), 5);
        assert_eq!(
            text,
            "hello\n[image: image/png, 3 bytes]\ninside\n[binary resource file:///b: application/zip, 6 bytes]\n[resource link: X <demo://x>]"
        );
        let (text, err, _) =
            call_result(&json!({"content": [{"type": "text", "text": "boom"}], "isError": true}));
        assert!(err);
        assert_eq!(text, "boom");
        let (text, _, _) = call_result(&json!({"content": [], "structuredContent": {"t": 1}}));
        assert!(text.contains("\"t\": 1"));
    }
}
