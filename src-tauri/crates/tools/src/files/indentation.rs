//! read_file's `indentation` mode: the code block(s) around a line, found from
//! indentation alone so it works for any language laid out the usual way (braces,
//! Python, YAML, Lisp-ish, shell).
//!
//! A *header* is a line followed by more deeply indented lines; its *block* is the header,
//! the comment/attribute lines stuck to it above, its deeper lines (blank lines inside
//! included) and a closing line at the header's indentation (`}`, `end`, `fi`, …).

use std::ops::Range;

/// Columns a tab counts for; only relative depth matters, so any fixed width works for
/// files that indent consistently.
const TAB_WIDTH: usize = 4;

/// Lines that close a block at the header's own indentation.
const CLOSERS: &[&str] = &[
    "}", ")", "]", "end", "fi", "done", "esac", "until", "</", "#endif", "#end",
];
/// Lines that belong to the header below them (doc comments, attributes, decorators).
const ATTACHED: &[&str] = &["//", "#", "@", "/*", "*", "--", ";", "'''", "\"\"\""];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Options {
    /// 0-based anchor line.
    pub anchor: usize,
    /// How many levels of blocks, innermost first, to show (0 = all the way out).
    pub max_levels: usize,
    /// Also show the blocks next to the innermost one (its parent's whole body).
    pub include_siblings: bool,
}

/// Sorted, non-overlapping 0-based line ranges to show.
pub(crate) fn blocks(lines: &[&str], opts: Options) -> Vec<Range<usize>> {
    let indents: Vec<Option<usize>> = lines.iter().map(|l| indent(l)).collect();
    let Some(anchor) = nearest_code_line(&indents, opts.anchor) else {
        return Vec::new();
    };
    let mut ranges: Vec<Range<usize>> = Vec::new();
    // The innermost block: the anchor's own if it is a header, else the one around it.
    let inner_header = if is_header(&indents, anchor) {
        Some(anchor)
    } else {
        enclosing_header(&indents, anchor)
    };
    let Some(inner) = inner_header else {
        // Top-level line that opens nothing: its paragraph, or with siblings the file.
        ranges.push(if opts.include_siblings {
            0..lines.len()
        } else {
            paragraph(&indents, anchor)
        });
        return ranges;
    };
    ranges.push(block(lines, &indents, inner));
    let mut header = inner;
    let mut level = 1;
    while opts.max_levels == 0 || level < opts.max_levels {
        let Some(parent) = enclosing_header(&indents, header) else {
            break;
        };
        // Outer levels show their header and closing line, not everything in between.
        let full = block(lines, &indents, parent);
        let body_start = parent + 1;
        ranges.push(full.start..body_start);
        let closer = full.end - 1;
        if closer > parent && closes(lines[closer]) && indents[closer] == indents[parent] {
            ranges.push(closer..full.end);
        }
        header = parent;
        level += 1;
    }
    if opts.include_siblings {
        match enclosing_header(&indents, inner) {
            Some(parent) => {
                let full = block(lines, &indents, parent);
                let last = full.end - 1;
                let body_end =
                    if last > parent && closes(lines[last]) && indents[last] == indents[parent] {
                        last
                    } else {
                        full.end
                    };
                ranges.push(parent + 1..body_end);
            }
            None => ranges.push(0..lines.len()),
        }
    }
    merge(ranges)
}

/// Leading whitespace width, `None` for a blank line.
fn indent(line: &str) -> Option<usize> {
    if line.trim().is_empty() {
        return None;
    }
    Some(
        line.chars()
            .take_while(|c| c.is_whitespace())
            .map(|c| if c == '\t' { TAB_WIDTH } else { 1 })
            .sum(),
    )
}

/// The anchor itself, or the nearest non-blank line (below first, then above).
fn nearest_code_line(indents: &[Option<usize>], at: usize) -> Option<usize> {
    let at = at.min(indents.len().checked_sub(1)?);
    (at..indents.len())
        .find(|&i| indents[i].is_some())
        .or_else(|| (0..at).rev().find(|&i| indents[i].is_some()))
}

fn next_code_line(indents: &[Option<usize>], after: usize) -> Option<usize> {
    (after + 1..indents.len()).find(|&i| indents[i].is_some())
}

fn is_header(indents: &[Option<usize>], i: usize) -> bool {
    match (
        indents[i],
        next_code_line(indents, i).and_then(|n| indents[n]),
    ) {
        (Some(own), Some(next)) => next > own,
        _ => false,
    }
}

