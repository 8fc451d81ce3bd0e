//! Token estimates: exact BPE counts for OpenAI-family models (tiktoken), a cheap byte
//! estimate for everything else, where no public tokenizer exists or the model's own is
//! unknown. Estimates only steer compaction and the layer report; the provider's usage
//! numbers stay the truth for billing.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, OnceLock};

use memo_model::{Message, ToolSpec};

/// Counted on top of each message's text for role markers and framing.
const PER_MESSAGE_OVERHEAD: u64 = 4;

/// What one image is counted as. Providers charge by the image's pixels (Anthropic about
/// 1,600 tokens for a large one, OpenAI up to ~1,100 for a high-detail tile set, Gemini
/// 258 per tile); the base64 text says nothing about that, so a large image's cost is
/// assumed.
pub const IMAGE_TOKENS: u64 = 1_600;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Encoding {
    O200k,
    Cl100k,
}

/// Counts tokens for one model. Cheap to copy; the tiktoken tables are loaded once per
/// process, on first use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenCounter {
    encoding: Option<Encoding>,
}

impl Default for TokenCounter {
    fn default() -> Self {
        Self::bytes()
    }
}

impl TokenCounter {
    /// The byte estimate, for models without a known public tokenizer.
    pub fn bytes() -> Self {
        Self { encoding: None }
    }

    /// tiktoken for OpenAI-family model names (a `vendor/` prefix as routers use it is
    /// ignored), the byte estimate for every other model.
    pub fn for_model(model: &str) -> Self {
        let name = model.rsplit('/').next().unwrap_or(model).to_lowercase();
        let o200k = [
            "gpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "chatgpt-", "o1", "o3", "o4", "codex",
            "gpt-oss",
        ];
        let cl100k = ["gpt-4", "gpt-3.5", "gpt-35", "text-embedding-"];
        let encoding = if o200k.iter().any(|p| name.starts_with(p)) {
            Some(Encoding::O200k)
        } else if cl100k.iter().any(|p| name.starts_with(p)) {
            Some(Encoding::Cl100k)
        } else {
            None
        };
        Self { encoding }
    }

    /// `tiktoken:o200k_base`, `tiktoken:cl100k_base` or `estimate:bytes`.
    pub fn name(&self) -> &'static str {
        match self.encoding {
            Some(Encoding::O200k) => "tiktoken:o200k_base",
            Some(Encoding::Cl100k) => "tiktoken:cl100k_base",
            None => "estimate:bytes",
        }
    }

    pub fn count(&self, text: &str) -> u64 {
        if text.is_empty() {
            return 0;
        }
        let Some(encoding) = self.encoding else {
            return byte_estimate(text);
        };
        if text.len() < CACHE_MIN_BYTES {
            return tiktoken_count(encoding, text);
        }
        let key = (encoding, text.len(), hash(text));
        if let Some(n) = cache().lock().ok().and_then(|c| c.get(&key).copied()) {
            return n;
        }
        let n = tiktoken_count(encoding, text);
        if let Ok(mut c) = cache().lock() {
            if c.len() >= CACHE_MAX_ENTRIES {
                c.clear();
            }
            c.insert(key, n);
        }
        n
    }

    /// One history message: its text and images, reasoning that is sent back, tool calls
    /// and results.
    pub fn message(&self, message: &Message) -> u64 {
        PER_MESSAGE_OVERHEAD
            + match message {
                Message::User { text, images } => {
                    self.count(text) + IMAGE_TOKENS * images.len() as u64
                }
                Message::Assistant {
                    text,
                    reasoning,
                    tool_calls,
                    ..
                } => {
                    self.count(text)
                        + reasoning.as_deref().map_or(0, |r| self.count(r))
                        + tool_calls
                            .iter()
                            .map(|c| self.count(&c.name) + self.count(&c.arguments) + 3)
                            .sum::<u64>()
                }
                Message::ToolResult { content, .. } => self.count(content),
            }
    }

    pub fn messages(&self, messages: &[Message]) -> u64 {
        messages.iter().map(|m| self.message(m)).sum()
    }

    /// The tool definitions as they travel in the request: each one's JSON (counted as
    /// one text, so a known tool costs one cache lookup) plus the framing around it.
    /// Measured against llama.cpp's count for Qwen2.5 with its chat template, which
    /// re-serialises the JSON with spaces: within 2% for Memo's built-in tools.
    pub fn tools(&self, tools: &[ToolSpec]) -> u64 {
        if tools.is_empty() {
            return 0;
        }
        let definitions: u64 = tools
            .iter()
            .map(|t| {
                let json = serde_json::to_string(t).unwrap_or_default();
                let tokens = match self.encoding {
                    Some(_) => self.count(&json),
                    None => json_estimate(&json),
                };
                tokens + PER_TOOL_OVERHEAD
            })
            .sum();
        TOOL_BLOCK_OVERHEAD + definitions
    }
}

/// Each definition's wrapper (`{"type": "function", "function": …}` or its equivalent)
/// and the separators a template puts between definitions.
const PER_TOOL_OVERHEAD: u64 = 14;
/// The instructions a chat template wraps around the tool list (Qwen2.5's: about 70
/// tokens; hosted APIs add a preamble of their own that they do not show).
const TOOL_BLOCK_OVERHEAD: u64 = 70;

