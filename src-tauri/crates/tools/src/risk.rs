//! Risk of tools we did not write (MCP servers), guessed from their names. Memo Code's
//! keyword buckets, made stricter: when nothing matches, the tool is treated as `write`,
//! never as `read`; when several buckets match, the riskiest wins.

use memo_protocol::RiskLevel;

const EXECUTE: &[&str] = &[
    "shell", "exec", "execute", "command", "run", "spawn", "terminal", "script", "eval",
];
const WRITE: &[&str] = &[
    "patch", "write", "edit", "create", "delete", "remove", "update", "move", "rename", "insert",
    "upload", "push", "commit", "set", "put", "post", "send", "drop",
];
const READ: &[&str] = &[
    "read", "file", "list", "grep", "fetch", "get", "search", "find", "query", "show", "describe",
    "view",
];

/// Splits `get_file_contents`, `listFiles`, `read-resource` into lowercase words.
fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut prev_lower = false;
    for ch in name.chars() {
        if !ch.is_alphanumeric() {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            prev_lower = false;
            continue;
        }
        if ch.is_uppercase() && prev_lower && !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
        prev_lower = ch.is_lowercase() || ch.is_ascii_digit();
        current.extend(ch.to_lowercase());
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

pub fn classify_by_name(name: &str) -> RiskLevel {
    let words = words(name);
    let has = |bucket: &[&str]| words.iter().any(|w| bucket.contains(&w.as_str()));
    if has(EXECUTE) {
        RiskLevel::Execute
    } else if has(WRITE) {
        RiskLevel::Write
    } else if has(READ) {
        RiskLevel::Read
    } else {
        RiskLevel::Write
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_pick_the_riskiest_bucket_and_unknown_is_write() {
        assert_eq!(classify_by_name("read_file"), RiskLevel::Read);
        assert_eq!(classify_by_name("listDirectory"), RiskLevel::Read);
        assert_eq!(classify_by_name("github__search_issues"), RiskLevel::Read);
        assert_eq!(classify_by_name("write_file"), RiskLevel::Write);
        assert_eq!(classify_by_name("create_or_update_file"), RiskLevel::Write);
        assert_eq!(classify_by_name("read_and_delete"), RiskLevel::Write);
        assert_eq!(classify_by_name("run_query"), RiskLevel::Execute);
        assert_eq!(classify_by_name("executeCommand"), RiskLevel::Execute);
        assert_eq!(classify_by_name("execute"), RiskLevel::Execute);
        assert_eq!(
            classify_by_name("echo"),
            RiskLevel::Write,
            "unknown is never below write"
        );
        assert_eq!(classify_by_name("add"), RiskLevel::Write);
        // Words, not substrings: "settings" is not "set", "listen" is not "list".
        assert_eq!(classify_by_name("settings"), RiskLevel::Write);
        assert_eq!(classify_by_name("dataset_info"), RiskLevel::Write);
    }
}
