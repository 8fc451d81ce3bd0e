//! Where words start and end in text that mixes Chinese (or Japanese) with Latin script.
//! Chinese puts no spaces between words, so `看看@src/lib.rs` and `用$周报` mention a file
//! and a skill just as `see @src/lib.rs` and `use $pdf` do; after a Latin letter a sigil
//! stays part of the word (`me@host`, `US$5`). The composer's completion
//! (`ui/src/features/chat/completion.ts`) opens on the same boundaries.

/// CJK punctuation, kana, ideographs and full-width forms: what Chinese runs between
/// words.
pub fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3000}'..='\u{303F}'
        | '\u{3040}'..='\u{30FF}'
        | '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{FF00}'..='\u{FFEF}')
}

/// Whether a sigil (`@`, `$`) after `prev` starts a word.
pub fn starts_word_after(prev: char) -> bool {
    prev.is_whitespace() || is_cjk(prev)
}

/// Sentence punctuation that ends a Chinese clause: never the end of a path or a name.
pub const CJK_CLOSING_PUNCTUATION: &[char] = &[
    '。', '，', '、', '；', '：', '！', '？', '）', '】', '」', '』', '”', '’', '》',
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_characters_and_marks_end_a_word_and_latin_letters_do_not() {
        for c in ['看', '、', '（', '，', 'カ', '　'] {
            assert!(starts_word_after(c), "{c}");
        }
        for c in ['e', '1', '_', 'é'] {
            assert!(!starts_word_after(c), "{c}");
        }
    }
}
