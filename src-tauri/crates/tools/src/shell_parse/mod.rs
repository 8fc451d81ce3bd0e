//! Reads shell scripts for the dangerous-command guard and for approval fingerprints. The
//! grammar is tree-sitter's bash grammar, so lists, pipelines, subshells, compound
//! commands, substitutions, heredocs, redirections and quoting are read the way a shell
//! reads them; this module only flattens the tree into what the guard's rules look at:
//! pipelines of simple commands with their words (quotes removed), redirections, the
//! scripts of their substitutions and the bodies of their heredocs.
//!
//! Nothing is run or expanded, with two exceptions that make obfuscation visible: a
//! variable assigned a literal earlier in the same script reads as that literal
//! (`X=rm; $X -rf /`), and `$(echo WORDS)` reads as its words (`$(echo rm) -rf /`).
//! When the grammar reports an error the script is marked [`Script::unreadable`]: the
//! guard then treats it as something it cannot vouch for.

use std::cell::RefCell;
use std::collections::HashMap;

use tree_sitter::{Node, Parser, Tree};

use crate::shell_parse::value::{heredoc_delimiter, is_literal, join_continuations};
use words::append_words;

/// A parsed script: pipelines joined by `;`, `&&`, `||`, `&` or newlines.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Script {
    pub pipelines: Vec<Pipeline>,
    /// Part of the script could not be read: a syntax error (or a grammar limit), or
    /// substitutions nested deeper than [`MAX_DEPTH`].
    pub unreadable: bool,
}

/// Commands joined by `|` (or `|&`): each one's output feeds the next. A subshell that is
/// part of a pipeline is flattened into it: its last command joins the pipeline, so
/// `(curl …) | sh` still reads as a download piped into a shell.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Pipeline {
    pub commands: Vec<SimpleCommand>,
}

#[derive(Debug, Default, Clone, PartialEq)]
pub struct SimpleCommand {
    /// The command's source text, for messages.
    pub raw: String,
    /// Words after quote removal, without redirections. Variables stay unexpanded
    /// (`$HOME`) unless the script assigned them a literal; a command substitution is the
    /// placeholder `$(…)`, except `$(pwd)`, which reads as `$PWD`, and `$(echo WORDS)`.
    pub words: Vec<String>,
    pub redirects: Vec<Redirect>,
    /// Scripts inside `$(…)`, backticks and process substitutions in this command.
    pub substitutions: Vec<Script>,
    /// What the command reads on its standard input from the script itself: the bodies
    /// of its `<<` heredocs and its `<<<` strings, in order. Data for most commands, a
    /// script for a shell or an interpreter (`bash <<EOF`), which the guard then checks.
    pub heredocs: Vec<String>,
    /// The subshells the command runs in, outermost first (each `( … )` and each part
    /// of a multi-command pipeline is one). A `cd` moves only the commands that share
    /// its scope.
    pub scope: Vec<u32>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Redirect {
    /// The operator without its file-descriptor number: `>`, `>>`, `&>`, `<`, `<<`, …
    pub op: String,
    /// The target after quote removal (a heredoc's delimiter for `<<`).
    pub target: String,
}

impl Redirect {
    /// Whether the redirection writes to its target (as opposed to reading or duplicating
    /// a descriptor such as `2>&1`).
    pub fn writes(&self) -> bool {
        match self.op.as_str() {
            ">" | ">>" | ">|" | "&>" | "&>>" | "<>" => true,
            ">&" => !self.target.chars().all(|c| c.is_ascii_digit() || c == '-'),
            _ => false,
        }
    }
}

/// Placeholder for a command substitution whose output cannot be known.
pub const SUBSTITUTION: &str = "$(…)";

/// Nesting limit for substitutions and `sh -c` scripts, so a hostile input cannot recurse
/// without end.
pub const MAX_DEPTH: usize = 8;

/// How deep the walk may follow the syntax tree (nested groups, substitutions, words)
/// before it gives up and marks the script unreadable, so no input can exhaust the stack.
const MAX_NESTING: usize = 200;

/// Bounds what a `for` loop over literal words is unrolled to.
const MAX_LOOP_VALUES: usize = 16;

pub fn parse(src: &str) -> Script {
    parse_at_depth(src, 0)
}

pub fn parse_at_depth(src: &str, depth: usize) -> Script {
    let src = join_continuations(src);
    let Some(tree) = parse_tree(&src) else {
        return Script {
            pipelines: Vec::new(),
            unreadable: true,
        };
    };
    let root = tree.root_node();
    let mut walker = Walker::new(&src, depth, HashMap::new());
    walker.sequence(root);
    let mut script = walker.finish();
    script.unreadable |= root.has_error();
    script
}

thread_local! {
    /// A parser per thread: creating one allocates, and the guard parses on every call.
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

fn new_parser() -> Option<Parser> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .ok()?;
    Some(parser)
}

fn parse_tree(src: &str) -> Option<Tree> {
    PARSER.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slot) => {
            if slot.is_none() {
                *slot = new_parser();
            }
            slot.as_mut()?.parse(src, None)
        }
        // Only reachable if a parse ever re-entered this function; a fresh parser is
        // correct, just slower.
        Err(_) => new_parser()?.parse(src, None),
    })
}

