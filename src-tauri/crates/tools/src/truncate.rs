//! Caps tool output so one call cannot flood the context. The model gets a machine-readable
//! `<system_hint>` (the format Memo Code uses) plus the head of the output.

/// Default cap; `MEMO_TOOL_RESULT_MAX_CHARS` overrides it.
pub const DEFAULT_MAX_CHARS: usize = 12_000;

pub fn max_chars_from_env() -> usize {
    std::env::var("MEMO_TOOL_RESULT_MAX_CHARS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|n| *n > 0)
        .unwrap_or(DEFAULT_MAX_CHARS)
}

pub fn truncate_tool_output(tool: &str, output: String) -> String {
    truncate_with_limit(tool, output, max_chars_from_env())
}

pub fn truncate_with_limit(tool: &str, output: String, max_chars: usize) -> String {
    let actual = output.chars().count();
    if actual <= max_chars {
        return output;
    }
    let head: String = output.chars().take(max_chars / 2).collect();
    format!(
        "<system_hint type=\"tool_output_omitted\" tool=\"{tool}\" reason=\"too_long\" actual_chars=\"{actual}\" max_chars=\"{max_chars}\">\
Tool output too long, automatically omitted. Please narrow the scope or add limit parameters and try again.\
</system_hint>\n{head}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_output_is_untouched_and_long_output_gets_a_hint() {
        assert_eq!(truncate_with_limit("t", "abc".into(), 3), "abc");
        let out = truncate_with_limit("grep_files", "x".repeat(50), 10);
        assert!(out.starts_with("<system_hint type=\"tool_output_omitted\" tool=\"grep_files\" reason=\"too_long\" actual_chars=\"50\" max_chars=\"10\">"));
        assert!(out.ends_with("\nxxxxx"));
    }
}
