//! A small reader of POSIX shell syntax for the dangerous-command guard and for approval
//! fingerprints. It never runs or expands anything: it splits a script into pipelines of
//! simple commands (on `;`, `&&`, `||`, `&`, newlines, `|` and subshell parentheses), pulls
//! out redirections and the scripts inside `$(…)`, backticks and `<(…)`, skips heredoc
//! bodies and comments, and hands each command's remaining text to `shell-words` for quote
//! removal. Being wrong here is asymmetric: when in doubt it splits more, because a rule
//! only ever looks at one simple command at a time.

/// A parsed script: pipelines joined by `;`, `&&`, `||`, `&` or newlines.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Script {
    pub pipelines: Vec<Pipeline>,
}

/// Commands joined by `|` (or `|&`): each one's output feeds the next.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Pipeline {
    pub commands: Vec<SimpleCommand>,
}

#[derive(Debug, Default, Clone, PartialEq)]
pub struct SimpleCommand {
    /// The command's source text, for messages.
    pub raw: String,
    /// Words after quote removal, without redirections. Variables stay unexpanded
    /// (`$HOME`); a command substitution is the placeholder `$(…)`, except `$(pwd)`,
    /// which reads as `$PWD`.
    pub words: Vec<String>,
    pub redirects: Vec<Redirect>,
    /// Scripts inside `$(…)`, backticks and process substitutions in this command.
    pub substitutions: Vec<Script>,
    /// The bodies of its `<<` heredocs, in order: data for most commands, a script for a
    /// shell (`bash <<EOF`), which the guard then checks.
    pub heredocs: Vec<String>,
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

pub fn parse(src: &str) -> Script {
    parse_at_depth(src, 0)
}

pub fn parse_at_depth(src: &str, depth: usize) -> Script {
    let mut parser = Parser {
        chars: src.chars().collect(),
        pos: 0,
        depth,
        script: Script::default(),
        pipeline: Pipeline::default(),
        current: Builder::default(),
        heredocs: Vec::new(),
    };
    parser.run();
    parser.script
}

#[derive(Default)]
struct Builder {
    /// Text handed to shell-words: the command without redirections, substitutions
    /// replaced by placeholders.
    text: String,
    raw: String,
    redirects: Vec<Redirect>,
    substitutions: Vec<Script>,
}

struct PendingHeredoc {
    delimiter: String,
    strip_tabs: bool,
    /// Index of the pipeline, and of the command in it, that opened the heredoc.
    pipeline: usize,
    command: usize,
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    depth: usize,
    script: Script,
    pipeline: Pipeline,
    current: Builder,
    /// Heredocs opened on the current line, with where their command will sit.
    heredocs: Vec<PendingHeredoc>,
}

impl Parser {
    fn peek(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos + offset).copied()
    }

    fn run(&mut self) {
        while let Some(c) = self.peek(0) {
            match c {
                '\\' => {
                    if self.peek(1) == Some('\n') {
                        // Line continuation.
                        self.pos += 2;
                        continue;
                    }
                    self.push_raw(c);
                    self.pos += 1;
                    if let Some(next) = self.peek(0) {
                        self.push_raw(next);
                        self.pos += 1;
                    }
                }
                '\'' => self.single_quoted(),
                '"' => self.double_quoted(),
                '`' => {
                    self.pos += 1;
                    let inner = self.until_backtick();
                    self.substitution(&inner);
                }
                '$' if self.peek(1) == Some('(') => {
                    self.pos += 2;
                    let inner = self.balanced();
                    self.substitution(&inner);
                }
                '<' | '>' if self.peek(1) == Some('(') => {
                    self.pos += 2;
                    let inner = self.balanced();
                    self.substitution(&inner);
                }
                '#' if self.at_word_start() => {
                    while self.peek(0).is_some_and(|c| c != '\n') {
                        self.pos += 1;
                    }
                }
                '\n' => {
                    self.end_pipeline();
                    self.pos += 1;
                    self.skip_heredoc_bodies();
                }
                ';' => {
                    self.end_pipeline();
                    self.pos += 1;
                }
                '&' => match self.peek(1) {
                    Some('&') => {
                        self.end_pipeline();
                        self.pos += 2;
                    }
                    Some('>') => self.redirect(),
                    _ => {
                        self.end_pipeline();
                        self.pos += 1;
                    }
                },
                '|' => match self.peek(1) {
                    Some('|') => {
                        self.end_pipeline();
                        self.pos += 2;
                    }
                    Some('&') => {
                        self.end_command();
                        self.pos += 2;
                    }
                    _ => {
                        self.end_command();
                        self.pos += 1;
                    }
                },
                // A subshell or a function's parentheses: a command boundary that keeps
                // the pipeline, so `(curl …) | sh` still reads as one pipeline.
                '(' | ')' => {
                    self.end_command();
                    self.pos += 1;
                }
                '<' | '>' => self.redirect(),
                c if c.is_whitespace() => {
                    self.current.text.push(' ');
                    self.current.raw.push(c);
                    self.pos += 1;
                }
                c => {
                    self.push_raw(c);
                    self.pos += 1;
                }
            }
        }
        self.end_pipeline();
    }