fn is_statement(kind: &str) -> bool {
    matches!(
        kind,
        "command"
            | "redirected_statement"
            | "pipeline"
            | "list"
            | "subshell"
            | "compound_statement"
            | "if_statement"
            | "elif_clause"
            | "else_clause"
            | "while_statement"
            | "for_statement"
            | "c_style_for_statement"
            | "case_statement"
            | "case_item"
            | "do_group"
            | "function_definition"
            | "negated_command"
            | "variable_assignment"
            | "variable_assignments"
            | "declaration_command"
            | "unset_command"
            | "test_command"
            | "ERROR"
    )
}

fn named_children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

fn all_children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.children(&mut cursor).collect()
}

/// Flattens one syntax tree (or the inside of one substitution) into a [`Script`].
struct Walker<'s> {
    src: &'s str,
    /// Substitution depth of the script being built.
    depth: usize,
    /// Current recursion depth over the tree.
    nesting: usize,
    script: Script,
    pipeline: Pipeline,
    scope: Vec<u32>,
    next_scope: u32,
    /// Variables the script assigned a literal value so far.
    vars: HashMap<String, String>,
}

impl<'s> Walker<'s> {
    fn new(src: &'s str, depth: usize, vars: HashMap<String, String>) -> Self {
        Self {
            src,
            depth,
            nesting: 0,
            script: Script::default(),
            pipeline: Pipeline::default(),
            scope: Vec::new(),
            next_scope: 1,
            vars,
        }
    }

    fn finish(mut self) -> Script {
        self.end_pipeline();
        self.script
    }

