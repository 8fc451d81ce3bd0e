//! "Did you mean…": when the text an edit expects is not in the file, find the places
//! that look most like it, so the model can copy the exact text instead of guessing
//! again. Only runs on the error path, so it favours useful answers over speed, but stays
//! roughly linear in the file size.

/// Windows scoring below this are noise, not candidates.
const MIN_SCORE: f32 = 0.4;
/// Needle lines used to seed candidate positions (the longest, most distinctive ones).
const SEED_LINES: usize = 3;
/// Candidate positions kept per seed line.
const SEEDS_PER_LINE: usize = 8;
/// Lines shown per candidate before eliding the middle.
const MAX_SHOWN_LINES: usize = 12;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Candidate {
    /// 0-based first line of the window in the file.
    pub start: usize,
    pub len: usize,
    pub score: f32,
    /// The window equals the needle once whitespace is collapsed.
    pub whitespace_only: bool,
}

/// Up to `max` non-overlapping windows of `hay` most similar to `needle`, best first.
pub(crate) fn nearest(hay: &[&str], needle: &[&str], max: usize) -> Vec<Candidate> {
    if hay.is_empty() || needle.is_empty() {
        return Vec::new();
    }
    let needle_norm: Vec<String> = needle.iter().map(|l| normalize(l)).collect();
    let needle_grams: Vec<Vec<u64>> = needle_norm.iter().map(|l| bigrams(l)).collect();
    // Seed from the longest needle lines: each good match of one of them suggests the
    // window starting `j` lines earlier.
    let mut order: Vec<usize> = (0..needle.len()).collect();
    order.sort_by_key(|&j| std::cmp::Reverse(needle_norm[j].len()));
    let mut starts: Vec<usize> = Vec::new();
    for &j in order.iter().take(SEED_LINES) {
        if needle_norm[j].is_empty() {
            continue;
        }
        let mut scored: Vec<(f32, usize)> = hay
            .iter()
            .enumerate()
            .map(|(i, line)| (line_similarity(line, &needle_norm[j], &needle_grams[j]), i))
            .filter(|(s, _)| *s > 0.0)
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        for &(_, i) in scored.iter().take(SEEDS_PER_LINE) {
            starts.push(i.saturating_sub(j));
        }
    }
    starts.sort_unstable();
    starts.dedup();
    let window = needle.len().min(hay.len());
    let mut cands: Vec<Candidate> = starts
        .into_iter()
        .map(|s| s.min(hay.len() - window))
        .map(|start| {
            let mut total = 0.0;
            let mut ws_equal = true;
            for (j, norm) in needle_norm.iter().enumerate() {
                let sim = hay
                    .get(start + j)
                    .map(|l| line_similarity(l, norm, &needle_grams[j]))
                    .unwrap_or(0.0);
                ws_equal &= sim >= 1.0;
                total += sim;
            }
            Candidate {
                start,
                len: window,
                score: total / needle.len() as f32,
                whitespace_only: ws_equal && window == needle.len(),
            }
        })
        .filter(|c| c.score >= MIN_SCORE)
        .collect();
    cands.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.start.cmp(&b.start)));
    let mut picked: Vec<Candidate> = Vec::new();
    for c in cands {
        let overlaps = picked
            .iter()
            .any(|p| c.start < p.start + p.len && p.start < c.start + c.len);
        if !overlaps {
            picked.push(c);
            if picked.len() == max {
                break;
            }
        }
    }
    picked
}

/// The candidates as numbered file lines, or a sentence saying there are none.
pub(crate) fn render(hay: &[&str], cands: &[Candidate]) -> String {
    if cands.is_empty() {
        return "No similar text was found in the file.".to_owned();
    }
    let mut out = String::from("Nearest candidates in the file:\n");
    for c in cands {
        let last = c.start + c.len;
        let what = if c.whitespace_only {
            "differs only in whitespace/indentation".to_owned()
        } else {
            format!("{:.0}% similar", c.score * 100.0)
        };
        if c.len == 1 {
            out.push_str(&format!("- line {} ({what}):\n", c.start + 1));
        } else {
            out.push_str(&format!("- lines {}-{} ({what}):\n", c.start + 1, last));
        }
        let shown: Vec<usize> = if c.len <= MAX_SHOWN_LINES {
            (c.start..last).collect()
        } else {
            let half = MAX_SHOWN_LINES / 2;
            (c.start..c.start + half).chain(last - half..last).collect()
        };
        let mut prev = None;
        for i in shown {
            if prev.is_some_and(|p: usize| i != p + 1) {
                out.push_str("    …\n");
            }
            out.push_str(&format!("{:>6}\t{}\n", i + 1, hay[i]));
            prev = Some(i);
        }
    }
    out
}

/// 1.0 for lines equal up to whitespace, else the Dice coefficient of character bigrams.
fn line_similarity(line: &str, norm_needle: &str, needle_grams: &[u64]) -> f32 {
    let norm = normalize(line);
    if norm == norm_needle {
        return 1.0;
    }
    if norm.is_empty() || norm_needle.is_empty() {
        return 0.0;
    }
    // Equal-but-for-whitespace must outrank any near miss.
    0.99 * dice(&bigrams(&norm), needle_grams)
}

/// Whitespace runs collapsed to one space, ends trimmed.
fn normalize(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Sorted character bigrams, each packed into a u64.
fn bigrams(s: &str) -> Vec<u64> {
    let chars: Vec<char> = s.chars().collect();
    let mut grams: Vec<u64> = chars
        .windows(2)
        .map(|w| (u64::from(w[0]) << 32) | u64::from(w[1]))
        .collect();
    if grams.is_empty() {
        // A one-character line still deserves a comparable fingerprint.
        grams = chars.iter().map(|&c| u64::from(c)).collect();
    }
    grams.sort_unstable();
    grams
}

fn dice(a: &[u64], b: &[u64]) -> f32 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    (2 * common) as f32 / (a.len() + b.len()) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_whitespace_variants_and_near_misses() {
        let hay = [
            "fn main() {",
            "    let total = compute(1, 2);",
            "    println!(\"{total}\");",
            "}",
            "fn other() {}",
        ];
        let needle = ["let total = compute(1, 2);", "println!(\"{total}\");"];
        let c = nearest(&hay, &needle, 3);
        assert_eq!(c[0].start, 1);
        assert!(c[0].whitespace_only);
        let text = render(&hay, &c);
        assert!(text.contains("lines 2-3 (differs only in whitespace/indentation)"));
        assert!(text.contains("     2\t    let total = compute(1, 2);"));

        let c = nearest(&hay, &["let totl = compute(1, 3);"], 3);
        assert_eq!(c[0].start, 1);
        assert!(!c[0].whitespace_only);
        assert!(c[0].score > 0.6, "{}", c[0].score);

        assert!(nearest(&hay, &["zzzz qqqq"], 3).is_empty());
        assert_eq!(render(&hay, &[]), "No similar text was found in the file.");
    }
}
