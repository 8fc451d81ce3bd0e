//! The `*** Begin Patch` multi-file format many models are trained to write:
//!
//! ```text
//! *** Begin Patch
//! *** Add File: path          (every following line starts with '+')
//! *** Delete File: path
//! *** Update File: path
//! *** Move to: new/path       (optional, right after Update File)
//! @@ optional line to find first, e.g. a function signature
//!  context line
//! -removed line
//! +added line
//! *** End of File             (optional: the hunk ends at the end of the file)
//! *** End Patch
//! ```
//!
//! Hunks carry no line numbers; each is located by its context, searching forward from
//! the previous hunk, first exactly, then ignoring trailing whitespace, then ignoring
//! indentation and typographic look-alikes (curly quotes, dashes), which models often get
//! wrong in context lines they merely copied.

use crate::files::fuzzy;
use crate::ToolError;

const BEGIN: &str = "*** Begin Patch";
const END: &str = "*** End Patch";
const ADD: &str = "*** Add File: ";
const DELETE: &str = "*** Delete File: ";
const UPDATE: &str = "*** Update File: ";
const MOVE: &str = "*** Move to: ";
const EOF_MARK: &str = "*** End of File";

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum PatchOp {
    Add {
        path: String,
        content: String,
    },
    Delete {
        path: String,
    },
    Update {
        path: String,
        move_to: Option<String>,
        chunks: Vec<Chunk>,
    },
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Chunk {
    /// `@@ text` lines: each is found (in order) before the hunk's context is searched.
    pub anchors: Vec<String>,
    pub old: Vec<String>,
    pub new: Vec<String>,
    /// For each line of `new`: the index in `old` when it is a context line. Context
    /// lines are written back as the file has them, so a tolerant match (trailing
    /// spaces, curly quotes) never rewrites lines the patch did not mean to change.
    pub new_from_old: Vec<Option<usize>>,
    pub end_of_file: bool,
    /// 1-based line of the patch where the hunk starts, for errors.
    pub patch_line: usize,
}

impl Chunk {
    fn is_empty(&self) -> bool {
        self.old.is_empty() && self.new.is_empty()
    }
}

fn bad(line: usize, msg: impl std::fmt::Display) -> ToolError {
    ToolError::invalid_input(format!("patch line {line}: {msg}"))
}

fn is_file_header(line: &str) -> bool {
    line.starts_with(ADD) || line.starts_with(DELETE) || line.starts_with(UPDATE)
}

/// Parses a whole patch. Text around the Begin/End markers (a heredoc wrapper, say) is
/// ignored.
pub(crate) fn parse(patch: &str) -> Result<Vec<PatchOp>, ToolError> {
    let lines: Vec<&str> = patch.lines().collect();
    let begin = lines
        .iter()
        .position(|l| l.trim() == BEGIN)
        .ok_or_else(|| {
            ToolError::invalid_input(format!("the patch must start with a '{BEGIN}' line"))
        })?;
    let end = lines
        .iter()
        .rposition(|l| l.trim() == END)
        .filter(|&e| e > begin)
        .ok_or_else(|| {
            ToolError::invalid_input(format!("the patch must end with a '{END}' line"))
        })?;
    let mut ops = Vec::new();
    let mut i = begin + 1;
    while i < end {
        let line = lines[i];
        let no = i + 1;
        if let Some(path) = line.strip_prefix(ADD) {
            i += 1;
            let mut content = String::new();
            while i < end && !is_file_header(lines[i]) {
                let Some(text) = lines[i].strip_prefix('+') else {
                    return Err(bad(
                        i + 1,
                        format!(
                            "every line of an Add File section must start with '+', got: {}",
                            lines[i]
                        ),
                    ));
                };
                content.push_str(text);
                content.push('\n');
                i += 1;
            }
            ops.push(PatchOp::Add {
                path: path_arg(path, no)?,
                content,
            });
        } else if let Some(path) = line.strip_prefix(DELETE) {
            ops.push(PatchOp::Delete {
                path: path_arg(path, no)?,
            });
            i += 1;
        } else if let Some(path) = line.strip_prefix(UPDATE) {
            let path = path_arg(path, no)?;
            i += 1;
            let mut move_to = None;
            if let Some(dest) = lines
                .get(i)
                .filter(|_| i < end)
                .and_then(|l| l.strip_prefix(MOVE))
            {
                move_to = Some(path_arg(dest, i + 1)?);
                i += 1;
            }
            let (chunks, next) = parse_chunks(&lines, i, end)?;
            i = next;
            if chunks.is_empty() && move_to.is_none() {
                return Err(bad(no, format!("Update File {path} has no hunks")));
            }
            ops.push(PatchOp::Update {
                path,
                move_to,
                chunks,
            });
        } else if line.trim().is_empty() {
            i += 1;
        } else {
            return Err(bad(
                no,
                format!("expected '{ADD}', '{UPDATE}' or '{DELETE}', got: {line}"),
            ));
        }
    }
    if ops.is_empty() {
        return Err(ToolError::invalid_input("the patch changes no file"));
    }
    Ok(ops)
}

fn path_arg(raw: &str, line: usize) -> Result<String, ToolError> {
    let p = raw.trim();
    if p.is_empty() {
        return Err(bad(line, "the file path is missing"));
    }
    Ok(p.to_owned())
}

/// Parses the hunks of one Update File section from `lines[i..end]`; returns them and
/// the index of the first line after the section.
fn parse_chunks(
    lines: &[&str],
    mut i: usize,
    end: usize,
) -> Result<(Vec<Chunk>, usize), ToolError> {
    let mut chunks: Vec<Chunk> = Vec::new();
    let mut cur: Option<Chunk> = None;
    while i < end && !is_file_header(lines[i]) {
        let line = lines[i];
        let no = i + 1;
        i += 1;
        if let Some(rest) = line.strip_prefix("@@") {
            let anchor = anchor_text(rest);
            match cur.as_mut() {
                // Several `@@` lines in a row narrow down step by step (class, then method).
                Some(c) if c.is_empty() => c.anchors.extend(anchor),
                _ => {
                    chunks.extend(cur.take());
                    cur = Some(Chunk {
                        anchors: anchor.into_iter().collect(),
                        patch_line: no,
                        ..Chunk::default()
                    });
                }
            }
            continue;
        }
        if line.trim_end() == EOF_MARK {
            match cur.as_mut() {
                Some(c) if !c.is_empty() => c.end_of_file = true,
                _ => return Err(bad(no, format!("'{EOF_MARK}' must follow a hunk"))),
            }
            continue;
        }
        if line.starts_with("***") {
            return Err(bad(no, format!("unexpected marker: {line}")));
        }
        let chunk = cur.get_or_insert_with(|| Chunk {
            patch_line: no,
            ..Chunk::default()
        });
        if chunk.end_of_file {
            return Err(bad(no, format!("lines after '{EOF_MARK}' need a new '@@'")));
        }
        match line.chars().next() {
            Some('+') => {
                chunk.new.push(line[1..].to_owned());
                chunk.new_from_old.push(None);
            }
            Some('-') => chunk.old.push(line[1..].to_owned()),
            // Many writers drop the space of an empty context line.
            Some(' ') | None => {
                let text = line.get(1..).unwrap_or("").to_owned();
                chunk.old.push(text.clone());
                chunk.new.push(text);
                chunk.new_from_old.push(Some(chunk.old.len() - 1));
            }
            Some(_) => {
                return Err(bad(
                    no,
                    format!("hunk lines must start with ' ', '-' or '+', got: {line}"),
                ))
            }
        }
    }
    chunks.extend(cur.filter(|c| !c.is_empty() || !c.anchors.is_empty()));
    if let Some(c) = chunks.iter().find(|c| c.is_empty()) {
        return Err(bad(c.patch_line, "a '@@' hunk has no lines"));
    }
    Ok((chunks, i))
}

/// The text to search for from an `@@` line; none for a bare `@@` or a unified-diff
/// header (`@@ -3,4 +3,5 @@`), whose line numbers this format does not use.
fn anchor_text(rest: &str) -> Option<String> {
    let t = rest.trim();
    if t.is_empty() || (t.starts_with('-') && t.contains(" +") && t.ends_with("@@")) {
        return None;
    }
    if t.starts_with('-') && t.contains(" +") && t.contains("@@") {
        // `@@ -1,2 +1,3 @@ fn name`: git's section text is not an exact line; skip it.
        return None;
    }
    Some(t.to_owned())
}

/// Applies an Update File section's hunks to `text` (LF line endings). `file` names the
/// file in errors.
pub(crate) fn apply_chunks(text: &str, chunks: &[Chunk], file: &str) -> Result<String, ToolError> {
    let mut lines: Vec<&str> = text.split('\n').collect();
    // A final newline yields an empty last piece that is not a line.
    let trailing_newline = text.is_empty() || text.ends_with('\n');
    if trailing_newline {
        lines.pop();
    }
    let mut replacements: Vec<(usize, usize, Vec<&str>)> = Vec::new();
    let mut cursor = 0usize;
    for (k, chunk) in chunks.iter().enumerate() {
        let which = format!(
            "Update File {file}: hunk {} (patch line {})",
            k + 1,
            chunk.patch_line
        );
        for anchor in &chunk.anchors {
            let found = find_seq(&lines, cursor, std::slice::from_ref(anchor), false);
            let Some(at) = found else {
                return Err(ToolError::invalid_input(format!(
                    "{which}: the '@@ {anchor}' line was not found{}. {}",
                    after(cursor),
                    fuzzy::render(&lines, &fuzzy::nearest(&lines, &[anchor.as_str()], 3))
                )));
            };
            cursor = at + 1;
        }
        if chunk.old.is_empty() {
            // Pure addition: after the anchor, or at the end of the file without one.
            let at = if chunk.anchors.is_empty() {
                lines.len()
            } else {
                cursor
            };
            replacements.push((at, 0, chunk.new.iter().map(String::as_str).collect()));
            continue;
        }
        let mut old_len = chunk.old.len();
        let mut new_len = chunk.new.len();
        let mut found = find_seq(&lines, cursor, &chunk.old, chunk.end_of_file);
        // A trailing blank context line often stands for the end of the file.
        while found.is_none()
            && old_len > 1
            && chunk.old[old_len - 1].is_empty()
            && new_len > 0
            && chunk.new_from_old[new_len - 1] == Some(old_len - 1)
        {
            old_len -= 1;
            new_len -= 1;
            found = find_seq(&lines, cursor, &chunk.old[..old_len], chunk.end_of_file);
        }
        let Some(at) = found else {
            let expected: Vec<&str> = chunk.old.iter().map(String::as_str).collect();
            let earlier = cursor > 0 && find_seq(&lines, 0, &chunk.old, false).is_some();
            let hint = if earlier {
                " These lines appear earlier in the file: hunks must be in file order."
            } else {
                ""
            };
            return Err(ToolError::invalid_input(format!(
                "{which}: the context and '-' lines were not found{}{}.{hint}\nExpected:\n{}\n{}\nNo file was changed.",
                after(cursor),
                if chunk.end_of_file { " at the end of the file" } else { "" },
                expected.iter().map(|l| format!("  {l}")).collect::<Vec<_>>().join("\n"),
                fuzzy::render(&lines, &fuzzy::nearest(&lines, &expected, 3))
            )));
        };
        let new: Vec<&str> = chunk.new[..new_len]
            .iter()
            .zip(&chunk.new_from_old)
            .map(|(text, from)| match from {
                Some(j) => lines[at + j],
                None => text.as_str(),
            })
            .collect();
        replacements.push((at, old_len, new));
        cursor = at + old_len;
    }
    replacements.sort_by_key(|r| r.0);
    let mut out: Vec<&str> = Vec::with_capacity(lines.len());
    let mut at = 0usize;
    for (start, len, new) in replacements {
        if start < at {
            return Err(ToolError::invalid_input(format!(
                "Update File {file}: two hunks change the same lines (around line {})",
                start + 1
            )));
        }
        out.extend(&lines[at..start]);
        out.extend(new);
        at = start + len;
    }
    out.extend(&lines[at..]);
    let mut result = out.join("\n");
    // The file keeps (or lacks) its final newline; a new file gets one.
    if !out.is_empty() && trailing_newline {
        result.push('\n');
    }
    Ok(result)
}

fn after(cursor: usize) -> String {
    if cursor == 0 {
        String::new()
    } else {
        format!(" after line {cursor}")
    }
}

/// First index `>= from` where `needle` matches `lines`, trying stricter comparisons
/// first so an exact match always wins over a tolerant one elsewhere.
fn find_seq(lines: &[&str], from: usize, needle: &[String], at_end: bool) -> Option<usize> {
    if needle.len() > lines.len() {
        return None;
    }
    let last = lines.len() - needle.len();
    let starts: Vec<usize> = if at_end {
        (last >= from).then_some(last).into_iter().collect()
    } else {
        (from..=last).collect()
    };
    let tiers: [fn(&str, &str) -> bool; 4] = [
        |a, b| a == b,
        |a, b| a.trim_end() == b.trim_end(),
        |a, b| a.trim() == b.trim(),
        |a, b| canonical(a) == canonical(b),
    ];
    tiers.iter().find_map(|eq| {
        starts
            .iter()
            .copied()
            .find(|&s| needle.iter().enumerate().all(|(j, n)| eq(lines[s + j], n)))
    })
}

/// Trimmed, with typographic characters mapped to their ASCII forms.
fn canonical(s: &str) -> String {
    s.trim()
        .chars()
        .map(|c| match c {
            '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' => '\'',
            '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' => '"',
            '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
            '\u{00A0}' | '\u{2002}'..='\u{200A}' | '\u{202F}' | '\u{3000}' => ' ',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn update(patch: &str) -> Vec<Chunk> {
        match parse(patch).unwrap().remove(0) {
            PatchOp::Update { chunks, .. } => chunks,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn parses_every_operation() {
        let ops = parse(
            "*** Begin Patch\n*** Add File: new.txt\n+hello\n+\n*** Delete File: old.txt\n*** Update File: a.rs\n*** Move to: b.rs\n@@ fn main\n-x\n+y\n*** End of File\n*** End Patch\n",
        )
        .unwrap();
        assert_eq!(ops.len(), 3);
        assert_eq!(
            ops[0],
            PatchOp::Add {
                path: "new.txt".into(),
                content: "hello\n\n".into()
            }
        );
        assert_eq!(
            ops[1],
            PatchOp::Delete {
                path: "old.txt".into()
            }
        );
        let PatchOp::Update {
            path,
            move_to,
            chunks,
        } = &ops[2]
        else {
            panic!()
        };
        assert_eq!((path.as_str(), move_to.as_deref()), ("a.rs", Some("b.rs")));
        assert_eq!(chunks[0].anchors, vec!["fn main".to_owned()]);
        assert!(chunks[0].end_of_file);
    }

    #[test]
    fn rejects_malformed_patches() {
        for (patch, needle) in [
            ("*** Update File: a\n-x\n*** End Patch", "Begin Patch"),
            ("*** Begin Patch\n*** Update File: a\n-x\n", "End Patch"),
            ("*** Begin Patch\n*** End Patch", "changes no file"),
            (
                "*** Begin Patch\n*** Add File: a\nno plus\n*** End Patch",
                "must start with '+'",
            ),
            (
                "*** Begin Patch\n*** Update File: a\n*** End Patch",
                "has no hunks",
            ),
            (
                "*** Begin Patch\n*** Update File: a\n?x\n*** End Patch",
                "line 3",
            ),
            ("*** Begin Patch\nrandom\n*** End Patch", "expected"),
            (
                "*** Begin Patch\n*** Add File:  \n*** End Patch",
                "path is missing",
            ),
        ] {
            let err = parse(patch).unwrap_err();
            assert!(err.message.contains(needle), "{patch:?}: {}", err.message);
        }
    }

    #[test]
    fn applies_hunks_with_tolerant_context() {
        let text = "fn a() {\n    one();\n}\n\nfn b() {\n    one();\n}\n";
        let chunks = update(
            "*** Begin Patch\n*** Update File: x\n@@ fn b() {\n-    one();\n+    two();\n*** End Patch",
        );
        assert_eq!(
            apply_chunks(text, &chunks, "x").unwrap(),
            "fn a() {\n    one();\n}\n\nfn b() {\n    two();\n}\n"
        );
        // Trailing spaces and curly quotes in the context still match.
        let chunks = update("*** Begin Patch\n*** Update File: x\n say(\u{201C}hi\u{201D});  \n-old\n+new\n*** End Patch");
        assert_eq!(
            apply_chunks("say(\"hi\");\nold\n", &chunks, "x").unwrap(),
            "say(\"hi\");\nnew\n"
        );
        // A trailing empty context line standing for the end of the file.
        let chunks = update("*** Begin Patch\n*** Update File: x\n a\n-b\n+c\n\n*** End Patch");
        assert_eq!(apply_chunks("a\nb\n", &chunks, "x").unwrap(), "a\nc\n");
        // Pure addition without anchor appends; a file without final newline keeps it so.
        let chunks = update("*** Begin Patch\n*** Update File: x\n+tail\n*** End Patch");
        assert_eq!(apply_chunks("a\n", &chunks, "x").unwrap(), "a\ntail\n");
        let chunks = update("*** Begin Patch\n*** Update File: x\n-b\n+c\n*** End Patch");
        assert_eq!(apply_chunks("a\nb", &chunks, "x").unwrap(), "a\nc");
    }

    #[test]
    fn bad_context_is_explained() {
        let chunks = update("*** Begin Patch\n*** Update File: x\n@@\n ctx line one\n-remove me\n+added\n*** End Patch");
        let err = apply_chunks("ctx line 1\nremove me!\n", &chunks, "x").unwrap_err();
        assert!(
            err.message.contains("hunk 1 (patch line 3)"),
            "{}",
            err.message
        );
        assert!(
            err.message
                .contains("Expected:\n  ctx line one\n  remove me"),
            "{}",
            err.message
        );
        assert!(err.message.contains("lines 1-2"), "{}", err.message);
        let chunks = update("*** Begin Patch\n*** Update File: x\n@@ missing\n-a\n*** End Patch");
        let err = apply_chunks("a\n", &chunks, "x").unwrap_err();
        assert!(
            err.message.contains("'@@ missing' line was not found"),
            "{}",
            err.message
        );
        let chunks =
            update("*** Begin Patch\n*** Update File: x\n-b\n+B\n@@\n-a\n+A\n*** End Patch");
        let err = apply_chunks("a\nb\n", &chunks, "x").unwrap_err();
        assert!(err.message.contains("file order"), "{}", err.message);
    }
}
