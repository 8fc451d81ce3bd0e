import { describe, expect, it } from "vitest";

import type { ToolView } from "../../../gen/protocol";
import { commandView, fileEditView, readView, subagentCallView } from "../../../test/fixtures";
import { commandFailed, commandVerdict, editTotals, formatDuration, printedOutput, viewLabel, viewOutcome, viewSubject } from "./toolViews";

describe("commandVerdict", () => {
  it("says how a command ended and how long it took", () => {
    expect(commandVerdict(commandView({ state: { state: "exited", code: 0 }, duration_ms: 1234 }))).toBe("exit 0 · 1.2 s");
    expect(commandVerdict(commandView({ state: { state: "exited", code: 1 }, duration_ms: 850 }))).toBe("exit 1 · 850 ms");
    expect(commandVerdict(commandView({ state: { state: "killed", signal: "SIGTERM" }, duration_ms: 30_000 }))).toBe(
      "killed by SIGTERM · 30.0 s",
    );
    expect(commandVerdict(commandView({ state: { state: "running", session_id: 3 }, duration_ms: 125_000 }))).toBe(
      "still running · 2 min 5 s",
    );
    // Without a time, the state alone.
    expect(commandVerdict(commandView({ state: { state: "exited", code: 2 } }))).toBe("exit 2");
  });

  it("says nothing before the command ran", () => {
    expect(commandVerdict(commandView({ duration_ms: 5 }))).toBeNull();
  });

  it("counts a non-zero exit and a signal as failures, a clean exit and a running command not", () => {
    expect(commandFailed(commandView({ state: { state: "exited", code: 1 } }))).toBe(true);
    expect(commandFailed(commandView({ state: { state: "killed", signal: "SIGKILL", code: 137 } }))).toBe(true);
    expect(commandFailed(commandView({ state: { state: "exited", code: 0 } }))).toBe(false);
    expect(commandFailed(commandView({ state: { state: "running", session_id: 1 } }))).toBe(false);
  });

  it("formats durations", () => {
    expect(formatDuration(0)).toBe("0 ms");
    expect(formatDuration(999)).toBe("999 ms");
    expect(formatDuration(59_940)).toBe("59.9 s");
    expect(formatDuration(60_000)).toBe("1 min 0 s");
  });
});

describe("printedOutput", () => {
  const HEADER = "exit 0 after 1 s\nOutput:\n";

  it("cuts out the byte range the view names", () => {
    const text = `${HEADER}hello\n[bookkeeping]`;
    expect(printedOutput(text, { start: HEADER.length, end: HEADER.length + 6 })).toBe("hello\n");
  });

  it("counts the range in bytes of UTF-8, not in characters", () => {
    // "é" is 2 bytes, "→" 3, "😀" 4 (and 2 UTF-16 units): character offsets would miss.
    const header = "résumé → 😀\n";
    const printed = "naïve café ✓\n";
    const text = `${header}${printed}tail`;
    const start = new TextEncoder().encode(header).length;
    const end = start + new TextEncoder().encode(printed).length;
    expect(start).toBeGreaterThan(header.length);
    expect(printedOutput(text, { start, end })).toBe(printed);
  });

  it("keeps what a cut output has of the range, and the whole text without a range", () => {
    const text = `${HEADER}line 1\nli`;
    expect(printedOutput(text, { start: HEADER.length, end: HEADER.length + 10_000 })).toBe("line 1\nli");
    expect(printedOutput(text, { start: 10_000, end: 20_000 })).toBe("");
    expect(printedOutput(text, undefined)).toBe(text);
  });
});