    fn text(&self, node: Node) -> &'s str {
        self.src.get(node.byte_range()).unwrap_or("")
    }

    fn end_pipeline(&mut self) {
        let pipeline = std::mem::take(&mut self.pipeline);
        if !pipeline.commands.is_empty() {
            self.script.pipelines.push(pipeline);
        }
    }

    fn push(&mut self, cmd: SimpleCommand) {
        if cmd.words.is_empty() && cmd.redirects.is_empty() && cmd.substitutions.is_empty() {
            return;
        }
        self.pipeline.commands.push(cmd);
    }

    fn pseudo(&self, node: Node, substitutions: Vec<Script>) -> SimpleCommand {
        SimpleCommand {
            raw: self.text(node).trim().to_owned(),
            substitutions,
            scope: self.scope.clone(),
            ..SimpleCommand::default()
        }
    }

    fn new_scope(&mut self) -> u32 {
        let id = self.next_scope;
        self.next_scope += 1;
        id
    }

    /// Statements in order. The pipeline is closed between statements but not after the
    /// last one, so a group that ends a pipeline element joins the pipeline.
    fn sequence(&mut self, node: Node) {
        let mut first = true;
        for child in named_children(node) {
            if child.kind() == "comment" {
                continue;
            }
            if is_statement(child.kind()) {
                if !first {
                    self.end_pipeline();
                }
                first = false;
            }
            self.node(child);
        }
    }

    fn node(&mut self, node: Node) {
        if self.nesting >= MAX_NESTING {
            self.script.unreadable = true;
            return;
        }
        self.nesting += 1;
        match node.kind() {
            "command" => self.command(node, &[]),
            "redirected_statement" => self.redirected(node),
            "pipeline" => self.pipeline(node),
            "list" => self.list(node),
            "subshell" => {
                let id = self.new_scope();
                self.scope.push(id);
                self.sequence(node);
                self.scope.pop();
            }
            "for_statement" => self.for_loop(node),
            "variable_assignment" => self.assignment_statement(node),
            "declaration_command" | "unset_command" => self.declaration(node),
            "ERROR" => self.error(node),
            "comment" => {}
            kind if is_statement(kind) => self.sequence(node),
            _ => {
                // A word outside any command (a `case` subject, a test operand): only
                // the substitutions in it run.
                let mut subs = Vec::new();
                self.value(node, &mut subs);
                if !subs.is_empty() {
                    let cmd = self.pseudo(node, subs);
                    self.push(cmd);
                }
            }
        }
        self.nesting -= 1;
    }

    /// `a && b || c`: the grammar nests lists to the left, one level per operator; they
    /// are walked as one flat sequence so a long chain does not count as deep nesting.
    fn list(&mut self, node: Node) {
        let mut parts = Vec::new();
        let mut current = node;
        loop {
            let children: Vec<Node> = named_children(current)
                .into_iter()
                .filter(|c| c.kind() != "comment")
                .collect();
            match children.split_first() {
                Some((first, rest)) if first.kind() == "list" => {
                    parts.extend(rest.iter().rev().copied());
                    current = *first;
                }
                _ => {
                    parts.extend(children.into_iter().rev());
                    break;
                }
            }
        }
        for (i, part) in parts.into_iter().rev().enumerate() {
            if i > 0 {
                self.end_pipeline();
            }
            self.node(part);
        }
    }

    fn pipeline(&mut self, node: Node) {
        let parts: Vec<Node> = named_children(node)
            .into_iter()
            .filter(|c| c.kind() != "comment")
            .collect();
        let several = parts.len() > 1;
        for part in parts {
            // Every part of a multi-command pipeline runs in its own subshell.
            if several {
                let id = self.new_scope();
                self.scope.push(id);
            }
            self.node(part);
            if several {
                self.scope.pop();
            }
        }
    }

    fn redirected(&mut self, node: Node) {
        let body = node.child_by_field_name("body");
        let redirects: Vec<Node> = named_children(node)
            .into_iter()
            .filter(|c| Some(*c) != body && c.kind() != "comment")
            .collect();
        match body {
            Some(b) if b.kind() == "command" => self.command(b, &redirects),
            _ => {
                // A group, loop or bare redirection (`> file`): the redirections apply
                // to everything in the body, so they get a command of their own.
                if let Some(b) = body {
                    self.node(b);
                }
                let mut cmd = self.pseudo(node, Vec::new());
                let mut tails = Vec::new();
                for r in &redirects {
                    self.redirect(*r, &mut cmd, &mut tails);
                }
                cmd.raw = self.redirect_raw(None, &redirects);
                self.push(cmd);
                self.tails(tails);
            }
        }
    }

    fn command(&mut self, node: Node, extra_redirects: &[Node]) {
        let mut cmd = SimpleCommand {
            scope: self.scope.clone(),
            ..SimpleCommand::default()
        };
        let mut tails = Vec::new();
        // Where the last word ended: the grammar sometimes splits one shell word in two
        // (`'r'\m`), and parts with no blank between them are one word to the shell.
        let mut word_end = None;
        for child in named_children(node) {
            match child.kind() {
                "variable_assignment" => {
                    let word = self.assignment_word(child, &mut cmd.substitutions);
                    cmd.words.push(word);
                    word_end = Some(child.end_byte());
                }
                "file_redirect" | "herestring_redirect" | "heredoc_redirect" => {
                    self.redirect(child, &mut cmd, &mut tails);
                    word_end = None;
                }
                "subshell" => {
                    let script = self.sub_script(child);
                    cmd.substitutions.push(script);
                    word_end = None;
                }
                "comment" => {}
                _ => {
                    let words = self.words(child, &mut cmd.substitutions);
                    append_words(&mut cmd.words, words, word_end == Some(child.start_byte()));
                    word_end = Some(child.end_byte());
                }
            }
        }
        for r in extra_redirects {
            self.redirect(*r, &mut cmd, &mut tails);
        }
        cmd.raw = self.redirect_raw(Some(node), extra_redirects);
        self.read_assignment(&cmd);
        self.push(cmd);
        self.tails(tails);
    }

    /// `read [-r] VAR <<< TEXT` (or from a heredoc) sets VAR like `VAR=TEXT` would, so
    /// `read d <<< /etc; rm -rf "$d"` reads as `rm -rf /etc`.
    fn read_assignment(&mut self, cmd: &SimpleCommand) {
        let [first, rest @ ..] = cmd.words.as_slice() else {
            return;
        };
        let names: Vec<&String> = rest.iter().filter(|w| !w.starts_with('-')).collect();
        let (true, [name], [text]) = (first == "read", names.as_slice(), cmd.heredocs.as_slice())
        else {
            return;
        };
        let value = text.trim();
        // A variable's name alone (`"$HOME"`) stays as written, for the guard to resolve.
        let bare_var = value
            .strip_prefix('$')
            .map(|v| v.trim_start_matches('{').trim_end_matches('}'))
            .is_some_and(|v| {
                !v.is_empty() && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            });
        if value.contains(char::is_whitespace) {
            self.vars.remove(name.as_str());
        } else if bare_var {
            self.vars.insert(name.to_string(), value.to_owned());
        } else {
            self.remember(&format!("{name}={value}"));
        }
    }

    /// The text of a command and its redirections, without heredoc bodies.
    fn redirect_raw(&self, command: Option<Node>, redirects: &[Node]) -> String {
        let mut parts: Vec<String> = command
            .map(|c| self.text(c).trim().to_owned())
            .into_iter()
            .collect();
        for r in redirects {
            if r.kind() == "heredoc_redirect" {
                let head: String = all_children(*r)
                    .iter()
                    .take_while(|c| c.kind() != "heredoc_body" && c.kind() != "heredoc_end")
                    .filter(|c| !matches!(c.kind(), "pipeline" | "&&" | "||" | "command"))
                    .map(|c| self.text(*c))
                    .collect::<Vec<_>>()
                    .join(" ");
                parts.push(head.replacen("<< ", "<<", 1).replacen("<<- ", "<<-", 1));
            } else {
                parts.push(self.text(*r).trim().to_owned());
            }
        }
        parts.join(" ")
    }

    /// Commands that follow a heredoc's start on its line (`cat <<EOF | sh`, `… <<EOF &&
    /// echo done`): the grammar puts them inside the heredoc redirection.
    fn tails(&mut self, tails: Vec<(Node, bool)>) {
        for (node, piped) in tails {
            if piped {
                for part in named_children(node) {
                    self.node(part);
                }
            } else {
                self.end_pipeline();
                self.node(node);
            }
        }
    }

    fn redirect<'t>(
        &mut self,
        node: Node<'t>,
        cmd: &mut SimpleCommand,
        tails: &mut Vec<(Node<'t>, bool)>,
    ) {
        match node.kind() {
            "file_redirect" => {
                let descriptor = node.child_by_field_name("descriptor");
                let destination = node.child_by_field_name("destination");
                let from = descriptor.map_or(node.start_byte(), |d| d.end_byte());
                let to = destination.map_or(node.end_byte(), |d| d.start_byte());
                let op = self.src.get(from..to).unwrap_or("").trim().to_owned();
                let target = destination
                    .map(|d| self.value(d, &mut cmd.substitutions))
                    .unwrap_or_default();
                cmd.redirects.push(Redirect { op, target });
            }
            "herestring_redirect" => {
                let content = named_children(node)
                    .into_iter()
                    .find(|c| c.kind() != "file_descriptor");
                let target = content
                    .map(|c| self.value(c, &mut cmd.substitutions))
                    .unwrap_or_default();
                cmd.heredocs.push(format!("{target}\n"));
                cmd.redirects.push(Redirect {
                    op: "<<<".into(),
                    target,
                });
            }
            "heredoc_redirect" => self.heredoc(node, cmd, tails),
            _ => {}
        }
    }

    fn heredoc<'t>(
        &mut self,
        node: Node<'t>,
        cmd: &mut SimpleCommand,
        tails: &mut Vec<(Node<'t>, bool)>,
    ) {
        let children = all_children(node);
        let strip_tabs = children.iter().any(|c| c.kind() == "<<-");
        let (delimiter, quoted) = children
            .iter()
            .find(|c| c.kind() == "heredoc_start")
            .map(|c| heredoc_delimiter(self.text(*c)))
            .unwrap_or_default();
        cmd.redirects.push(Redirect {
            op: if strip_tabs { "<<-" } else { "<<" }.into(),
            target: delimiter,
        });
        let body = children.iter().find(|c| c.kind() == "heredoc_body");
        let end = children.iter().find(|c| c.kind() == "heredoc_end");
        let mut after_operator = false;
        for child in &children {
            match child.kind() {
                "file_redirect" | "herestring_redirect" => self.redirect(*child, cmd, tails),
                "pipeline" => tails.push((*child, true)),
                "&&" | "||" | ";" | "&" => after_operator = true,
                kind if is_statement(kind) && after_operator => tails.push((*child, false)),
                _ => {}
            }
        }
        // The body runs its substitutions unless the delimiter was quoted.
        if let (Some(b), false) = (body, quoted) {
            for child in named_children(*b) {
                if child.kind() == "command_substitution" {
                    self.value(child, &mut cmd.substitutions);
                }
            }
        }
        // From the start of the body's first line to the start of the delimiter's line:
        // the grammar's body node skips a `<<-` body's leading tabs.
        let text = match body {
            Some(b) => {
                let start = self.line_start(b.start_byte());
                let stop = end.map_or(self.src.len(), |e| self.line_start(e.start_byte()));
                self.src.get(start..stop.max(start)).unwrap_or("")
            }
            None => "",
        };
        let text = if strip_tabs {
            text.split_inclusive('\n')
                .map(|l| l.trim_start_matches('\t'))
                .collect()
        } else {
            text.to_owned()
        };
        cmd.heredocs.push(text);
    }

    fn line_start(&self, byte: usize) -> usize {
        self.src
            .get(..byte)
            .and_then(|before| before.rfind('\n'))
            .map_or(0, |i| i + 1)
    }

    fn assignment_word(&mut self, node: Node, subs: &mut Vec<Script>) -> String {
        let name = node
            .child_by_field_name("name")
            .map(|n| self.text(n).to_owned())
            .unwrap_or_default();
        let value = node
            .child_by_field_name("value")
            .map(|v| self.value(v, subs))
            .unwrap_or_default();
        let op = if self.text(node).contains("+=") {
            "+="
        } else {
            "="
        };
        format!("{name}{op}{value}")
    }

    /// `X=value` on its own: later `$X` reads as the value if it is a literal.
    fn assignment_statement(&mut self, node: Node) {
        let mut subs = Vec::new();
        let word = self.assignment_word(node, &mut subs);
        self.remember(&word);
        let mut cmd = self.pseudo(node, subs);
        cmd.words.push(word);
        self.push(cmd);
    }

    fn remember(&mut self, assignment: &str) {
        let Some((name, value)) = assignment.split_once('=') else {
            return;
        };
        if name.ends_with('+') {
            self.vars.remove(name.trim_end_matches('+'));
        } else if is_literal(value) && !value.contains(SUBSTITUTION) {
            self.vars.insert(name.to_owned(), value.to_owned());
        } else {
            self.vars.remove(name);
        }
    }

    /// `export X=1`, `local y`, `readonly …`, `unset X`.
    fn declaration(&mut self, node: Node) {
        let mut cmd = self.pseudo(node, Vec::new());
        let unset = node.kind() == "unset_command";
        for child in all_children(node) {
            if !child.is_named() {
                let keyword = self.text(child);
                if keyword.chars().all(|c| c.is_ascii_alphabetic()) && cmd.words.is_empty() {
                    cmd.words.push(keyword.to_owned());
                }
                continue;
            }
            match child.kind() {
                "variable_assignment" => {
                    let word = self.assignment_word(child, &mut cmd.substitutions);
                    self.remember(&word);
                    cmd.words.push(word);
                }
                "comment" => {}
                _ => {
                    let words = self.words(child, &mut cmd.substitutions);
                    if unset {
                        for w in &words {
                            self.vars.remove(w);
                        }
                    }
                    cmd.words.extend(words);
                }
            }
        }
        self.push(cmd);
    }

    /// `for x in a b; do …; done` over literal words is read once per word, so `$x` in
    /// the body is known; any other loop is read once with `$x` unknown.
    fn for_loop(&mut self, node: Node) {
        let variable = node
            .child_by_field_name("variable")
            .map(|v| self.text(v).to_owned())
            .unwrap_or_default();
        let mut subs = Vec::new();
        let mut values = Vec::new();
        let mut cursor = node.walk();
        let value_nodes: Vec<Node> = node.children_by_field_name("value", &mut cursor).collect();
        for v in &value_nodes {
            values.extend(self.words(*v, &mut subs));
        }
        if !subs.is_empty() {
            let cmd = self.pseudo(node, subs);
            self.push(cmd);
        }
        let Some(body) = node.child_by_field_name("body") else {
            return;
        };
        let known = !value_nodes.is_empty()
            && values.len() <= MAX_LOOP_VALUES
            && values
                .iter()
                .all(|v| is_literal(v) && !v.contains(SUBSTITUTION));
        if known {
            for value in values {
                self.end_pipeline();
                self.vars.insert(variable.clone(), value);
                self.node(body);
            }
        } else {
            self.vars.remove(&variable);
            self.end_pipeline();
            self.node(body);
        }
    }

    /// The grammar could not place these tokens. Words it did recognise are grouped into
    /// commands between operators, so a command hidden behind the error is still seen.
    fn error(&mut self, node: Node) {
        let mut cmd = self.pseudo(node, Vec::new());
        let flush = |walker: &mut Self, cmd: &mut SimpleCommand| {
            let done = std::mem::replace(cmd, walker.pseudo(node, Vec::new()));
            walker.push(done);
        };
        let mut word_end = None;
        for child in all_children(node) {
            let kind = child.kind();
            if !child.is_named() {
                word_end = None;
                if matches!(kind, ";" | "|" | "&&" | "||" | "&" | "|&" | "(" | ")") {
                    flush(self, &mut cmd);
                }
                continue;
            }
            if is_statement(kind) {
                flush(self, &mut cmd);
                self.end_pipeline();
                self.node(child);
            } else if kind.starts_with("heredoc") || kind == "comment" {
                flush(self, &mut cmd);
            } else if matches!(kind, "file_redirect" | "herestring_redirect") {
                let mut tails = Vec::new();
                self.redirect(child, &mut cmd, &mut tails);
                self.tails(tails);
            } else {
                let words = self.words(child, &mut cmd.substitutions);
                append_words(&mut cmd.words, words, word_end == Some(child.start_byte()));
                word_end = Some(child.end_byte());
                continue;
            }
            word_end = None;
        }
        flush(self, &mut cmd);
    }
}

pub(crate) mod value;
mod words;

#[cfg(test)]
mod tests;