    fn push_raw(&mut self, c: char) {
        self.current.text.push(c);
        self.current.raw.push(c);
    }

    fn at_word_start(&self) -> bool {
        self.current
            .text
            .chars()
            .last()
            .is_none_or(|c| c.is_whitespace())
    }

    fn single_quoted(&mut self) {
        // Copied verbatim, quotes included: shell-words removes them later.
        self.push_raw('\'');
        self.pos += 1;
        while let Some(c) = self.peek(0) {
            self.push_raw(c);
            self.pos += 1;
            if c == '\'' {
                return;
            }
        }
    }

    fn double_quoted(&mut self) {
        self.push_raw('"');
        self.pos += 1;
        while let Some(c) = self.peek(0) {
            match c {
                '\\' => {
                    self.push_raw(c);
                    self.pos += 1;
                    if let Some(next) = self.peek(0) {
                        self.push_raw(next);
                        self.pos += 1;
                    }
                }
                '$' if self.peek(1) == Some('(') => {
                    self.pos += 2;
                    let inner = self.balanced();
                    self.substitution(&inner);
                }
                '`' => {
                    self.pos += 1;
                    let inner = self.until_backtick();
                    self.substitution(&inner);
                }
                '"' => {
                    self.push_raw(c);
                    self.pos += 1;
                    return;
                }
                _ => {
                    self.push_raw(c);
                    self.pos += 1;
                }
            }
        }
    }

    /// Reads up to the `)` matching an already consumed `(`, honouring quotes.
    fn balanced(&mut self) -> String {
        let mut out = String::new();
        let mut level = 1usize;
        let mut quote: Option<char> = None;
        while let Some(c) = self.peek(0) {
            self.pos += 1;
            match (quote, c) {
                (Some('\''), '\'') => quote = None,
                (Some('\''), _) => {}
                (_, '\\') => {
                    out.push(c);
                    if let Some(next) = self.peek(0) {
                        out.push(next);
                        self.pos += 1;
                    }
                    continue;
                }
                (Some('"'), '"') => quote = None,
                (Some(_), _) => {}
                (None, '\'' | '"') => quote = Some(c),
                (None, '(') => level += 1,
                (None, ')') => {
                    level -= 1;
                    if level == 0 {
                        return out;
                    }
                }
                _ => {}
            }
            out.push(c);
        }
        out
    }

    fn until_backtick(&mut self) -> String {
        let mut out = String::new();
        while let Some(c) = self.peek(0) {
            self.pos += 1;
            match c {
                '\\' => {
                    if let Some(next) = self.peek(0) {
                        out.push(next);
                        self.pos += 1;
                    }
                }
                '`' => return out,
                _ => out.push(c),
            }
        }
        out
    }

    fn substitution(&mut self, inner: &str) {
        let trimmed = inner.trim();
        // `$(pwd)` is common in `rm -rf "$(pwd)"`; reading it as $PWD lets the rules see
        // the working directory.
        let placeholder = if trimmed == "pwd" || trimmed == "pwd -P" || trimmed == "pwd -L" {
            "$PWD"
        } else {
            SUBSTITUTION
        };
        self.current.text.push_str(placeholder);
        self.current.raw.push_str("$(");
        self.current.raw.push_str(inner);
        self.current.raw.push(')');
        if self.depth < MAX_DEPTH {
            let script = parse_at_depth(inner, self.depth + 1);
            self.current.substitutions.push(script);
        }
    }