describe("viewSubject", () => {
  it("says what each kind of call is about", () => {
    const cases: [ToolView, string][] = [
      [commandView({ command: "ls -la" }), "$ ls -la"],
      [commandView({ command: "python3", stdin: "print(1)\n" }), "stdin → python3"],
      [readView("src/a.rs"), "src/a.rs"],
      [readView("src/a.rs", { start_line: 10, end_line: 20 }), "src/a.rs:10–20"],
      [readView("src/a.rs", { start_line: 7, end_line: 7 }), "src/a.rs:7"],
      [{ type: "search", pattern: "TODO", scope: "src/", first: [], truncated: false }, "TODO in src/"],
      [{ type: "search", pattern: "*.md", first: [], truncated: false }, "*.md"],
      [{ type: "list", path: "docs", truncated: false }, "docs"],
      [{ type: "fetch", url: "https://example.com/a" }, "https://example.com/a"],
      [{ type: "plan", steps: [{ step: "a", status: "pending" }] }, "1 step"],
      [{ type: "memory", action: "save", fact: "uses pnpm" }, "uses pnpm"],
      [{ type: "memory", action: "get" }, ""],
      [subagentCallView({ action: "spawn", task: "review src/" }), "review src/"],
      [subagentCallView({ action: "close", agents: [{ agent_id: "agent-1" }, { agent_id: "agent-2" }] }), "agent-1, agent-2"],
      [
        { type: "mcp_call", server: "github", tool: "create_issue", arguments: '{"title":"Crash on start"}', content: [] },
        "title: Crash on start",
      ],
      [{ type: "other", name: "lookup", arguments: '{"query":"where is main"}' }, "where is main"],
    ];
    for (const [view, subject] of cases) expect([view.type, viewSubject(view)]).toEqual([view.type, subject]);
  });

  it("names the files of an edit, a move as from → to, each once", () => {
    const view = fileEditView(
      { path: "src/a.rs", change: { kind: "modify" } },
      { path: "src/a.rs", change: { kind: "modify" } },
      { path: "src/new.rs", change: { kind: "move", from: "src/old.rs" } },
    );
    expect(viewSubject(view)).toBe("src/a.rs +1 more");
    expect(viewSubject(fileEditView({ path: "src/new.rs", change: { kind: "move", from: "src/old.rs" } }))).toBe(
      "src/old.rs → src/new.rs",
    );
  });

  it("labels an MCP call server · tool, any other call by its name", () => {
    const mcp: ToolView = { type: "mcp_call", server: "github", tool: "create_issue", arguments: "{}", content: [] };
    expect(viewLabel(mcp, "github__create_issue")).toBe("github · create_issue");
    expect(viewLabel(readView("a"), "reader")).toBe("reader");
    expect(viewLabel(null, "reader")).toBe("reader");
  });
});

describe("viewOutcome", () => {
  it("says what a finished call found", () => {
    expect(viewOutcome(readView("a", { start_line: 1, end_line: 40, total_lines: 1200 }))).toBe("40 lines of 1,200");
    expect(viewOutcome(readView("a", { start_line: 5, truncated: true }))).toBe("1 line · cut short");
    expect(viewOutcome({ type: "search", pattern: "x", matches: 1, first: [], truncated: false })).toBe("1 match");
    expect(viewOutcome({ type: "search", pattern: "x", matches: 2500, first: [], truncated: true })).toBe(
      "2,500 matches (more not shown)",
    );
    expect(viewOutcome({ type: "list", path: ".", entries: 12, truncated: false })).toBe("12 entries");
    expect(viewOutcome({ type: "fetch", url: "u", status: 404, bytes: 2048, content_type: "text/html" })).toBe(
      "HTTP 404 · 2 KB · text/html",
    );
    expect(viewOutcome(commandView({ state: { state: "exited", code: 3 }, duration_ms: 10 }))).toBe("exit 3 · 10 ms");
  });

  it("says nothing before the call ran, nor for calls whose status says it all", () => {
    expect(viewOutcome(readView("a"))).toBeNull();
    expect(viewOutcome({ type: "search", pattern: "x", first: [], truncated: false })).toBeNull();
    expect(viewOutcome({ type: "list", path: ".", truncated: false })).toBeNull();
    expect(viewOutcome({ type: "fetch", url: "u" })).toBeNull();
    expect(viewOutcome({ type: "other", name: "x", arguments: "{}" })).toBeNull();
  });
});

describe("editTotals", () => {
  it("adds up the lines of every file's diff, skipping files without one", () => {
    const view = fileEditView(
      {
        path: "a",
        change: { kind: "modify" },
        diff: { path: "a", unified: "", hunks: [{ index: 0, header: "@@ -1,2 +1,2 @@", text: "-x\n-y\n+z\n" }] },
      },
      { path: "b.png", change: { kind: "add" } },
      { path: "c", change: { kind: "add" }, diff: { path: "c", unified: "", hunks: [{ index: 0, header: "@@ -0,0 +1,2 @@", text: "+1\n+2\n" }] } },
    );
    expect(editTotals(view)).toEqual({ added: 3, removed: 2 });
  });
});
