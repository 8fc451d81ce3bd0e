//! Text-level helpers for [`crate::shell_parse`]: what a quoted or escaped shell word
//! means once the shell has removed its quotes. The grammar says where a word, a string
//! or an ANSI-C string starts and ends; these functions turn its source text into the
//! value a program would receive as its argument.

/// Removes backslash-newline pairs (line continuations) outside single quotes and
/// comments. The grammar reads `r\<newline>m` as two words, the shell as `rm`; joining
/// the lines first lets the rest of the parser see what the shell sees.
pub(crate) fn join_continuations(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut chars = src.chars().peekable();
    let mut single = false;
    let mut double = false;
    let mut comment = false;
    let mut prev: Option<char> = None;
    while let Some(c) = chars.next() {
        if comment {
            if c == '\n' {
                comment = false;
            }
            out.push(c);
            prev = Some(c);
            continue;
        }
        if single {
            if c == '\'' {
                single = false;
            }
            out.push(c);
            prev = Some(c);
            continue;
        }
        match c {
            '\\' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                    continue;
                }
                out.push(c);
                if let Some(next) = chars.next() {
                    out.push(next);
                    prev = Some(next);
                }
                continue;
            }
            '\'' if !double => single = true,
            '"' => double = !double,
            '#' if !double && prev.is_none_or(|p| p.is_whitespace() || ";&|()".contains(p)) => {
                comment = true
            }
            _ => {}
        }
        out.push(c);
        prev = Some(c);
    }
    out
}

/// An unquoted word: a backslash quotes the character after it.
pub(crate) fn unescape_unquoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Text inside double quotes: a backslash quotes only `$`, `` ` ``, `"`, `\` and newline.
pub(crate) fn unescape_double(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.peek() {
                Some('$' | '`' | '"' | '\\') => {
                    if let Some(next) = chars.next() {
                        out.push(next);
                    }
                }
                Some('\n') => {
                    chars.next();
                }
                _ => out.push(c),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The inside of a single-quoted string (`'…'`), also when the closing quote is missing.
pub(crate) fn raw_string(text: &str) -> String {
    let inner = text.strip_prefix('\'').unwrap_or(text);
    inner.strip_suffix('\'').unwrap_or(inner).to_owned()
}

/// `$'…'` with its escapes decoded, so `$'\x72\x6d'` reads as `rm`.
pub(crate) fn ansi_c_string(text: &str) -> String {
    let inner = text.strip_prefix("$'").unwrap_or(text);
    let inner = inner.strip_suffix('\'').unwrap_or(inner);
    let chars: Vec<char> = inner.chars().collect();
    let mut out = String::with_capacity(inner.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if c != '\\' || i >= chars.len() {
            out.push(c);
            continue;
        }
        let e = chars[i];
        i += 1;
        let simple = match e {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'a' => Some('\x07'),
            'b' => Some('\x08'),
            'e' | 'E' => Some('\x1b'),
            'f' => Some('\x0c'),
            'v' => Some('\x0b'),
            '\\' | '\'' | '"' | '?' => Some(e),
            _ => None,
        };
        if let Some(s) = simple {
            out.push(s);
            continue;
        }
        let (radix, max, start) = match e {
            'x' => (16, 2, i),
            'u' => (16, 4, i),
            'U' => (16, 8, i),
            '0'..='7' => (8, 3, i - 1),
            _ => {
                out.push('\\');
                out.push(e);
                continue;
            }
        };
        let digits: String = chars[start..]
            .iter()
            .take(max)
            .take_while(|d| d.is_digit(radix))
            .collect();
        match u32::from_str_radix(&digits, radix)
            .ok()
            .and_then(char::from_u32)
        {
            Some(decoded) if !digits.is_empty() => {
                out.push(decoded);
                i = start + digits.chars().count();
            }
            _ => {
                out.push('\\');
                out.push(e);
            }
        }
    }
    out
}

/// Whether a word's value is fully known: no variable, command substitution or backtick
/// left in it.
pub(crate) fn is_literal(value: &str) -> bool {
    !value.contains('$') && !value.contains('`')
}

/// The heredoc delimiter as the shell compares it: quotes removed. Quoting any part of it
/// also turns off expansion in the body.
pub(crate) fn heredoc_delimiter(text: &str) -> (String, bool) {
    let quoted = text.contains(['\'', '"', '\\']);
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {}
            '\\' => {
                if let Some(next) = chars.next() {
                    out.push(next);
                }
            }
            _ => out.push(c),
        }
    }
    (out, quoted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuations_are_joined_outside_single_quotes_and_comments() {
        assert_eq!(join_continuations("r\\\nm -rf /"), "rm -rf /");
        assert_eq!(join_continuations("echo 'a\\\nb'"), "echo 'a\\\nb'");
        assert_eq!(join_continuations("echo \"a\\\nb\""), "echo \"ab\"");
        assert_eq!(
            join_continuations("ls # don't\nr\\\nm x"),
            "ls # don't\nrm x"
        );
        assert_eq!(join_continuations("a\\\\\nb"), "a\\\\\nb");
    }

    #[test]
    fn quotes_and_escapes_are_removed() {
        assert_eq!(unescape_unquoted("r\\m"), "rm");
        assert_eq!(unescape_double("a\\\"b \\$x \\n"), "a\"b $x \\n");
        assert_eq!(raw_string("'a b'"), "a b");
        assert_eq!(raw_string("'open"), "open");
        assert_eq!(ansi_c_string("$'\\x72\\x6d'"), "rm");
        assert_eq!(ansi_c_string("$'\\162\\155 \\u002f'"), "rm /");
        assert_eq!(ansi_c_string("$'a\\tb\\q'"), "a\tb\\q");
        assert_eq!(heredoc_delimiter("'EOF'"), ("EOF".into(), true));
        assert_eq!(heredoc_delimiter("EOF"), ("EOF".into(), false));
    }
}