    fn redirect(&mut self) {
        // A word made only of digits right before the operator is its descriptor.
        let fd_len = self
            .current
            .text
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let before_fd = self.current.text.chars().count() - fd_len;
        let fd_is_word = fd_len > 0
            && self
                .current
                .text
                .chars()
                .nth(before_fd.wrapping_sub(1))
                .is_none_or(|c| c.is_whitespace());
        if fd_is_word {
            let keep: String = self.current.text.chars().take(before_fd).collect();
            self.current.text = keep;
        }
        let start = self.pos;
        let op = self.operator();
        self.skip_blanks();
        let target_raw = self.word();
        let target = shell_words::split(&target_raw)
            .ok()
            .and_then(|w| w.into_iter().next())
            .unwrap_or_else(|| target_raw.clone());
        if op == "<<" || op == "<<-" {
            self.heredocs.push(PendingHeredoc {
                delimiter: target.clone(),
                strip_tabs: op == "<<-",
                pipeline: self.script.pipelines.len(),
                command: self.pipeline.commands.len(),
            });
        }
        let text: String = self.chars[start..self.pos].iter().collect();
        self.current.raw.push_str(&text);
        self.current.text.push(' ');
        self.current.redirects.push(Redirect { op, target });
    }

    fn operator(&mut self) -> String {
        const OPS: [&str; 13] = [
            "&>>", "<<<", "<<-", "&>", ">>", ">|", ">&", "<<", "<>", "<&", ">", "<", "&",
        ];
        for op in OPS {
            let len = op.chars().count();
            let matches = op.chars().enumerate().all(|(i, c)| self.peek(i) == Some(c));
            if matches {
                self.pos += len;
                return op.to_owned();
            }
        }
        self.pos += 1;
        String::new()
    }

    fn skip_blanks(&mut self) {
        while self.peek(0).is_some_and(|c| c == ' ' || c == '\t') {
            self.pos += 1;
        }
    }

    /// One shell word in source form (quotes kept), ending at a blank or an operator.
    fn word(&mut self) -> String {
        let mut out = String::new();
        let mut quote: Option<char> = None;
        while let Some(c) = self.peek(0) {
            match quote {
                Some(q) => {
                    if c == q {
                        quote = None;
                    } else if c == '\\' && q == '"' {
                        out.push(c);
                        self.pos += 1;
                        if let Some(next) = self.peek(0) {
                            out.push(next);
                            self.pos += 1;
                        }
                        continue;
                    }
                }
                None => {
                    if c.is_whitespace() || ";&|()<>".contains(c) {
                        break;
                    }
                    if c == '\'' || c == '"' {
                        quote = Some(c);
                    } else if c == '\\' {
                        out.push(c);
                        self.pos += 1;
                        if let Some(next) = self.peek(0) {
                            out.push(next);
                            self.pos += 1;
                        }
                        continue;
                    }
                }
            }
            out.push(c);
            self.pos += 1;
        }
        out
    }

    /// After a newline, takes the bodies of the heredocs opened on the previous line out
    /// of the command stream (they are input, not commands) and hands each to the
    /// command that opened it.
    fn skip_heredoc_bodies(&mut self) {
        let pending = std::mem::take(&mut self.heredocs);
        for heredoc in pending {
            let mut body = String::new();
            loop {
                if self.pos >= self.chars.len() {
                    break;
                }
                let start = self.pos;
                while self.peek(0).is_some_and(|c| c != '\n') {
                    self.pos += 1;
                }
                let line: String = self.chars[start..self.pos].iter().collect();
                if self.peek(0) == Some('\n') {
                    self.pos += 1;
                }
                let line = if heredoc.strip_tabs {
                    line.trim_start_matches('\t')
                } else {
                    line.as_str()
                };
                if line == heredoc.delimiter {
                    break;
                }
                body.push_str(line);
                body.push('\n');
            }
            if let Some(cmd) = self
                .script
                .pipelines
                .get_mut(heredoc.pipeline)
                .and_then(|p| p.commands.get_mut(heredoc.command))
            {
                cmd.heredocs.push(body);
            }
        }
    }

