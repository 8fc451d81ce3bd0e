//! String-replacement edits (`old_string` → `new_string`), applied in order to an
//! in-memory copy so a failing edit leaves the file untouched (all or none).

use serde::Deserialize;

use crate::files::fuzzy;
use crate::ToolError;

/// Occurrences listed in a "not unique" error.
const MAX_LISTED_MATCHES: usize = 10;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Edit {
    pub old_string: String,
    pub new_string: String,
    #[serde(default)]
    pub replace_all: bool,
}

/// Applies `edits` one after another (each sees the previous one's result) and returns the
/// new text. `file` names the file in errors.
pub(crate) fn apply_edits(original: &str, edits: &[Edit], file: &str) -> Result<String, ToolError> {
    apply_edits_seeing(original, edits, file, |_, _, _| {})
}

/// [`apply_edits`], calling `step(i, before, after)` with the text before and after each
/// edit, for a preview that shows what each edit alone changes.
pub(crate) fn apply_edits_seeing(
    original: &str,
    edits: &[Edit],
    file: &str,
    mut step: impl FnMut(usize, &str, &str),
) -> Result<String, ToolError> {
    if edits.is_empty() {
        return Err(ToolError::invalid_input(
            "edits is empty; nothing to change",
        ));
    }
    let mut text = original.to_owned();
    for (i, edit) in edits.iter().enumerate() {
        let which = if edits.len() > 1 {
            format!(" (edit {} of {})", i + 1, edits.len())
        } else {
            String::new()
        };
        let next = apply_one(&text, edit, file, &which, original, i > 0)?;
        step(i, &text, &next);
        text = next;
    }
    Ok(text)
}

fn apply_one(
    text: &str,
    edit: &Edit,
    file: &str,
    which: &str,
    original: &str,
    earlier_edits: bool,
) -> Result<String, ToolError> {
    let old = edit.old_string.as_str();
    let new = edit.new_string.as_str();
    if old == new {
        return Err(ToolError::invalid_input(format!(
            "old_string and new_string are identical{which}; there is nothing to change"
        )));
    }
    if old.is_empty() {
        if text.is_empty() {
            return Ok(new.to_owned());
        }
        return Err(ToolError::invalid_input(format!(
            "old_string is empty{which} but {file} is not: include the line(s) next to where the new text goes in old_string, or use write_file to replace the whole file"
        )));
    }
    // memmem's SIMD search: a 3 MB file is scanned in well under a millisecond.
    let positions: Vec<usize> =
        memchr::memmem::find_iter(text.as_bytes(), old.as_bytes()).collect();
    match positions.len() {
        0 => Err(not_found(text, old, file, which, original, earlier_edits)),
        1 => {
            let at = positions[0];
            let mut out = String::with_capacity(text.len() + new.len());
            out.push_str(&text[..at]);
            out.push_str(new);
            out.push_str(&text[at + old.len()..]);
            Ok(out)
        }
        _ if edit.replace_all => Ok(text.replace(old, new)),
        n => {
            let listed: Vec<(usize, &str)> = positions
                .iter()
                .take(MAX_LISTED_MATCHES)
                .map(|&at| (line_of(text, at), line_around(text, at)))
                .collect();
            let numbers: Vec<String> = listed.iter().map(|(no, _)| no.to_string()).collect();
            // The candidates themselves, so the model can pick the context that tells
            // them apart without reading the file again.
            let shown: String = listed
                .iter()
                .map(|(no, line)| {
                    format!("\n{no:>6}\t{}", line.chars().take(200).collect::<String>())
                })
                .collect();
            let more = if n > MAX_LISTED_MATCHES { ", …" } else { "" };
            Err(ToolError::invalid_input(format!(
                "old_string{which} occurs {n} times in {file} (at lines {}{more}). Include more surrounding lines in old_string to pick one, or set replace_all: true to change every occurrence.{shown}",
                numbers.join(", ")
            )))
        }
    }
}

/// The whole line holding byte offset `at`, without its line break.
fn line_around(text: &str, at: usize) -> &str {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    text[start..end].trim_end_matches('\r')
}

/// 1-based line of byte offset `at`.
fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

fn not_found(
    text: &str,
    old: &str,
    file: &str,
    which: &str,
    original: &str,
    earlier_edits: bool,
) -> ToolError {
    let hay: Vec<&str> = text.lines().collect();
    let needle: Vec<&str> = old.lines().collect();
    let cands = fuzzy::nearest(&hay, &needle, 3);
    let mut msg = format!("old_string{which} was not found in {file}.");
    if earlier_edits && original.contains(old) {
        msg.push_str(" It is in the original file, so an earlier edit in this call changed it; adjust the edits to apply to the text as the earlier ones leave it.");
    }
    msg.push(' ');
    msg.push_str(&fuzzy::render(&hay, &cands));
    msg.push_str("\nold_string must match the file exactly, including whitespace and indentation; read the lines again (read_file) and copy them. No edit was applied.");
    ToolError::invalid_input(msg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(old: &str, new: &str) -> Edit {
        Edit {
            old_string: old.into(),
            new_string: new.into(),
            replace_all: false,
        }
    }

    #[test]
    fn sequential_edits_and_replace_all() {
        let text = "a = 1\nb = 2\nc = a\n";
        let out = apply_edits(text, &[e("a = 1", "a = 10"), e("b = 2\n", "")], "f").unwrap();
        assert_eq!(out, "a = 10\nc = a\n");
        let mut all = e("a", "x");
        all.replace_all = true;
        assert_eq!(
            apply_edits(text, &[all], "f").unwrap(),
            "x = 1\nb = 2\nc = x\n"
        );
    }

    #[test]
    fn a_match_that_is_not_unique_shows_each_candidate_line() {
        let text = "fn a() {\n    let v = 1;\n}\nfn b() {\n    let v = 1;\r\n}\n";
        let err = apply_edits(text, &[e("v = 1", "v = 2")], "src/x.rs").unwrap_err();
        assert!(
            err.message
                .ends_with("every occurrence.\n     2\t    let v = 1;\n     5\t    let v = 1;"),
            "{}",
            err.message
        );
    }

    #[test]
    fn errors_explain_what_to_do() {
        let text = "fn a() {\n    let v = 1;\n}\nfn b() {\n    let v = 1;\n}\n";
        let err = apply_edits(text, &[e("let v = 1;", "let v = 2;")], "src/x.rs").unwrap_err();
        assert!(
            err.message
                .contains("occurs 2 times in src/x.rs (at lines 2, 5)"),
            "{}",
            err.message
        );
        let err = apply_edits(text, &[e("fn a() {\nlet v = 1;", "z")], "src/x.rs").unwrap_err();
        assert!(
            err.message
                .contains("lines 1-2 (differs only in whitespace/indentation)"),
            "{}",
            err.message
        );
        assert!(
            err.message.contains("     2\t    let v = 1;"),
            "{}",
            err.message
        );
        let err = apply_edits(text, &[e("fn a", "fn c"), e("fn a", "fn d")], "f").unwrap_err();
        assert!(err.message.contains("(edit 2 of 2)"), "{}", err.message);
        assert!(err.message.contains("earlier edit"), "{}", err.message);
        assert!(apply_edits(text, &[e("x", "x")], "f").is_err());
        assert!(apply_edits(text, &[e("", "x")], "f").is_err());
        assert_eq!(apply_edits("", &[e("", "x")], "f").unwrap(), "x");
        assert!(apply_edits(text, &[], "f").is_err());
    }
}
