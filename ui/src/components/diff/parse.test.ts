import { describe, expect, it } from "vitest";

import type { FileDiff } from "../../gen/protocol";
import { buildLayout, FORM_HEIGHT, HEADER_HEIGHT, ROW_HEIGHT, visibleRange } from "./layout";
import { hunkRows, hunksFromUnified, parseDiff, parseHunkHeader, splitRows } from "./parse";

describe("hunk headers", () => {
  it("reads both ranges, with a missing count meaning one line", () => {
    expect(parseHunkHeader("@@ -12,7 +12,9 @@")).toEqual({ oldStart: 12, oldCount: 7, newStart: 12, newCount: 9, section: "" });
    expect(parseHunkHeader("@@ -5 +5 @@ fn main() {")).toEqual({
      oldStart: 5,
      oldCount: 1,
      newStart: 5,
      newCount: 1,
      section: "fn main() {",
    });
    expect(parseHunkHeader("@@ -0,0 +1,2 @@")).toMatchObject({ oldCount: 0, newStart: 1, newCount: 2 });
  });

  it("returns null for headers without ranges", () => {
    expect(parseHunkHeader("rename a.rs -> b.rs")).toBeNull();
    expect(parseHunkHeader("new empty file x.txt")).toBeNull();
    expect(parseHunkHeader("@@ something @@")).toBeNull();
  });
});

describe("hunk rows", () => {
  it("numbers context, removed and added lines from the header", () => {
    const rows = hunkRows({ index: 0, header: "@@ -10,4 +10,4 @@", text: " a\n-b\n+B\n c\n\n" });
    expect(rows).toEqual([
      { kind: "context", oldLine: 10, newLine: 10, text: "a" },
      { kind: "del", oldLine: 11, newLine: null, text: "b" },
      { kind: "add", oldLine: null, newLine: 11, text: "B" },
      { kind: "context", oldLine: 12, newLine: 12, text: "c" },
      // A blank context line that lost its leading space.
      { kind: "context", oldLine: 13, newLine: 13, text: "" },
    ]);
  });

  it("skips a repeated header and keeps end-of-file notes apart from the lines", () => {
    const rows = hunkRows({
      index: 0,
      header: "@@ -1 +1 @@",
      text: "@@ -1 +1 @@\n-old\n\\ No newline at end of file\n+new\n",
    });
    expect(rows.map((row) => [row.kind, row.oldLine, row.newLine])).toEqual([
      ["del", 1, null],
      ["meta", null, null],
      ["add", null, 1],
    ]);
  });

  it("numbers a new file from 1 and a pure removal from its first removed line", () => {
    expect(hunkRows({ index: 0, header: "@@ -0,0 +1,2 @@", text: "+x\n+y\n" }).map((r) => r.newLine)).toEqual([1, 2]);
    expect(hunkRows({ index: 0, header: "@@ -3,2 +2,0 @@", text: "-x\n-y\n" }).map((r) => r.oldLine)).toEqual([3, 4]);
  });

  it("shows lines without numbers when the header has no ranges", () => {
    const rows = hunkRows({ index: 0, header: "rename a -> b", text: "rename from a\nrename to b\n" });
    expect(rows.map((row) => row.kind)).toEqual(["meta", "meta"]);
  });
});

describe("unified text without a hunk list", () => {
  it("cuts hunks by counting lines, so a removed '-- comment' is not a file header", () => {
    const unified = [
      "--- a/q.sql",
      "+++ b/q.sql",
      "@@ -1,2 +1,1 @@",
      "--- old comment",
      " select 1;",
      "--- a/other.sql",
      "+++ b/other.sql",
      "@@ -4 +4 @@",
      "-a",
      "+b",
      "",
    ].join("\n");
    const hunks = hunksFromUnified(unified);
    expect(hunks).toEqual([
      { index: 0, header: "@@ -1,2 +1,1 @@", text: "--- old comment\n select 1;\n" },
      { index: 1, header: "@@ -4 +4 @@", text: "-a\n+b\n" },
    ]);
  });

  it("is what parseDiff falls back to", () => {
    const diff: FileDiff = { path: "a.txt", unified: "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+y\n", hunks: [] };
    const parsed = parseDiff(diff);
    expect(parsed.hunks).toHaveLength(1);
    expect(parsed).toMatchObject({ added: 1, removed: 1, lineCount: 2, maxLineNumber: 1 });
  });
});

describe("parseDiff", () => {
  it("counts changes and names each hunk's file in a multi-file change", () => {
    const diff: FileDiff = {
      path: "src/a.rs, src/b.py",
      unified: "",
      hunks: [
        { index: 0, header: "@@ -1,2 +1,2 @@ src/a.rs", text: "-a\n+A\n b\n" },
        { index: 1, header: "@@ -120,1 +120,2 @@ src/b.py", text: " x\n+y\n" },
      ],
    };
    const parsed = parseDiff(diff);
    expect(parsed.hunks.map((hunk) => hunk.path)).toEqual(["src/a.rs", "src/b.py"]);
    expect(parsed).toMatchObject({ added: 2, removed: 1, lineCount: 5, maxLineNumber: 121 });
  });
});

describe("side-by-side rows", () => {
  it("pairs each removal run with the additions after it and pads the shorter side", () => {
    const rows = hunkRows({ index: 0, header: "@@ -1,4 +1,3 @@", text: " a\n-b\n-c\n+C\n d\n+e\n" });
    const split = splitRows(rows);
    expect(
      split.map((row) => (row.kind === "pair" ? [row.left?.text ?? null, row.right?.text ?? null] : "meta")),
    ).toEqual([
      ["a", "a"],
      ["b", "C"],
      ["c", null],
      ["d", "d"],
      [null, "e"],
    ]);
  });
});

describe("layout", () => {
  it("stacks headers, rows and the comment form at fixed heights", () => {
    const layout = buildLayout([2, 1], { hunk: 0, row: 0 });
    expect(layout.items.map((item) => item.kind)).toEqual(["header", "row", "form", "row", "header", "row"]);
    expect(layout.offsets).toEqual([
      0,
      HEADER_HEIGHT,
      HEADER_HEIGHT + ROW_HEIGHT,
      HEADER_HEIGHT + ROW_HEIGHT + FORM_HEIGHT,
      HEADER_HEIGHT + 2 * ROW_HEIGHT + FORM_HEIGHT,
      2 * HEADER_HEIGHT + 2 * ROW_HEIGHT + FORM_HEIGHT,
      2 * HEADER_HEIGHT + 3 * ROW_HEIGHT + FORM_HEIGHT,
    ]);
  });

  it("finds the items overlapping a band", () => {
    const layout = buildLayout([1000], null);
    // Row i (item i + 1) spans HEADER + i*ROW .. + ROW.
    const top = HEADER_HEIGHT + 500 * ROW_HEIGHT + 5;
    expect(visibleRange(layout, top, top + 10 * ROW_HEIGHT)).toEqual({ start: 501, end: 512 });
    expect(visibleRange(layout, -100, 10)).toEqual({ start: 0, end: 1 });
    expect(visibleRange(layout, 1e9, 1e9 + 10)).toEqual({ start: 1001, end: 1001 });
  });
});