    fn end_command(&mut self) {
        let built = std::mem::take(&mut self.current);
        // An unterminated quote is closed at the end (what the shell would have waited
        // for), so the rules still see the words.
        let words = shell_words::split(&built.text)
            .or_else(|_| shell_words::split(&format!("{}\"", built.text)))
            .or_else(|_| shell_words::split(&format!("{}'", built.text)))
            .unwrap_or_else(|_| built.text.split_whitespace().map(str::to_owned).collect());
        if words.is_empty() && built.redirects.is_empty() && built.substitutions.is_empty() {
            return;
        }
        self.pipeline.commands.push(SimpleCommand {
            raw: built.raw.trim().to_owned(),
            words,
            redirects: built.redirects,
            substitutions: built.substitutions,
            heredocs: Vec::new(),
        });
    }

    fn end_pipeline(&mut self) {
        self.end_command();
        let pipeline = std::mem::take(&mut self.pipeline);
        if !pipeline.commands.is_empty() {
            self.script.pipelines.push(pipeline);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(script: &Script) -> Vec<Vec<Vec<String>>> {
        script
            .pipelines
            .iter()
            .map(|p| p.commands.iter().map(|c| c.words.clone()).collect())
            .collect()
    }

    #[test]
    fn splits_lists_pipelines_and_quotes() {
        let s = parse("cd 'my dir' && ls -la | grep \"a b\"; echo x || true & sleep 1");
        assert_eq!(
            words(&s),
            vec![
                vec![vec!["cd", "my dir"]],
                vec![vec!["ls", "-la"], vec!["grep", "a b"]],
                vec![vec!["echo", "x"]],
                vec![vec!["true"]],
                vec![vec!["sleep", "1"]],
            ]
        );
    }

    #[test]
    fn redirections_substitutions_and_comments() {
        let s = parse("echo hi 2>&1 >/dev/sda # rm -rf /\ncat <(curl x) \"$(pwd)\"");
        let echo = &s.pipelines[0].commands[0];
        assert_eq!(echo.words, vec!["echo", "hi"]);
        assert_eq!(echo.redirects.len(), 2);
        assert!(!echo.redirects[0].writes());
        assert_eq!(echo.redirects[1].target, "/dev/sda");
        assert!(echo.redirects[1].writes());
        let cat = &s.pipelines[1].commands[0];
        assert_eq!(cat.words, vec!["cat", SUBSTITUTION, "$PWD"]);
        assert_eq!(
            cat.substitutions[0].pipelines[0].commands[0].words,
            vec!["curl", "x"]
        );
    }

    #[test]
    fn heredoc_bodies_are_data_and_subshells_split() {
        let s = parse("cat <<'EOF' > notes.txt\nrm -rf /\nEOF\n(cd a; make) | tee log");
        assert_eq!(
            words(&s),
            vec![
                vec![vec!["cat"]],
                vec![vec!["cd", "a"]],
                vec![vec!["make"], vec!["tee", "log"]],
            ]
        );
    }

    #[test]
    fn heredoc_bodies_go_to_the_command_that_opened_them() {
        let s = parse("cat <<A > out\nhello\nA\nbash <<-'B'\n\trm -rf ~\n\tB\necho done");
        assert_eq!(s.pipelines[0].commands[0].heredocs, ["hello\n"]);
        assert_eq!(s.pipelines[1].commands[0].heredocs, ["rm -rf ~\n"]);
        assert!(s.pipelines[2].commands[0].heredocs.is_empty());
    }

    #[test]
    fn escapes_and_unterminated_quotes_do_not_panic() {
        let s = parse("r\\m -rf \"/");
        assert_eq!(s.pipelines[0].commands[0].words[0], "rm");
        let _ = parse("$(((((");
        let _ = parse("`unterminated");
        let _ = parse("echo > ");
    }
}