/// The nearest line above `i` indented less than `i`.
fn enclosing_header(indents: &[Option<usize>], i: usize) -> Option<usize> {
    let own = indents[i]?;
    (0..i)
        .rev()
        .find(|&h| indents[h].is_some_and(|ind| ind < own))
}

fn closes(line: &str) -> bool {
    let t = line.trim_start();
    CLOSERS.iter().any(|c| t.starts_with(c))
}

fn attached(line: &str) -> bool {
    let t = line.trim_start();
    ATTACHED.iter().any(|a| t.starts_with(a))
}

/// The block of header `h`: attached lines above, the header, its body, its closer.
fn block(lines: &[&str], indents: &[Option<usize>], h: usize) -> Range<usize> {
    let Some(own) = indents[h] else {
        return h..h + 1;
    };
    let mut start = h;
    // Allman braces: a lone `{` header belongs to the signature line above it.
    if lines[h].trim() == "{" && h > 0 && indents[h - 1] == Some(own) {
        start = h - 1;
    }
    while start > 0 && indents[start - 1] == Some(own) && attached(lines[start - 1]) {
        start -= 1;
    }
    let mut end = h + 1;
    let mut i = h + 1;
    while i < lines.len() {
        match indents[i] {
            None => {}
            Some(ind) if ind > own => end = i + 1,
            Some(ind) => {
                if ind == own && closes(lines[i]) {
                    end = i + 1;
                }
                break;
            }
        }
        i += 1;
    }
    start..end
}

/// Contiguous non-blank lines around `i`.
fn paragraph(indents: &[Option<usize>], i: usize) -> Range<usize> {
    let mut start = i;
    while start > 0 && indents[start - 1].is_some() {
        start -= 1;
    }
    let mut end = i + 1;
    while end < indents.len() && indents[end].is_some() {
        end += 1;
    }
    start..end
}

fn merge(mut ranges: Vec<Range<usize>>) -> Vec<Range<usize>> {
    ranges.retain(|r| r.start < r.end);
    ranges.sort_by_key(|r| r.start);
    let mut out: Vec<Range<usize>> = Vec::new();
    for r in ranges {
        match out.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const RUST: &str = "use std::io;

impl Server {
    /// Starts it.
    #[inline]
    pub fn start(&self) {
        let a = 1;

        if a > 0 {
            go();
        }
    }

    fn stop(&self) {
        halt();
    }
}
";

    fn run(src: &str, anchor_line: usize, max_levels: usize, siblings: bool) -> Vec<Range<usize>> {
        let lines: Vec<&str> = src.lines().collect();
        blocks(
            &lines,
            Options {
                anchor: anchor_line - 1,
                max_levels,
                include_siblings: siblings,
            },
        )
    }

    #[test]
    fn innermost_block_with_attached_lines() {
        // Line 7 (`let a = 1;`) sits in `start`, whose doc comment and attribute come too.
        assert_eq!(run(RUST, 7, 1, false), vec![3..12]);
        // On a header line: that header's own block.
        assert_eq!(run(RUST, 9, 1, false), vec![8..11]);
        // A blank anchor uses the next code line.
        assert_eq!(run(RUST, 8, 1, false), vec![8..11]);
    }

    #[test]
    fn outer_levels_show_headers_and_siblings_on_request() {
        // Two levels: `impl Server {` and its `}` around the method.
        // Three levels: `impl Server {` and the method's header around the `if` block,
        // with their closing lines; what lies between is left out.
        assert_eq!(run(RUST, 10, 3, false), vec![2..6, 8..12, 16..17]);
        // Siblings of `start`: the whole impl body, including `stop`.
        assert_eq!(run(RUST, 7, 1, true), vec![3..16]);
        // max_levels 0 goes all the way out.
        assert_eq!(run(RUST, 10, 0, false), run(RUST, 10, 3, false));
    }

    #[test]
    fn python_and_top_level_lines() {
        let py = "import os\n\nclass A:\n    def f(self):\n        return 1\n\n    def g(self):\n        pass\n\nx = 1\ny = 2\n";
        assert_eq!(run(py, 5, 1, false), vec![3..5]);
        assert_eq!(run(py, 5, 2, false), vec![2..5]);
        assert_eq!(run(py, 10, 1, false), vec![9..11]);
        assert_eq!(run(py, 10, 1, true), vec![0..11]);
        assert!(run("", 1, 1, false).is_empty());
    }
}
