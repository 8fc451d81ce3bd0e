//! Reverting the agent's change to a file that a person changed after it, without losing
//! what the person wrote: a line-based three-way merge. The agent turned `before` into
//! `after`; the person then turned `after` into `now`. Reverting applies `after → before`
//! to `now`, and succeeds only where the person's edits (`after → now`) do not touch the
//! lines the revert would change (or the lines right next to them, as diff3 does).
//! Otherwise it says which of the person's lines are in the way, and writes nothing.

use std::ops::Range;

use similar::{DiffTag, TextDiff};

/// What reverting the agent's change in `now` comes to.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Reverted {
    /// `now` with the agent's change taken out and the person's edits kept.
    Clean(String),
    /// The person's edits that overlap the agent's change: 1-based line ranges of `now`.
    Overlaps(Vec<Range<usize>>),
}

/// One change of `after`'s lines: `after[from]` becomes `lines`.
struct Edit<'t> {
    from: Range<usize>,
    lines: Vec<&'t str>,
    /// Where the replacement lands in the other side (for messages).
    to: Range<usize>,
}

fn edits<'t>(old: &[&'t str], new: &[&'t str]) -> Vec<Edit<'t>> {
    let diff = TextDiff::from_slices(old, new);
    diff.ops()
        .iter()
        .filter_map(|op| {
            let (tag, from, to) = op.as_tag_tuple();
            (tag != DiffTag::Equal).then(|| Edit {
                lines: new[to.clone()].to_vec(),
                from,
                to,
            })
        })
        .collect()
}

/// Whether two changes of the same lines touch: they overlap, or meet at a boundary (an
/// insertion where the other one starts or ends is ambiguous).
fn touch(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start <= b.end && b.start <= a.end
}

fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

pub(crate) fn revert_onto(before: &str, after: &str, now: &str) -> Reverted {
    let (before_l, after_l, now_l) = (lines(before), lines(after), lines(now));
    let undo = edits(&after_l, &before_l);
    let person = edits(&after_l, &now_l);
    let overlaps: Vec<Range<usize>> = person
        .iter()
        .filter(|p| undo.iter().any(|u| touch(&u.from, &p.from)))
        .map(|p| {
            // A deletion by the person has no lines of its own in `now`: name where it was.
            let end = p.to.end.max(p.to.start + 1);
            p.to.start + 1..end + 1
        })
        .collect();
    if !overlaps.is_empty() {
        return Reverted::Overlaps(overlaps);
    }
    let mut all: Vec<&Edit> = undo.iter().chain(person.iter()).collect();
    all.sort_by_key(|e| (e.from.start, e.from.end));
    let mut out = String::with_capacity(now.len());
    let mut at = 0;
    for edit in all {
        for line in &after_l[at..edit.from.start] {
            out.push_str(line);
        }
        for line in &edit.lines {
            out.push_str(line);
        }
        at = edit.from.end;
    }
    for line in &after_l[at..] {
        out.push_str(line);
    }
    Reverted::Clean(out)
}

/// The lines of `now` (0-based ranges; an empty range where lines were deleted) that
/// differ from `after`.
pub(crate) fn edited_lines(after: &str, now: &str) -> Vec<Range<usize>> {
    edits(&lines(after), &lines(now))
        .into_iter()
        .map(|e| e.to)
        .collect()
}

/// `4–5` or `4`, for a message.
pub(crate) fn lines_named(ranges: &[Range<usize>]) -> String {
    ranges
        .iter()
        .map(|r| {
            if r.end - r.start <= 1 {
                format!("{}", r.start)
            } else {
                format!("{}–{}", r.start, r.end - 1)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    const BEFORE: &str = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n";

    #[test]
    fn the_agents_change_goes_and_the_persons_lines_stay() {
        let after = BEFORE.replace("two", "TWO");
        // The person added a line far from the agent's change.
        let now = after.replace("seven\n", "seven\nmine\n");
        assert_eq!(
            revert_onto(BEFORE, &after, &now),
            Reverted::Clean(BEFORE.replace("seven\n", "seven\nmine\n"))
        );
    }

    #[test]
    fn a_person_line_inside_or_beside_the_agents_change_is_named_not_dropped() {
        let after = BEFORE.replace("two\nthree\n", "TWO\nTHREE\n");
        let inside = after.replace("TWO\n", "TWO\nmine\n");
        let expected: Vec<Range<usize>> = std::iter::once(3..4).collect();
        assert_eq!(
            revert_onto(BEFORE, &after, &inside),
            Reverted::Overlaps(expected)
        );
        // Right after the changed lines: diff3 calls that a conflict too.
        let beside = after.replace("THREE\n", "THREE\nmine\n");
        assert!(matches!(
            revert_onto(BEFORE, &after, &beside),
            Reverted::Overlaps(_)
        ));
        assert_eq!(lines_named(&[3..4, 6..9]), "3, 6–8");
    }

    #[test]
    fn a_person_who_changed_nothing_gets_before_back() {
        let after = BEFORE.replace("five", "FIVE");
        assert_eq!(
            revert_onto(BEFORE, &after, &after),
            Reverted::Clean(BEFORE.to_owned())
        );
    }
}
