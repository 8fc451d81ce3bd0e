//! Optional auto titles: after a new session's first exchange completes, one short model
//! call names it (`auto_title = true` in config.toml). A title the user gave in the
//! meantime wins; any failure just leaves the session untitled.

use std::sync::Arc;

use memo_model::{Message, ModelRequest};
use memo_protocol::{AgentEvent, TurnEndReason};
use memo_providers::{ModelClient, ProviderError};
use memo_store::Store;

use crate::session::SessionHandle;

/// The instructions of the title call, embedded at build time.
pub const TITLE_PROMPT: &str = include_str!("../../../../prompts/session_title.md");

/// Titles are shown in a narrow sidebar.
const MAX_TITLE_CHARS: usize = 60;
/// How much of the exchange the title call sees; the start says what it is about.
const EXCERPT_CHARS: usize = 1500;

fn excerpt(text: &str) -> String {
    let mut out: String = text.chars().take(EXCERPT_CHARS).collect();
    if text.chars().count() > EXCERPT_CHARS {
        out.push('…');
    }
    out
}

/// Asks the model for a title of an exchange; `Ok(None)` when its answer has no usable
/// title in it.
pub async fn generate_title(
    client: &dyn ModelClient,
    model: &str,
    user: &str,
    answer: &str,
) -> Result<Option<String>, ProviderError> {
    let request = ModelRequest {
        model: model.to_owned(),
        system: TITLE_PROMPT.trim().to_owned(),
        messages: Arc::new(vec![Message::user(format!(
            "Name this conversation.\n\n<user>\n{}\n</user>\n\n<assistant>\n{}\n</assistant>",
            excerpt(user),
            excerpt(answer)
        ))]),
        tools: Vec::new(),
        parallel_tool_calls: false,
        // Reasoning models spend some of this thinking; a title needs only a few.
        max_output_tokens: Some(256),
        thinking_budget_tokens: None,
        temperature: None,
    };
    let text = crate::answer::answer(client, request).await?;
    Ok(clean_title(&text))
}

/// The first line of the answer without think blocks, quotes, a `Title:` label or a
/// trailing full stop, shortened for the sidebar.
pub fn clean_title(raw: &str) -> Option<String> {
    let text = crate::answer::without_thinking(raw);
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    let lower = line.to_lowercase();
    let line = ["session title:", "title:", "标题:", "标题："]
        .iter()
        .find(|p| lower.starts_with(*p))
        .and_then(|p| line.get(p.len()..))
        .map_or(line, str::trim);
    let quotes: &[char] = &['"', '\'', '`', '“', '”', '‘', '’', '*', '#', ' '];
    let line = line.trim_matches(quotes).trim_end_matches(['.', '。']);
    let words: Vec<&str> = line.split_whitespace().collect();
    let title = words.join(" ");
    if title.is_empty() {
        return None;
    }
    if title.chars().count() > MAX_TITLE_CHARS {
        let cut: String = title.chars().take(MAX_TITLE_CHARS - 1).collect();
        return Some(format!("{}…", cut.trim_end()));
    }
    Some(title)
}

/// Watches a new session until its first turn ends; if it completed and the session
/// still has no title, names it. Runs as its own task and never fails the session.
pub(crate) fn spawn_auto_title(
    session: &SessionHandle,
    client: Arc<dyn ModelClient>,
    model: String,
    store: Arc<Store>,
) -> Option<tokio::task::JoinHandle<()>> {
    let id = session.id().clone();
    let mut events = match session.subscribe(0) {
        Ok(events) => events,
        Err(error) => {
            tracing::warn!(%error, "auto title: cannot watch the session");
            return None;
        }
    };
    Some(tokio::spawn(async move {
        let mut user = String::new();
        let mut answer = String::new();
        while let Some(env) = events.recv().await {
            match env.event {
                AgentEvent::TurnStarted { input } if user.is_empty() => user = input.text,
                AgentEvent::AssistantMessage { text, .. } => answer = text,
                AgentEvent::TurnEnded { reason, .. } => {
                    if reason != TurnEndReason::Completed || user.trim().is_empty() {
                        return;
                    }
                    break;
                }
                _ => {}
            }
        }
        // Drop the subscription: this task needs no more events.
        drop(events);
        let title = match generate_title(client.as_ref(), &model, &user, &answer).await {
            Ok(Some(title)) => title,
            Ok(None) => return,
            Err(error) => {
                tracing::warn!(%error, session = %id, "auto title failed");
                return;
            }
        };
        match store.session(&id) {
            Ok(Some(record)) if record.title.is_none() => {
                if let Err(error) = store.set_title(&id, &title) {
                    tracing::warn!(%error, session = %id, "auto title not saved");
                }
            }
            Ok(_) => {}
            Err(error) => tracing::warn!(%error, session = %id, "auto title not saved"),
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::clean_title;

    #[test]
    fn titles_are_cleaned() {
        assert_eq!(
            clean_title("Fix flaky login test"),
            Some("Fix flaky login test".into())
        );
        assert_eq!(
            clean_title("<think>hmm</think>\n\nTitle: \"Refactor config loading.\"\nextra"),
            Some("Refactor config loading".into())
        );
        assert_eq!(
            clean_title("标题：重构配置加载。"),
            Some("重构配置加载".into())
        );
        assert_eq!(clean_title("  \n <think>only thinking"), None);
        assert_eq!(
            clean_title("**Speed up   the   FTS index**"),
            Some("Speed up the FTS index".into())
        );
        let long = clean_title(&"word ".repeat(40)).unwrap();
        assert_eq!(long.chars().count(), 60);
        assert!(long.ends_with('…'));
    }
}