/// JSON runs denser than prose: quotes, braces and short keys each take a token of their
/// own. 3.5 bytes a token matched Qwen2.5's count of Memo's tool definitions; the prose
/// rule (4) undercounted them by a tenth.
fn json_estimate(json: &str) -> u64 {
    let (ascii, other) = char_classes(json);
    (ascii * 2).div_ceil(7) + other
}

/// Texts shorter than this are counted directly: a lookup would cost about as much.
const CACHE_MIN_BYTES: usize = 32;
/// Bound on cached counts; the cache is simply emptied when it is full.
const CACHE_MAX_ENTRIES: usize = 8192;

type CacheKey = (Encoding, usize, u64);

/// Counts by content. BPE runs at roughly 10 MB/s, and the same tool definitions, skill
/// lists and context files are counted for every session and every report.
fn cache() -> &'static Mutex<HashMap<CacheKey, u64>> {
    static CACHE: OnceLock<Mutex<HashMap<CacheKey, u64>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

fn hash(text: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

fn tiktoken_count(encoding: Encoding, text: &str) -> u64 {
    // The tokenizer's regex can give up on pathological input (and its tables are loaded
    // with an unwrap); an estimate is better than a crashed session.
    let counted = catch_unwind(AssertUnwindSafe(|| {
        let bpe = match encoding {
            Encoding::O200k => tiktoken_rs::o200k_base_singleton(),
            Encoding::Cl100k => tiktoken_rs::cl100k_base_singleton(),
        };
        bpe.encode_ordinary(text).len() as u64
    }));
    counted.unwrap_or_else(|_| byte_estimate(text))
}

/// About four ASCII bytes per token, and three tokens for every four non-ASCII characters:
/// Qwen2.5's tokenizer counted 0.75 a character for Chinese prose (a SOUL.md and an
/// AGENTS.md, `scripts/measure/cjk-tokens.sh`), where one a character overcounted by a
/// fifth and four bytes would undercount it threefold.
fn byte_estimate(text: &str) -> u64 {
    let (ascii, other) = char_classes(text);
    ascii.div_ceil(4) + (other * 3).div_ceil(4)
}

/// ASCII characters and all others: the two rates the estimates count at.
fn char_classes(text: &str) -> (u64, u64) {
    let ascii = text.bytes().filter(u8::is_ascii).count() as u64;
    (ascii, text.chars().count() as u64 - ascii)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openai_family_models_use_tiktoken() {
        assert_eq!(
            TokenCounter::for_model("gpt-4o-mini").name(),
            "tiktoken:o200k_base"
        );
        assert_eq!(
            TokenCounter::for_model("openai/gpt-5").name(),
            "tiktoken:o200k_base"
        );
        assert_eq!(
            TokenCounter::for_model("o3-mini").name(),
            "tiktoken:o200k_base"
        );
        assert_eq!(
            TokenCounter::for_model("gpt-4-turbo").name(),
            "tiktoken:cl100k_base"
        );
        assert_eq!(
            TokenCounter::for_model("deepseek-chat").name(),
            "estimate:bytes"
        );
        assert_eq!(
            TokenCounter::for_model("claude-sonnet-4-5").name(),
            "estimate:bytes"
        );
    }

    #[test]
    fn tiktoken_counts_real_tokens() {
        let counter = TokenCounter::for_model("gpt-4o");
        assert_eq!(counter.count("hello world"), 2);
        assert_eq!(counter.count(""), 0);
    }

    #[test]
    fn byte_estimate_is_a_quarter_of_ascii_and_three_quarters_of_a_cjk_char() {
        let counter = TokenCounter::bytes();
        assert_eq!(counter.count("abcdefgh"), 2);
        assert_eq!(counter.count("abcdefghi"), 3);
        assert_eq!(counter.count("你好世界"), 3);
        assert_eq!(counter.count("你好世界，再见"), 6);
    }

    #[test]
    fn tools_count_json_denser_than_prose_plus_their_framing() {
        let counter = TokenCounter::bytes();
        assert_eq!(counter.tools(&[]), 0, "no tools, no tool block");
        let tool = ToolSpec {
            name: "t".into(),
            description: String::new(),
            input_schema: serde_json::json!({}),
        };
        let json_bytes = serde_json::to_string(&tool).unwrap().len() as u64;
        let one = counter.tools(std::slice::from_ref(&tool));
        assert_eq!(
            one,
            TOOL_BLOCK_OVERHEAD + PER_TOOL_OVERHEAD + (json_bytes * 2).div_ceil(7)
        );
        assert!(json_estimate(&"x".repeat(700)) > byte_estimate(&"x".repeat(700)));
        let two = counter.tools(&[tool.clone(), tool]);
        assert_eq!(
            two - one,
            one - TOOL_BLOCK_OVERHEAD,
            "the block is counted once"
        );
    }

    #[test]
    fn messages_count_calls_and_results() {
        let counter = TokenCounter::bytes();
        let call = Message::Assistant {
            text: String::new(),
            reasoning: None,
            tool_calls: vec![memo_model::ToolCall {
                id: "c".into(),
                name: "read".into(),
                arguments: "{\"a\":1}".into(),
            }],
            provider_data: None,
        };
        let result = Message::ToolResult {
            call_id: "c".into(),
            name: "read".into(),
            content: "x".repeat(40),
            is_error: false,
        };
        assert_eq!(counter.message(&call), 4 + 1 + 2 + 3);
        assert_eq!(counter.message(&result), 4 + 10);
    }
}
