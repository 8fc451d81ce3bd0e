import { describe, expect, it } from "vitest";

import { parseBlocks } from "./blocks";
import { parseInline } from "./inline";

describe("parseBlocks", () => {
  it("splits paragraphs on blank lines and keeps line breaks inside one", () => {
    expect(parseBlocks("First line\nsecond line\n\nNext para")).toEqual([
      { type: "paragraph", lines: ["First line", "second line"] },
      { type: "paragraph", lines: ["Next para"] },
    ]);
  });

  it("reads fenced code verbatim, including markdown-looking lines", () => {
    const blocks = parseBlocks("Run:\n```sh\n# not a heading\n  - not a list\n```\nDone.");
    expect(blocks).toEqual([
      { type: "paragraph", lines: ["Run:"] },
      { type: "code", lang: "sh", text: "# not a heading\n  - not a list", closed: true },
      { type: "paragraph", lines: ["Done."] },
    ]);
  });

  it("treats an unclosed fence (still streaming) as code to the end", () => {
    expect(parseBlocks("```rust\nfn main() {")).toEqual([
      { type: "code", lang: "rust", text: "fn main() {", closed: false },
    ]);
  });

  it("parses headings, lists, quotes and rules", () => {
    const blocks = parseBlocks("## Plan\n1. read\n2. edit\n   carefully\n- a\n  - nested\n> note\n---");
    expect(blocks).toEqual([
      { type: "heading", level: 2, text: "Plan" },
      {
        type: "list",
        ordered: true,
        start: 1,
        items: [
          { text: "read", depth: 0 },
          { text: "edit carefully", depth: 0 },
        ],
      },
      {
        type: "list",
        ordered: false,
        start: 1,
        items: [
          { text: "a", depth: 0 },
          { text: "nested", depth: 1 },
        ],
      },
      { type: "quote", lines: ["note"] },
      { type: "rule" },
    ]);
  });

  it("parses pipe tables", () => {
    expect(parseBlocks("| a | b |\n|---|:-:|\n| 1 | 2 |")).toEqual([
      { type: "table", header: ["a", "b"], rows: [["1", "2"]] },
    ]);
  });

  it("keeps HTML as plain text", () => {
    expect(parseBlocks("<img src=x onerror=alert(1)>")).toEqual([
      { type: "paragraph", lines: ["<img src=x onerror=alert(1)>"] },
    ]);
  });
});

describe("parseInline", () => {
  it("finds code, strong, emphasis and links", () => {
    expect(parseInline("Use `cargo test` **now**, *please*; see [docs](https://x.y).")).toEqual([
      { type: "text", text: "Use " },
      { type: "code", text: "cargo test" },
      { type: "text", text: " " },
      { type: "strong", children: [{ type: "text", text: "now" }] },
      { type: "text", text: ", " },
      { type: "em", children: [{ type: "text", text: "please" }] },
      { type: "text", text: "; see " },
      { type: "link", href: "https://x.y", children: [{ type: "text", text: "docs" }] },
      { type: "text", text: "." },
    ]);
  });

  it("leaves snake_case, lone stars and unclosed markers alone", () => {
    expect(parseInline("my_var_name and 2 * 3 * 4 and **open")).toEqual([
      { type: "text", text: "my_var_name and 2 * 3 * 4 and **open" },
    ]);
  });

  it("does not parse markup inside code spans, and honours escapes", () => {
    expect(parseInline("`**x**` \\*y\\*")).toEqual([
      { type: "code", text: "**x**" },
      { type: "text", text: " *y*" },
    ]);
  });

  it("matches backtick runs of the same length", () => {
    expect(parseInline("``a ` b``")).toEqual([{ type: "code", text: "a ` b" }]);
  });
});
