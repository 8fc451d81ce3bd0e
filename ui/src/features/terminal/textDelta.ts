// What to write to a read-only terminal when the text it shows changes. The transcript
// keeps only the tail of a running command's output (it drops whole lines from the front
// when it grows too long), so the new text is usually the old text with its front cut
// and something appended: only the appended part is written, not the whole tail again.

export type TextDelta = { reset: false; append: string } | { reset: true; text: string };

/** How much of the new text's start is looked for in the old text. */
const PROBE = 64;

export function textDelta(previous: string, next: string): TextDelta {
  if (next.startsWith(previous)) return { reset: false, append: next.slice(previous.length) };
  if (previous.length > 0 && next.length > 0) {
    // The front was cut: find the longest end of `previous` that `next` starts with.
    // The cut falls on a line start, so `next`'s first line (or its first characters) is
    // what to look for; it lies inside the overlap whenever there is one.
    const lineEnd = next.indexOf("\n");
    const probe = next.slice(0, Math.min(PROBE, lineEnd >= 0 ? lineEnd + 1 : next.length));
    for (let at = previous.indexOf(probe, 1); at >= 0; at = previous.indexOf(probe, at + 1)) {
      const overlap = previous.length - at;
      if (overlap <= next.length && next.startsWith(previous.slice(at))) {
        return { reset: false, append: next.slice(overlap) };
      }
    }
  }
  return { reset: true, text: next };
}
