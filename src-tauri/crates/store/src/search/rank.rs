//! BM25 over the candidate messages, computed here rather than by FTS5's `bm25()`.
//!
//! FTS5's `bm25()` counts, on every query, how many rows contain each term by walking the
//! term's whole doclist; for a word in most of a million messages that alone takes tens
//! of milliseconds. Here document frequencies are estimated from a bounded probe (see
//! `doc_freq`), and term frequencies come from the candidates' own text, which the query
//! fetched anyway.

use super::query::{tokens, Term};

const K1: f64 = 1.2;
const B: f64 = 0.75;

/// Collection statistics for one query.
pub(crate) struct Stats {
    /// Rows in the index.
    pub docs: f64,
    /// Rows containing each term (same order as the query's terms).
    pub doc_freq: Vec<f64>,
    /// Average row length in tokens (estimated from the candidates).
    pub avg_len: f64,
}

/// How often `term` occurs in `toks`.
fn term_freq(term: &Term, toks: &[String]) -> f64 {
    let n = term.tokens.len();
    if n == 0 || toks.len() < n {
        return 0.0;
    }
    let last = n - 1;
    toks.windows(n)
        .filter(|w| {
            w.iter()
                .zip(&term.tokens)
                .enumerate()
                .all(|(i, (have, want))| {
                    if term.prefix && i == last {
                        have.starts_with(want.as_str())
                    } else {
                        have == want
                    }
                })
        })
        .count() as f64
}

/// Token lists of indexed texts, for [`score`] and the average length.
pub(crate) fn tokenize(indexed: &str) -> Vec<String> {
    tokens(indexed).collect()
}

/// Okapi BM25 (with the "+1" IDF that never goes negative); higher is better.
pub(crate) fn score(terms: &[Term], stats: &Stats, toks: &[String]) -> f64 {
    let len = toks.len() as f64;
    let norm = K1 * (1.0 - B + B * len / stats.avg_len.max(1.0));
    terms
        .iter()
        .zip(&stats.doc_freq)
        .map(|(term, &df)| {
            let tf = term_freq(term, toks);
            let idf = ((stats.docs - df + 0.5) / (df + 0.5) + 1.0).ln();
            idf * tf * (K1 + 1.0) / (tf + norm)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn term(words: &[&str], prefix: bool) -> Term {
        Term {
            tokens: words.iter().map(|w| (*w).to_owned()).collect(),
            prefix,
        }
    }

    #[test]
    fn phrases_and_prefixes_count() {
        let toks = tokenize("The median pivot; a median Pivot again, mediant");
        assert_eq!(term_freq(&term(&["median", "pivot"], false), &toks), 2.0);
        assert_eq!(term_freq(&term(&["median"], false), &toks), 2.0);
        assert_eq!(term_freq(&term(&["median"], true), &toks), 3.0);
        assert_eq!(term_freq(&term(&["absent"], false), &toks), 0.0);
    }

    #[test]
    fn more_hits_in_shorter_text_and_rarer_terms_score_higher() {
        let q = [term(&["sort"], false)];
        let stats = Stats {
            docs: 1000.0,
            doc_freq: vec![10.0],
            avg_len: 10.0,
        };
        let short = score(&q, &stats, &tokenize("sort sort it"));
        let long = score(
            &q,
            &stats,
            &tokenize("sort it and many other words after that one"),
        );
        assert!(short > long, "{short} {long}");
        let common = Stats {
            doc_freq: vec![900.0],
            ..stats
        };
        assert!(score(&q, &common, &tokenize("sort sort it")) < short);
    }
}
