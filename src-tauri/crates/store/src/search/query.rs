//! What the user typed -> a safe FTS5 query plus the terms we rank by.
//!
//! SQLite's `unicode61` tokenizer splits on spaces and punctuation, which leaves a run of
//! Chinese or Japanese text as one giant token. So before indexing (and querying) every
//! CJK character is set apart with zero-width spaces: each becomes its own token, a CJK
//! query becomes a phrase of them, and the marks are stripped from snippets again.

/// Set around CJK characters in indexed text; `unicode61` treats it as a separator, and
/// it is invisible if it ever leaks.
const CJK_MARK: char = '\u{200B}';

fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF     // Hiragana, Katakana
        | 0x3400..=0x4DBF   // CJK Extension A
        | 0x4E00..=0x9FFF   // CJK Unified Ideographs
        | 0xF900..=0xFAFF   // CJK Compatibility Ideographs
        | 0xFF66..=0xFF9F   // Half-width Katakana
        | 0x20000..=0x2FFFF // CJK Extensions B and later
    )
}

/// Text as it is stored in the index: CJK characters set apart so each is a token.
pub(crate) fn fts_text(text: &str) -> String {
    if !text.chars().any(is_cjk) {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len() + text.len() / 2);
    for c in text.chars() {
        if is_cjk(c) {
            out.push(CJK_MARK);
            out.push(c);
            out.push(CJK_MARK);
        } else {
            out.push(c);
        }
    }
    out
}

pub(crate) fn strip_marks(snippet: &str) -> String {
    snippet.chars().filter(|&c| c != CJK_MARK).collect()
}

/// The tokens of indexed text, lower-cased, as `unicode61` sees them (letters and digits;
/// everything else separates).
pub(crate) fn tokens(indexed: &str) -> impl Iterator<Item = String> + '_ {
    indexed
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_lowercase)
}

/// One thing every hit must contain: a word, a phrase, or a prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Term {
    /// Consecutive tokens (one for a plain word).
    pub tokens: Vec<String>,
    /// The last token matches any token starting with it.
    pub prefix: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ParsedQuery {
    pub fts: String,
    pub terms: Vec<Term>,
}

/// One term on its own, as an FTS5 query.
pub(crate) fn term_fts(term: &Term) -> String {
    let phrase = term.tokens.join(" ");
    if term.prefix {
        format!("\"{phrase}\"*")
    } else {
        format!("\"{phrase}\"")
    }
}

/// Turns what the user typed into an FTS5 query that cannot be a syntax error: every
/// term becomes a quoted string (so `AND`, `-`, `:` and quotes are just text), joined by
/// FTS5's implicit AND; `"a phrase"` stays a phrase and a trailing `*` a prefix. `None`
/// when there is nothing to search for.
pub(crate) fn parse(input: &str) -> Option<ParsedQuery> {
    let mut fts = Vec::new();
    let mut terms = Vec::new();
    let mut rest = input.trim();
    while !rest.is_empty() {
        let (term, phrase, after) = if let Some(quoted) = rest.strip_prefix('"') {
            match quoted.find('"') {
                Some(end) => (&quoted[..end], true, &quoted[end + 1..]),
                None => (quoted, true, ""),
            }
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            (&rest[..end], false, &rest[end..])
        };
        rest = after.trim_start();
        let (word, prefix) = match term.strip_suffix('*') {
            Some(w) if !phrase => (w, true),
            _ => (term, false),
        };
        let indexed = fts_text(word);
        let toks: Vec<String> = tokens(&indexed).collect();
        // A term of only punctuation would tokenize to nothing and match nothing, which
        // FTS5 reports as an error in some positions; drop it.
        if toks.is_empty() {
            continue;
        }
        let quoted = format!("\"{}\"", indexed.replace('"', "\"\""));
        fts.push(if prefix { format!("{quoted}*") } else { quoted });
        terms.push(Term {
            tokens: toks,
            prefix,
        });
    }
    (!terms.is_empty()).then(|| ParsedQuery {
        fts: fts.join(" "),
        terms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fts(input: &str) -> Option<String> {
        parse(input).map(|q| q.fts)
    }

    #[test]
    fn queries_are_always_quoted() {
        assert_eq!(fts("  "), None);
        assert_eq!(fts("-- :: \"\""), None);
        assert_eq!(fts("quick sort").as_deref(), Some("\"quick\" \"sort\""));
        assert_eq!(
            fts("a AND b OR -c").as_deref(),
            Some("\"a\" \"AND\" \"b\" \"OR\" \"-c\"")
        );
        assert_eq!(
            fts("\"exact phrase\" read*").as_deref(),
            Some("\"exact phrase\" \"read\"*")
        );
        assert_eq!(fts("say \"hi").as_deref(), Some("\"say\" \"hi\""));
        assert_eq!(fts("it's \"a\"b").as_deref(), Some("\"it's\" \"a\" \"b\""));
    }

    #[test]
    fn terms_are_lowercased_tokens() {
        let q = parse("Read_File \"Median Pivot\" quick*").unwrap();
        let toks: Vec<(Vec<&str>, bool)> = q
            .terms
            .iter()
            .map(|t| (t.tokens.iter().map(String::as_str).collect(), t.prefix))
            .collect();
        assert_eq!(
            toks,
            [
                (vec!["read", "file"], false),
                (vec!["median", "pivot"], false),
                (vec!["quick"], true)
            ]
        );
    }

    #[test]
    fn cjk_is_split_into_characters() {
        let indexed = fts_text("用rust写快排");
        assert_eq!(
            indexed,
            "\u{200B}用\u{200B}rust\u{200B}写\u{200B}\u{200B}快\u{200B}\u{200B}排\u{200B}"
        );
        assert_eq!(strip_marks(&indexed), "用rust写快排");
        assert_eq!(
            tokens(&indexed).collect::<Vec<_>>(),
            ["用", "rust", "写", "快", "排"]
        );
        assert_eq!(fts_text("plain ascii"), "plain ascii");
        assert_eq!(parse("快排").unwrap().terms[0].tokens, ["快", "排"]);
    }
}
