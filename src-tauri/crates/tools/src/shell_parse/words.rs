//! The words of a command: what each argument is once the shell has removed its quotes,
//! with known variables and foldable substitutions filled in. Part of
//! [`crate::shell_parse`]'s tree walk.

use tree_sitter::Node;

use super::{all_children, named_children, Script, Walker, MAX_DEPTH, MAX_NESTING, SUBSTITUTION};
use crate::shell_parse::value::{
    ansi_c_string, is_literal, raw_string, unescape_double, unescape_unquoted,
};

impl Walker<'_> {
    /// The words an argument becomes. An unquoted substitution or variable whose value
    /// is known is split on blanks, as the shell splits it.
    pub(super) fn words(&mut self, node: Node, subs: &mut Vec<Script>) -> Vec<String> {
        let node = match node.kind() {
            "command_name" => match node.named_child(0) {
                Some(inner) => inner,
                None => return vec![self.text(node).to_owned()],
            },
            _ => node,
        };
        let value = self.value(node, subs);
        let text = self.text(node);
        let splits = matches!(
            node.kind(),
            "command_substitution" | "simple_expansion" | "expansion"
        ) && value != text
            && value != SUBSTITUTION
            && value != "$PWD";
        // `rm${IFS}-rf${IFS}/`: an unquoted `$IFS` splits the word where it stands.
        let ifs = node.kind() != "string" && (text.contains("$IFS") || text.contains("${IFS}"));
        if splits || ifs {
            value.split_whitespace().map(str::to_owned).collect()
        } else {
            vec![value]
        }
    }

    /// A word's value after quote removal.
    pub(super) fn value(&mut self, node: Node, subs: &mut Vec<Script>) -> String {
        if self.nesting >= MAX_NESTING {
            self.script.unreadable = true;
            return SUBSTITUTION.to_owned();
        }
        self.nesting += 1;
        let text = self.text(node);
        let value = match node.kind() {
            "word" | "number" if node.named_child_count() == 0 => unescape_unquoted(text),
            "raw_string" => raw_string(text),
            "ansi_c_string" => ansi_c_string(text),
            "string_content" => unescape_double(text),
            "string" => self.pieces(node, subs, true),
            "simple_expansion" | "expansion" => self.expansion(node, subs),
            "command_substitution" => self.substitution(node, subs),
            "process_substitution" => {
                let script = self.sub_script(node);
                subs.push(script);
                SUBSTITUTION.to_owned()
            }
            "arithmetic_expansion" | "brace_expression" | "heredoc_content" => text.to_owned(),
            _ if node.named_child_count() > 0 => self.pieces(node, subs, false),
            _ => unescape_unquoted(text),
        };
        self.nesting -= 1;
        value
    }

    /// A word made of parts (`a"b"$c`, `"x $(y)"`): each part's value, with the text
    /// between parts kept (and unescaped) as it is.
    fn pieces(&mut self, node: Node, subs: &mut Vec<Script>, double_quoted: bool) -> String {
        let mut out = String::new();
        let children = all_children(node);
        let mut at = node.start_byte();
        let mut end = node.end_byte();
        if double_quoted {
            if let Some(first) = children.first().filter(|c| c.kind() == "\"") {
                at = first.end_byte();
            }
            if let Some(last) = children.last().filter(|c| c.kind() == "\"") {
                end = end.min(last.start_byte()).max(at);
            }
        }
        let gap = |from: usize, to: usize, out: &mut String, src: &str| {
            let raw = src.get(from..to).unwrap_or("");
            if double_quoted {
                out.push_str(&unescape_double(raw));
            } else {
                out.push_str(&unescape_unquoted(raw));
            }
        };
        for child in children.iter().filter(|c| c.is_named()) {
            if child.start_byte() > at {
                gap(at, child.start_byte().min(end), &mut out, self.src);
            }
            out.push_str(&self.value(*child, subs));
            at = at.max(child.end_byte());
        }
        if at < end {
            gap(at, end, &mut out, self.src);
        }
        out
    }

    fn expansion(&mut self, node: Node, subs: &mut Vec<Script>) -> String {
        let text = self.text(node);
        let named = named_children(node);
        if let [only] = named.as_slice() {
            if only.kind() == "variable_name" {
                let name = self.text(*only);
                if let Some(value) = self.vars.get(name) {
                    return value.clone();
                }
                if name == "IFS" {
                    // Unset or default: blanks.
                    return " ".to_owned();
                }
                return text.to_owned();
            }
        }
        // `${x:-$(cmd)}` and the like: their substitutions may run.
        for child in named {
            self.value(child, subs);
        }
        text.to_owned()
    }

    fn substitution(&mut self, node: Node, subs: &mut Vec<Script>) -> String {
        if self.depth + 1 > MAX_DEPTH {
            self.script.unreadable = true;
            return SUBSTITUTION.to_owned();
        }
        let script = self.sub_script(node);
        let folded = fold(&script);
        subs.push(script);
        folded.unwrap_or_else(|| SUBSTITUTION.to_owned())
    }

    pub(super) fn sub_script(&mut self, node: Node) -> Script {
        let mut walker = Walker::new(self.src, self.depth + 1, self.vars.clone());
        walker.nesting = self.nesting;
        walker.sequence(node);
        let script = walker.finish();
        self.script.unreadable |= script.unreadable;
        script
    }
}

/// Adds an argument's words; when it touches the previous word its first word continues
/// that one.
pub(super) fn append_words(words: &mut Vec<String>, new: Vec<String>, touching: bool) {
    let mut new = new.into_iter();
    if touching {
        if let (Some(last), Some(first)) = (words.last_mut(), new.next()) {
            last.push_str(&first);
        }
    }
    words.extend(new);
}

/// The output of a substitution that can be known without running it: `$(pwd)` is the
/// working directory, `$(echo WORDS)` and `$(printf TEXT)` are their literal text.
fn fold(script: &Script) -> Option<String> {
    let [pipeline] = script.pipelines.as_slice() else {
        return None;
    };
    let [cmd] = pipeline.commands.as_slice() else {
        return None;
    };
    if script.unreadable {
        return None;
    }
    let words: Vec<&str> = cmd.words.iter().map(String::as_str).collect();
    // `$(cat <<< WORDS)` and `$(cat <<EOF …)` print their text.
    if words == ["cat"]
        && cmd.heredocs.len() == 1
        && cmd.redirects.iter().all(|r| r.op.starts_with("<<"))
        && cmd.substitutions.is_empty()
    {
        let text = cmd.heredocs[0].trim();
        return (is_literal(text) || text.starts_with('$') || text.starts_with('~'))
            .then(|| text.to_owned());
    }
    if !cmd.redirects.is_empty() {
        return None;
    }
    match words.as_slice() {
        ["pwd"] | ["pwd", "-P" | "-L"] => Some("$PWD".to_owned()),
        ["echo", rest @ ..] => {
            let skip = rest
                .iter()
                .take_while(|w| {
                    w.len() > 1 && w.starts_with('-') && w[1..].chars().all(|c| "neE".contains(c))
                })
                .count();
            let args = &rest[skip..];
            let literal = args.iter().all(|a| is_literal(a) && !a.contains('\\'));
            (literal && cmd.substitutions.is_empty()).then(|| args.join(" "))
        }
        ["printf", format] if is_literal(format) && !format.contains(['%', '\\']) => {
            Some(format.to_string())
        }
        _ => None,
    }
}
