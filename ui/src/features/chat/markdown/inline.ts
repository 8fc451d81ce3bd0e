// Inline Markdown subset: `code`, **strong**, *emphasis*, [links](url), backslash escapes.
// Produces a tree rendered as React elements: model text never becomes HTML.

export type InlineNode =
  | { type: "text"; text: string }
  | { type: "code"; text: string }
  | { type: "strong"; children: InlineNode[] }
  | { type: "em"; children: InlineNode[] }
  | { type: "link"; href: string; children: InlineNode[] };

const ESCAPABLE = new Set("\\`*_[]()#+-.!|>~".split(""));

export function parseInline(source: string): InlineNode[] {
  const nodes: InlineNode[] = [];
  let text = "";
  const flush = () => {
    if (text) nodes.push({ type: "text", text });
    text = "";
  };

  let i = 0;
  while (i < source.length) {
    const ch = source[i] as string;
    const next = source[i + 1];

    if (ch === "\\" && next !== undefined && ESCAPABLE.has(next)) {
      text += next;
      i += 2;
      continue;
    }

    if (ch === "`") {
      const run = source.slice(i).match(/^`+/)?.[0] ?? "`";
      const close = findBacktickRun(source, i + run.length, run.length);
      if (close >= 0) {
        flush();
        const inner = source.slice(i + run.length, close);
        // CommonMark strips one space of padding so `` `x` `` can show backticks.
        const trimmed = /^ .* $/.test(inner) && inner.trim() ? inner.slice(1, -1) : inner;
        nodes.push({ type: "code", text: trimmed });
        i = close + run.length;
        continue;
      }
      text += run;
      i += run.length;
      continue;
    }

    if ((ch === "*" && next === "*") || (ch === "_" && next === "_" && !isWordChar(source[i - 1]))) {
      const marker = ch + ch;
      const close = findClosing(source, i + 2, marker);
      if (close > i + 2) {
        flush();
        nodes.push({ type: "strong", children: parseInline(source.slice(i + 2, close)) });
        i = close + 2;
        continue;
      }
    }

    // Single `*` only: `_` inside snake_case identifiers is far more common than emphasis.
    if (ch === "*" && next !== "*" && next !== undefined && !/\s/.test(next)) {
      const close = findClosing(source, i + 1, "*");
      if (close > i + 1 && source[close + 1] !== "*") {
        flush();
        nodes.push({ type: "em", children: parseInline(source.slice(i + 1, close)) });
        i = close + 1;
        continue;
      }
    }

    if (ch === "[") {
      const link = /^\[([^\]\n]+)\]\(([^)\s]+)\)/.exec(source.slice(i));
      if (link) {
        flush();
        nodes.push({ type: "link", href: link[2] ?? "", children: parseInline(link[1] ?? "") });
        i += link[0].length;
        continue;
      }
    }

    text += ch;
    i += 1;
  }
  flush();
  return nodes;
}

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && /\w/.test(ch);
}

function findBacktickRun(source: string, from: number, length: number): number {
  let i = from;
  while (i < source.length) {
    const at = source.indexOf("`", i);
    if (at < 0) return -1;
    const run = source.slice(at).match(/^`+/)?.[0].length ?? 1;
    if (run === length) return at;
    i = at + run;
  }
  return -1;
}

/** The next `marker` whose content does not end in whitespace (so `a * b * c` stays text). */
function findClosing(source: string, from: number, marker: string): number {
  let i = from;
  while (i < source.length) {
    const at = source.indexOf(marker, i);
    if (at < 0) return -1;
    if (!/\s/.test(source[at - 1] ?? " ")) return at;
    i = at + marker.length;
  }
  return -1;
}
