// Block-level Markdown subset for chat answers: paragraphs, fenced code (an unclosed fence
// runs to the end, which is what a half-streamed answer looks like), headings, lists,
// quotes, rules and pipe tables.

export type Block =
  | { type: "paragraph"; lines: string[] }
  | { type: "code"; lang: string; text: string; closed: boolean }
  | { type: "heading"; level: number; text: string }
  | { type: "list"; ordered: boolean; start: number; items: ListItem[] }
  | { type: "quote"; lines: string[] }
  | { type: "rule" }
  | { type: "table"; header: string[]; rows: string[][] };

export interface ListItem {
  text: string;
  /** Nesting level from the indentation (0 = top). */
  depth: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const LIST_ITEM = /^(\s*)([-*+]|(\d{1,9})[.)])\s+(.*)$/;
const QUOTE = /^ {0,3}>\s?(.*)$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

export function parseBlocks(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let i = 0;

  while (i < lines.length) {
    const line = lines[i] as string;

    if (line.trim() === "") {
      i++;
      continue;
    }

    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[1] as string;
      const body: string[] = [];
      i++;
      let closed = false;
      while (i < lines.length) {
        const inner = lines[i] as string;
        const trimmed = inner.trim();
        if (trimmed.startsWith(marker[0] as string) && trimmed.length >= marker.length && /^(`+|~+)$/.test(trimmed)) {
          closed = true;
          i++;
          break;
        }
        body.push(inner);
        i++;
      }
      blocks.push({ type: "code", lang: fence[2] ?? "", text: body.join("\n"), closed });
      continue;
    }

    const heading = HEADING.exec(line);
    if (heading) {
      blocks.push({ type: "heading", level: (heading[1] as string).length, text: heading[2] ?? "" });
      i++;
      continue;
    }

    if (RULE.test(line)) {
      blocks.push({ type: "rule" });
      i++;
      continue;
    }

    if (LIST_ITEM.test(line)) {
      const first = LIST_ITEM.exec(line);
      const ordered = first?.[3] !== undefined;
      const start = ordered ? Number(first?.[3]) : 1;
      const items: ListItem[] = [];
      while (i < lines.length) {
        const current = lines[i] as string;
        const item = LIST_ITEM.exec(current);
        if (item) {
          const depth = Math.floor((item[1] ?? "").replace(/\t/g, "  ").length / 2);
          // A top-level marker of the other kind starts a new list; nested ones may differ.
          if (depth === 0 && items.length > 0 && (item[3] !== undefined) !== ordered) break;
          items.push({ text: item[4] ?? "", depth });
        } else if (current.trim() !== "" && /^\s+/.test(current) && items.length > 0) {
          // An indented continuation line belongs to the item above.
          const last = items[items.length - 1] as ListItem;
          last.text += ` ${current.trim()}`;
        } else {
          break;
        }
        i++;
      }
      blocks.push({ type: "list", ordered, start, items });
      continue;
    }

    if (QUOTE.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length) {
        const match = QUOTE.exec(lines[i] as string);
        if (!match) break;
        quoted.push(match[1] ?? "");
        i++;
      }
      blocks.push({ type: "quote", lines: quoted });
      continue;
    }

    const separator = lines[i + 1];
    if (line.includes("|") && separator !== undefined && TABLE_SEPARATOR.test(separator) && separator.includes("-")) {
      const header = splitRow(line);
      const rows: string[][] = [];
      i += 2;
      while (i < lines.length && (lines[i] as string).includes("|") && (lines[i] as string).trim() !== "") {
        rows.push(splitRow(lines[i] as string));
        i++;
      }
      blocks.push({ type: "table", header, rows });
      continue;
    }

    const paragraph: string[] = [];
    while (i < lines.length) {
      const current = lines[i] as string;
      if (current.trim() === "" || startsBlock(current)) break;
      paragraph.push(current.trim());
      i++;
    }
    if (paragraph.length === 0) {
      // A line that looks like a block start but did not parse as one: keep it as text.
      paragraph.push(line.trim());
      i++;
    }
    blocks.push({ type: "paragraph", lines: paragraph });
  }
  return blocks;
}

function startsBlock(line: string): boolean {
  return FENCE.test(line) || HEADING.test(line) || RULE.test(line) || LIST_ITEM.test(line) || QUOTE.test(line);
}

function splitRow(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((cell) => cell.trim());
}
