import { describe, expect, it } from "vitest";

import type { ImportReport, ImportedFile } from "../../gen/protocol";
import { exportFileName, fileName, importCounts, importHeadline, skippedLines } from "./sessionFiles";

const named = (title: string | null, preview: string | null = null, id = "0b7c9e2a") => ({ id, title, preview });

describe("exportFileName", () => {
  it("makes the title a lowercase, hyphen-joined name with the format's extension", () => {
    expect(exportFileName(named("Fix the login bug"), "markdown")).toBe("fix-the-login-bug.md");
    expect(exportFileName(named("Fix the login bug"), "memo_code_jsonl")).toBe("fix-the-login-bug.jsonl");
  });

  it("drops characters no file system takes, and dots, quotes and emoji", () => {
    expect(exportFileName(named('What does src/app.ts: "main()" do? <3 | *ok* 🚀'), "markdown")).toBe(
      "what-does-src-app-ts-main-do-3-ok.md",
    );
    expect(exportFileName(named("..\\..\\etc\\passwd"), "markdown")).toBe("etc-passwd.md");
    expect(exportFileName(named("tab\there\nnew line\u0000"), "markdown")).toBe("tab-here-new-line.md");
  });

  it("takes accents off Latin letters and keeps other scripts", () => {
    expect(exportFileName(named("Café crème brûlée"), "markdown")).toBe("cafe-creme-brulee.md");
    expect(exportFileName(named("Исправить ошибку входа"), "markdown")).toBe("исправить-ошибку-входа.md");
    expect(exportFileName(named("修复登录错误"), "markdown")).toBe("修复登录错误.md");
  });

  it("uses the first message, then the session id, when the title leaves nothing", () => {
    expect(exportFileName(named(null, "Why is CI red?"), "markdown")).toBe("why-is-ci-red.md");
    expect(exportFileName(named("   "), "markdown")).toBe("0b7c9e2a.md");
    expect(exportFileName(named("!!! ???", "🚀🚀"), "memo_code_jsonl")).toBe("0b7c9e2a.jsonl");
    expect(exportFileName(named(null, null, "s-1/2"), "markdown")).toBe("s-1-2.md");
  });

  it("cuts a long title at a word, within 60 characters", () => {
    const title = "Refactor the session store so that imported histories are read only and forks keep their parent";
    const name = exportFileName(named(title), "markdown");
    expect(name).toBe("refactor-the-session-store-so-that-imported-histories-are.md");
    expect(name.length - ".md".length).toBeLessThanOrEqual(60);
    const oneWord = "a".repeat(100);
    expect(exportFileName(named(oneWord), "markdown")).toBe(`${"a".repeat(60)}.md`);
  });

  it("never suggests a name Windows keeps for a device", () => {
    expect(exportFileName(named("CON"), "markdown")).toBe("con-session.md");
    expect(exportFileName(named("nul"), "memo_code_jsonl")).toBe("nul-session.jsonl");
    expect(exportFileName(named("console"), "markdown")).toBe("console.md");
  });
});

const file = (overrides: Partial<ImportedFile>): ImportedFile => ({
  path: "/home/me/a.jsonl",
  status: "new",
  session_id: "s9",
  origin_id: "o1",
  events: 12,
  skipped_lines: [],
  ...overrides,
});

describe("import report words", () => {
  it("counts each status, leaving out the ones at zero", () => {
    const report: ImportReport = {
      files: [file({}), file({ path: "/b.jsonl" }), file({ path: "/c.jsonl", status: "unchanged" }), file({ path: "/d.jsonl", status: "empty", session_id: null })],
      failed: [],
    };
    expect(importCounts(report)).toBe("2 new, 1 unchanged, 1 empty");
    expect(importHeadline(report)).toBe("Imported 4 files: 2 new, 1 unchanged, 1 empty");
    expect(importHeadline({ files: [file({ status: "updated" })], failed: [] })).toBe("Imported 1 file: 1 updated");
  });

  it("says so when no file could be read", () => {
    const failure = { path: "/x.jsonl", error: "not found" };
    expect(importHeadline({ files: [], failed: [failure] })).toBe("Could not import the file");
    expect(importHeadline({ files: [], failed: [failure, { ...failure, path: "/y.jsonl" }] })).toBe("Could not import the 2 files");
  });

  it("lists skipped lines by file, the first three and how many in all", () => {
    const report: ImportReport = {
      files: [
        file({ path: "/w/a.jsonl", skipped_lines: [{ line: 3, reason: "not JSON" }, { line: 9, reason: "unknown record type" }] }),
        file({ path: "C:\\w\\b.jsonl", skipped_lines: [{ line: 1, reason: "no timestamp" }, { line: 2, reason: "no timestamp" }] }),
      ],
      failed: [],
    };
    const skipped = skippedLines(report);
    expect(skipped.total).toBe(4);
    expect(skipped.first).toEqual([
      { file: "a.jsonl", line: 3, reason: "not JSON" },
      { file: "a.jsonl", line: 9, reason: "unknown record type" },
      { file: "b.jsonl", line: 1, reason: "no timestamp" },
    ]);
  });

  it("names a file by the last part of its path", () => {
    expect(fileName("/home/me/a.jsonl")).toBe("a.jsonl");
    expect(fileName("C:\\Users\\me\\b.jsonl")).toBe("b.jsonl");
    expect(fileName("c.jsonl")).toBe("c.jsonl");
  });
});
