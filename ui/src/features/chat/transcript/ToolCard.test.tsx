// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";

import type { FileChange, FileDiff, ToolView } from "../../../gen/protocol";
import type { ApprovalItem } from "../../../state/transcript";
import { commandView, fileEditView, readView, toolItem } from "../../../test/fixtures";
import { WatchCommandContext } from "../../terminal/watch";
import { ResolveApprovalContext, type ResolveApproval } from "./ApprovalCard";
import { formatProgress, ToolCard, type CardApproval } from "./ToolCard";
import { ReadOutputContext } from "./wholeOutput";

afterEach(cleanup);

/** Opens a folded card or file the way a click on its summary does. */
function unfold(details: Element) {
  act(() => {
    (details as HTMLDetailsElement).open = true;
    details.dispatchEvent(new Event("toggle"));
  });
}

const card = () => screen.getByTestId("tool-card");

const MCP_VIEW: ToolView = {
  type: "mcp_call",
  server: "everything",
  tool: "trigger-long-running-operation",
  arguments: '{\n  "duration": 5\n}',
  content: [],
};

const MCP_CALL = toolItem({ name: "everything__trigger-long-running-operation", args: '{"duration":5}', view: MCP_VIEW });

describe("ToolCard for an MCP tool", () => {
  it("names it server · tool from its view, the model's name in its tooltip", () => {
    render(<ToolCard tool={MCP_CALL} />);
    expect(card().dataset.view).toBe("mcp_call");
    const name = card().querySelector(".tool__name")!;
    expect(name.textContent).toBe("everything · trigger-long-running-operation");
    expect(name.getAttribute("title")).toBe("called as everything__trigger-long-running-operation");
    expect(card().querySelector(".tool__args")?.textContent).toBe("duration: 5");
  });

  it("shows what the server answered block by block, and the files it changed", () => {
    const view: ToolView = {
      ...MCP_VIEW,
      read_only: true,
      content: [
        { type: "text", text: "Done in 5 s" },
        { type: "image", mime_type: "image/png", bytes: 4096 },
        { type: "resource_link", uri: "file:///tmp/log.txt", name: "log" },
      ],
      changed_files: ["out/report.md"],
    };
    render(<ToolCard tool={{ ...MCP_CALL, status: "ok", output: "[model-facing text]", view }} />);
    expect(card().querySelector(".tool__read-only")?.textContent).toBe("read-only");
    const answer = screen.getByTestId("mcp-content");
    expect(within(answer).getByTestId("tool-output").textContent).toBe("Done in 5 s");
    expect(answer.textContent).toContain("Image (image/png, 4 KB)");
    expect(answer.textContent).toContain("Link: file:///tmp/log.txt (log)");
    // The view's answer, not the text written for the model.
    expect(card().textContent).not.toContain("[model-facing text]");
    expect(screen.getByTestId("tool-changes").textContent).toContain("out/report.md");
  });

  it("shows a running call's progress and hides it once the call ends", () => {
    const withProgress = { ...MCP_CALL, progress: { progress: 2, total: 5, message: "step 2" } };
    const { rerender } = render(<ToolCard tool={withProgress} />);
    expect(screen.getByTestId("tool-progress").textContent).toBe("2/5 · step 2");
    rerender(<ToolCard tool={{ ...withProgress, status: "ok", output: "done" }} />);
    expect(screen.queryByTestId("tool-progress")).toBeNull();
  });

  it("formats counts, fractions and unknown totals", () => {
    expect(formatProgress({ progress: 3, total: 10, message: null })).toBe("3/10");
    expect(formatProgress({ progress: 0.25, total: 1, message: null })).toBe("25%");
    expect(formatProgress({ progress: 7, total: null, message: "files" })).toBe("7 · files");
  });
});

describe("ToolCard before its view came", () => {
  it("shows the call's name and the arguments as they arrive, read as nothing more", () => {
    render(<ToolCard tool={toolItem({ name: "write_file", args: '{"file_path":"src/new.ts","content":"expo' })} />);
    expect(card().dataset.view).toBe("none");
    expect(card().querySelector(".tool__name")?.textContent).toBe("write_file");
    expect(card().querySelector(".tool__args")).toBeNull();
    unfold(card());
    expect(screen.queryByTestId("diff")).toBeNull();
    expect(card().querySelector(".tool__pre")?.textContent).toBe('{"file_path":"src/new.ts","content":"expo');
  });

  it("names an MCP tool server · tool from its name alone", () => {
    render(<ToolCard tool={{ ...MCP_CALL, view: null }} />);
    expect(card().querySelector(".tool__name")?.textContent).toBe("everything · trigger-long-running-operation");
  });
});

/** `header` + what the command printed + a trailer, with the view's range over the printed part. */
function commandOutput(printed: string, header = "[header for the model]\n", trailer = "\n[trailer]") {
  const start = new TextEncoder().encode(header).length;
  return { output: header + printed + trailer, range: { start, end: start + new TextEncoder().encode(printed).length } };
}

describe("ToolCard for a shell command", () => {
  const EXEC = toolItem({ name: "exec_command", args: '{"cmd":"cargo test","yield_time_ms":10000}', view: commandView() });

  it("shows the command once, what it printed, its exit code and duration, as an error when it failed", () => {
    const { output, range } = commandOutput("test failed\n");
    const view = commandView({ state: { state: "exited", code: 1 }, duration_ms: 2500, output: range });
    render(<ToolCard tool={{ ...EXEC, status: "ok", output, view }} />);
    expect(card().dataset.view).toBe("command");
    expect(screen.getByTestId("tool-command").textContent).toBe("$cargo test");
    expect(screen.getByTestId("tool-status").textContent).toBe("exit 1 · 2.5 s");
    expect(screen.getByTestId("tool-output").textContent).toBe("test failed\n");
    expect(card().textContent).not.toMatch(/\[header for the model\]|\[trailer\]/);
    expect(screen.queryByText("Arguments")).toBeNull();
    expect(card().className).toContain("tool--error");
    expect(card().querySelector(".tool__icon svg")).toBeTruthy();
  });

  it("shows a clean exit as ok, and a command that printed nothing as such", () => {
    const { output, range } = commandOutput("");
    const view = commandView({ state: { state: "exited", code: 0 }, duration_ms: 850, output: range });
    render(<ToolCard tool={{ ...EXEC, status: "ok", output, view }} />);
    expect(screen.getByTestId("tool-status").textContent).toBe("exit 0 · 850 ms");
    expect(card().className).toContain("tool--ok");
    expect(card().className).not.toContain("tool--error");
    expect(screen.getByTestId("tool-output").textContent).toBe("(no output)");
  });

  it("says a command was killed by a signal", () => {
    const view = commandView({ state: { state: "killed", signal: "SIGTERM" }, duration_ms: 30_000 });
    render(<ToolCard tool={{ ...EXEC, status: "ok", output: "", view }} />);
    expect(screen.getByTestId("tool-status").textContent).toBe("killed by SIGTERM · 30.0 s");
    expect(card().className).toContain("tool--error");
  });

  it("says where it ran and that it ran outside the sandbox, only when so", () => {
    const { unmount } = render(<ToolCard tool={{ ...EXEC, view: commandView({ cwd: "crates/a", sandboxed: false }) }} />);
    const facts = screen.getByTestId("tool-command-facts");
    expect(facts.textContent).toBe("in crates/aoutside the sandbox");
    unmount();
    render(<ToolCard tool={EXEC} />);
    expect(screen.queryByTestId("tool-command-facts")).toBeNull();
  });

  it("shows what was typed into a running command, and that it still runs", () => {
    const view = commandView({ command: "python3", stdin: "print(1)\n", state: { state: "running", session_id: 4 }, duration_ms: 1000 });
    render(<ToolCard tool={{ ...EXEC, name: "write_stdin", status: "ok", output: "1\n", view }} />);
    expect(screen.getByTestId("tool-command").textContent).toBe('⌨"print(1)\\n" → python3');
    expect(screen.getByTestId("tool-status").textContent).toBe("still running · 1.0 s");
    expect(card().className).not.toContain("tool--error");
  });

  it("keeps an engine error (a denied command) as it is, output whole", () => {
    const view = commandView({ output: { start: 4, end: 8 } });
    render(<ToolCard tool={{ ...EXEC, status: "error", errorKind: "approval_denied", output: "the user denied this command", view }} />);
    expect(screen.getByTestId("tool-status").textContent).toBe("approval denied");
    expect(screen.getByTestId("tool-output").textContent).toBe("the user denied this command");
    expect(card().className).toContain("tool--error");
  });

  it("unfolds to show what a running command prints, then folds on its result", () => {
    const { rerender, container } = render(<ToolCard tool={EXEC} />);
    const details = () => container.querySelector("details");
    expect(details()?.open).toBe(false);
    expect(screen.queryByTestId("tool-live-output")).toBeNull();

    rerender(<ToolCard tool={{ ...EXEC, liveOutput: "Compiling a\nCompiling b\n" }} />);
    expect(details()?.open).toBe(true);
    expect(screen.getByTestId("tool-live-output").textContent).toBe("Compiling a\nCompiling b\n");
    expect(screen.queryByText("Waiting for the command…")).toBeNull();

    const { output, range } = commandOutput("Finished\n");
    const done = commandView({ state: { state: "exited", code: 0 }, duration_ms: 3000, output: range });
    rerender(<ToolCard tool={{ ...EXEC, liveOutput: "Compiling a\n", status: "ok", output, view: done }} />);
    expect(details()?.open).toBe(false);
    expect(screen.queryByTestId("tool-live-output")).toBeNull();
    expect(screen.getByTestId("tool-output").textContent).toBe("Finished\n");
  });

  it("offers to watch a running command in the terminal, not once it ended", () => {
    const watch = vi.fn();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <WatchCommandContext.Provider value={watch}>{children}</WatchCommandContext.Provider>
    );
    const { rerender } = render(<ToolCard tool={EXEC} />, { wrapper });
    fireEvent.click(screen.getByTestId("watch-command"));
    expect(watch).toHaveBeenCalledWith("c1", "cargo test");
    // In the summary, but not a click that folds the card.
    expect(card().hasAttribute("open")).toBe(false);
    rerender(<ToolCard tool={{ ...EXEC, status: "ok", output: "" }} />);
    expect(screen.queryByTestId("watch-command")).toBeNull();
  });
});

const FILE_CHANGE: FileChange = {
  path: "src/a.rs",
  kind: "modified",
  sources: ["apply_patch"],
  restorable: true,
  binary: false,
  added: 2,
  removed: 1,
  diff: {
    path: "src/a.rs",
    unified: "",
    hunks: [{ index: 0, header: "@@ -3,2 +3,3 @@", text: " keep\n-old\n+new\n+more\n" }],
  },
};

const TWO_HUNKS: FileDiff = {
  path: "src/a.rs",
  unified: "",
  hunks: [
    { index: 0, header: "@@ -1 +1 @@", text: "-a\n+b\n" },
    { index: 1, header: "@@ -9 +9 @@", text: "-c\n+d\n" },
  ],
};

const PATCH_CALL = toolItem({
  name: "apply_patch",
  args: '{"input":"[the patch as the model wrote it]"}',
  view: fileEditView({ path: "src/a.rs", change: { kind: "modify" }, diff: TWO_HUNKS }),
});

function approvalFor(callId: string, decision: ApprovalItem["decision"], sameToolWaiting = 0): CardApproval {
  return {
    sameToolWaiting,
    item: {
      kind: "approval",
      key: "ap",
      decision,
      request: {
        request_id: "r1",
        call_id: callId,
        tool_name: "apply_patch",
        risk: "write",
        reason: "edit src/a.rs",
        fingerprint: "write:/repo/src/a.rs",
        arguments: {},
        diff: TWO_HUNKS,
      },
    },
  };
}

function withResolve(resolve: ResolveApproval) {
  return ({ children }: { children: ReactNode }) => (
    <ResolveApprovalContext.Provider value={resolve}>{children}</ResolveApprovalContext.Provider>
  );
}

describe("ToolCard waiting for an approval", () => {
  const EXEC = toolItem({ name: "exec_command", view: commandView({ command: "rm -rf build" }) });
  const commandApproval = (decision: ApprovalItem["decision"], sameToolWaiting = 0): CardApproval => {
    const approval = approvalFor("c1", decision, sameToolWaiting);
    const request = { ...approval.item.request, tool_name: "exec_command", risk: "execute" as const, diff: null, command: "rm -rf build" };
    return { ...approval, item: { ...approval.item, request } };
  };

  it("says it waits, and holds the question with its buttons inside the card", () => {
    const resolve = vi.fn(() => Promise.resolve());
    const { rerender } = render(<ToolCard tool={EXEC} approval={commandApproval(null)} />, { wrapper: withResolve(resolve) });
    expect(screen.getByTestId("tool-status").textContent).toBe("waiting for approval");
    expect(card().className).toContain("tool--waiting");
    expect(card().dataset.status).toBe("running");
    expect(card().hasAttribute("open")).toBe(true);
    const approval = within(card()).getByTestId("approval-card");
    expect(approval.dataset.state).toBe("pending");
    expect(approval.textContent).toContain("edit src/a.rs");
    // The command is the card's, shown once.
    expect(screen.getAllByText(/rm -rf build/)).toHaveLength(1);
    expect(screen.queryByText("Waiting for the command…")).toBeNull();
    fireEvent.click(within(approval).getByRole("button", { name: "Approve once" }));
    expect(resolve).toHaveBeenCalledWith("r1", { type: "approve_once" });

    rerender(<ToolCard tool={EXEC} approval={commandApproval({ type: "approve_once" })} />);
    expect(screen.getByTestId("tool-status").textContent).toBe("running");
    const answered = within(card()).getByTestId("approval-card");
    expect(answered.dataset.state).toBe("approved");
    expect(within(answered).getByTestId("approval-decision").textContent).toBe("Approved once");
    expect(within(answered).queryByRole("button")).toBeNull();
  });

  it("says an answer that did not reach the engine, and lets it be given again", async () => {
    const resolve = vi.fn(() => Promise.reject(new Error("the session ended")));
    render(<ToolCard tool={EXEC} approval={commandApproval(null)} />, { wrapper: withResolve(resolve) });
    const approve = within(card()).getByRole("button", { name: "Approve once" });
    fireEvent.click(approve);
    expect((await screen.findByTestId("approval-failure")).textContent).toContain("the session ended");
    expect((approve as HTMLButtonElement).disabled).toBe(false);
  });

  it("says which kept rule let a call run without asking", () => {
    render(<ToolCard tool={{ ...EXEC, allowedBy: ["cargo test", "git status"] }} />);
    expect(within(card()).getByTestId("approval-decision").textContent).toBe("Allowed by rules cargo test, git status");
    expect(within(card()).queryByTestId("approval-card")).toBeNull();
  });

  it("says a denial inside the card", () => {
    render(<ToolCard tool={{ ...EXEC, status: "error", errorKind: "approval_denied", output: "denied" }} approval={commandApproval({ type: "deny" })} />);
    expect(within(card()).getByTestId("approval-card").dataset.state).toBe("denied");
    expect(screen.getByTestId("approval-decision").textContent).toBe("Denied");
    expect(screen.getByTestId("tool-status").textContent).toBe("approval denied");
  });

  it("offers to approve the other calls of its tool waiting in the step", () => {
    const resolve = vi.fn(() => Promise.resolve());
    render(<ToolCard tool={EXEC} approval={commandApproval(null, 2)} />, { wrapper: withResolve(resolve) });
    const all = within(card()).getByTestId("approve-step");
    expect(all.textContent).toBe("Approve all 3");
    fireEvent.click(all);
    expect(resolve).toHaveBeenCalledWith("r1", { type: "approve_step" });
  });

  it("lets an edit be taken hunk by hunk from the proposal, the card's own diff out of the way", () => {
    const resolve = vi.fn(() => Promise.resolve());
    render(<ToolCard tool={PATCH_CALL} approval={approvalFor("c1", null)} />, { wrapper: withResolve(resolve) });
    expect(screen.getByTestId("tool-status").textContent).toBe("waiting for approval");
    unfold(card());
    expect(screen.queryByTestId("tool-diffs")).toBeNull();
    expect(within(card()).getAllByTestId("approval-hunk")).toHaveLength(2);
    fireEvent.click(screen.getByLabelText("Apply change 2"));
    fireEvent.click(screen.getByRole("button", { name: "Apply 1 of 2" }));
    expect(resolve).toHaveBeenCalledWith("r1", { type: "approve_once", accepted_hunks: [0] });
  });
});

describe("ToolCard for an edit", () => {
  const EDIT = fileEditView({ path: "src/a.rs", change: { kind: "modify" }, diff: FILE_CHANGE.diff! });

  it("shows the view's diff with its counts, the arguments folded away, nothing built while folded", () => {
    render(<ToolCard tool={{ ...PATCH_CALL, status: "ok", output: "Edited src/a.rs", view: EDIT }} />);
    expect(card().dataset.view).toBe("file_edit");
    expect(card().querySelector(".tool__args")?.textContent).toBe("src/a.rs");
    expect(card().querySelector(".diff__stats")?.textContent).toBe("+2−1");
    expect(screen.getByTestId("tool-status").textContent).toBe("ok");
    expect(screen.queryByTestId("diff")).toBeNull();

    unfold(card());
    const lines = within(screen.getByTestId("diff")).getAllByTestId("diff-line");
    expect(lines.map((line) => line.querySelector(".diff__num--new")?.textContent)).toEqual(["3", "", "4", "5"]);
    expect(screen.getByTestId("tool-output").textContent).toBe("Edited src/a.rs");
    const args = screen.getByTestId("tool-arguments");
    expect(args.tagName).toBe("DETAILS");
    expect((args as HTMLDetailsElement).open).toBe(false);
    expect(args.textContent).toContain("[the patch as the model wrote it]");
  });

  it("marks the hunks a partly accepted edit wrote and the ones it did not", () => {
    const view = fileEditView({ path: "src/a.rs", change: { kind: "modify" }, diff: TWO_HUNKS, applied_hunks: [0] });
    render(
      <ToolCard
        tool={{ ...PATCH_CALL, status: "ok", output: "", view }}
        approval={approvalFor("c1", { type: "approve_once", accepted_hunks: [0] })}
      />,
    );
    unfold(card());
    expect(screen.getAllByTestId("hunk-state").map((state) => state.textContent)).toEqual(["Applied", "Not applied"]);
    expect(screen.getAllByTestId("diff-hunk").map((hunk) => hunk.dataset.state)).toEqual(["applied", "rejected"]);
    // The answer says what was chosen; the diff is the card's, shown once.
    expect(screen.getByTestId("approval-decision").textContent).toBe("Applied 1 of 2 changes");
    expect(screen.queryByTestId("approval-diff")).toBeNull();
  });

  it("marks no hunk for a whole edit, nor for one taken edit by edit, and says which edits were written", () => {
    const whole = fileEditView({ path: "src/a.rs", change: { kind: "modify" }, diff: TWO_HUNKS });
    const { unmount } = render(<ToolCard tool={{ ...PATCH_CALL, status: "ok", output: "", view: whole }} />);
    unfold(card());
    expect(screen.getAllByTestId("diff-hunk")).toHaveLength(2);
    expect(screen.queryByTestId("hunk-state")).toBeNull();
    expect(screen.queryByTestId("tool-partial-edits")).toBeNull();
    unmount();

    const byEdit = fileEditView({ path: "src/a.rs", change: { kind: "modify" }, diff: TWO_HUNKS, applied_edits: [0, 2] });
    render(<ToolCard tool={{ ...PATCH_CALL, status: "ok", output: "", view: byEdit }} />);
    unfold(card());
    // Either hunk may hold a taken edit and a refused one: "Applied" would be a guess.
    expect(screen.queryByTestId("hunk-state")).toBeNull();
    expect(screen.getByTestId("tool-partial-edits").textContent).toBe("src/a.rs: edits 1, 3 written");
  });

  it("shows a diff per file, naming new, moved and deleted files", () => {
    const view = fileEditView(
      { path: "a.py", change: { kind: "modify" }, diff: { path: "a.py", unified: "", hunks: [{ index: 0, header: "@@ -1 +1 @@", text: "-    return 1\n+    return 2\n" }] } },
      { path: "b.py", change: { kind: "add" }, diff: { path: "b.py", unified: "", hunks: [{ index: 0, header: "@@ -0,0 +1 @@", text: "+x = 1\n" }] } },
      { path: "c.py", change: { kind: "delete" } },
    );
    render(<ToolCard tool={{ ...PATCH_CALL, view }} />);
    expect(card().querySelector(".tool__args")?.textContent).toBe("a.py +2 more");
    expect(card().querySelector(".diff__stats")?.textContent).toBe("+2−1");
    unfold(card());
    expect(screen.getAllByTestId("diff").map((diff) => diff.querySelector(".diff__path")?.textContent)).toEqual(["a.py", "b.py"]);
    expect(screen.getAllByTestId("diff")[1]?.textContent).toContain("new file");
    const removed = card().querySelector(".tool__no-diff");
    expect(removed?.textContent).toBe("c.pydeletedThe file is removed.");
    // Still running: no result yet, and no "waiting" line either.
    expect(screen.queryByTestId("tool-output")).toBeNull();
  });

  it("names a move from → to", () => {
    render(<ToolCard tool={{ ...PATCH_CALL, view: fileEditView({ path: "src/new.rs", change: { kind: "move", from: "src/old.rs" } }) }} />);
    expect(card().querySelector(".tool__args")?.textContent).toBe("src/old.rs → src/new.rs");
    unfold(card());
    expect(card().querySelector(".tool__file-kind--move")?.getAttribute("title")).toBe("moved from src/old.rs");
  });

  it("shows a failed edit's error", () => {
    render(<ToolCard tool={{ ...PATCH_CALL, status: "error", errorKind: "execution_failed", output: "src/a.rs changed since it was read" }} />);
    expect(screen.getByTestId("tool-status").textContent).toBe("execution failed");
    expect(card().className).toContain("tool--error");
    expect(card().querySelector(".tool__label")?.textContent).toBe("Error");
    expect(screen.getByTestId("tool-output").textContent).toBe("src/a.rs changed since it was read");
  });
});

describe("ToolCard for a read, a search and other calls", () => {
  it("says what a read returned beside its file and lines", () => {
    const view = readView("src/lib.rs", { start_line: 1, end_line: 40, total_lines: 300 });
    render(<ToolCard tool={toolItem({ name: "read_file", status: "ok", output: "1\tfn main() {}", view })} />);
    expect(card().dataset.view).toBe("read");
    expect(card().querySelector(".tool__name")?.textContent).toBe("read_file");
    expect(card().querySelector(".tool__args")?.textContent).toBe("src/lib.rs:1–40");
    expect(screen.getByTestId("tool-status").textContent).toBe("40 lines of 300");
  });

  it("keeps the error status of a failed read", () => {
    const view = readView("missing.rs");
    render(<ToolCard tool={toolItem({ name: "read_file", status: "error", errorKind: "execution_failed", output: "no such file", view })} />);
    expect(screen.getByTestId("tool-status").textContent).toBe("execution failed");
    expect(card().className).toContain("tool--error");
  });

  it("lists a search's first matches and counts them all", () => {
    const view: ToolView = {
      type: "search",
      pattern: "TODO",
      scope: "src",
      matches: 14,
      first: [{ path: "src/a.rs", line: 3 }, { path: "src/b.rs" }],
      truncated: true,
    };
    render(<ToolCard tool={toolItem({ name: "grep_files", status: "ok", output: "…", view })} />);
    expect(card().querySelector(".tool__args")?.textContent).toBe("TODO in src");
    expect(screen.getByTestId("tool-status").textContent).toBe("14 matches (more not shown)");
    expect([...screen.getByTestId("search-matches").querySelectorAll("li")].map((li) => li.textContent)).toEqual([
      "src/a.rs:3",
      "src/b.rs",
    ]);
  });

  it("shows another tool under the name its view gives, with its arguments", () => {
    const view: ToolView = { type: "other", name: "lookup", arguments: '{\n  "query": "where is main"\n}' };
    render(<ToolCard tool={toolItem({ name: "lookup", status: "ok", output: "in src/main.rs", view })} />);
    expect(card().dataset.view).toBe("other");
    expect(card().querySelector(".tool__args")?.textContent).toBe("where is main");
    expect(card().textContent).toContain('"query": "where is main"');
    expect(screen.getByTestId("tool-output").textContent).toBe("in src/main.rs");
    expect(screen.getByTestId("tool-status").textContent).toBe("ok");
  });
});

describe("ToolCard for another tool that changed files", () => {
  it("lists the changed files with their counts, each unfolding to its diff", () => {
    const created: FileChange = { ...FILE_CHANGE, path: "bin/data.bin", kind: "created", binary: true, added: 0, removed: 0 };
    delete created.diff;
    const exec = toolItem({
      name: "exec_command",
      status: "ok",
      output: "",
      view: commandView({ command: "sed -i s/old/new/ src/a.rs", state: { state: "exited", code: 0 }, duration_ms: 100 }),
      changes: [FILE_CHANGE, created],
    });
    render(<ToolCard tool={exec} />);
    const changes = screen.getByTestId("tool-changes");
    expect(changes.querySelector(".tool__label")?.textContent).toBe("Changed 2 files");
    const [edited, binary] = screen.getAllByTestId("changed-file");
    expect(edited?.textContent).toBe("src/a.rs+2−1");
    expect(binary?.textContent).toBe("bin/data.binnew file");
    expect(screen.queryByTestId("diff")).toBeNull();
    // Folded, the card still says it changed files.
    const totals = screen.getByTestId("tool-change-totals");
    expect(totals.textContent).toBe("+2−1");
    expect(totals.getAttribute("title")).toBe("Changed 2 files");

    unfold(edited as Element);
    expect(within(edited as HTMLElement).getByTestId("diff")).toBeTruthy();
    unfold(binary as Element);
    expect(binary?.textContent).toContain("Binary file: no text diff.");
  });
});

describe("ToolCard with repaired arguments", () => {
  const REPAIRS = ['set mode to "indentation", which the indentation options need', "dropped the unknown argument encoding"];

  it("hints at the repair when folded and lists the repairs in the body", () => {
    const read = toolItem({ name: "read_file", status: "ok", output: "1\tdef f():", repairs: REPAIRS, view: readView("a.py") });
    render(<ToolCard tool={read} />);
    const mark = screen.getByTestId("tool-repaired");
    expect(mark.textContent).toBe("repaired");
    expect(mark.getAttribute("title")).toBe(`Arguments repaired: ${REPAIRS.join("; ")}`);
    const note = screen.getByTestId("tool-repairs");
    expect(note.querySelector("h4")?.textContent).toBe("Arguments repaired");
    expect([...note.querySelectorAll("li")].map((li) => li.textContent)).toEqual(REPAIRS);
  });

  it("shows the note on command and edit cards too", () => {
    const exec = toolItem({ name: "exec_command", view: commandView({ command: "ls" }), repairs: ['converted yield_time_ms from the string "100" to 100'] });
    const { unmount } = render(<ToolCard tool={exec} />);
    expect(screen.getByTestId("tool-repaired")).toBeTruthy();
    expect(screen.getByTestId("tool-repairs").textContent).toContain("yield_time_ms");
    unmount();

    render(<ToolCard tool={{ ...PATCH_CALL, repairs: ['changed file_path from "./src/a.rs" to "src/a.rs"'] }} />);
    expect(screen.getByTestId("tool-repaired")).toBeTruthy();
    unfold(card());
    expect(screen.getByTestId("tool-repairs").textContent).toContain("./src/a.rs");
  });

  it("says nothing when nothing was repaired", () => {
    render(<ToolCard tool={{ ...MCP_CALL, repairs: [] }} />);
    expect(screen.queryByTestId("tool-repaired")).toBeNull();
    expect(screen.queryByTestId("tool-repairs")).toBeNull();
  });
});

describe("ToolCard with a long output cut to its start", () => {
  const HEADER = "[header for the model]\n";
  const PRINTED = "line\n".repeat(3000);
  const WHOLE = HEADER + PRINTED;
  const CUT = toolItem({
    name: "exec_command",
    status: "ok",
    output: HEADER + "line\nline\n",
    fullLength: WHOLE.length,
    outputSeq: 42,
    view: commandView({
      command: "seq 3000",
      state: { state: "exited", code: 0 },
      duration_ms: 200,
      output: { start: HEADER.length, end: WHOLE.length },
    }),
  });

  it("reads the whole output only when opened, and shows its printed part instead of the start", async () => {
    const asked: number[] = [];
    const read = (seq: number) => {
      asked.push(seq);
      return Promise.resolve(WHOLE);
    };
    const { container } = render(
      <ReadOutputContext.Provider value={read}>
        <ToolCard tool={CUT} />
      </ReadOutputContext.Provider>,
    );
    // Folded: the exit code is the view's; nothing is read.
    expect(screen.getByTestId("tool-status").textContent).toBe("exit 0 · 200 ms");
    expect(asked).toEqual([]);
    unfold(container.querySelector("details")!);
    expect(asked).toEqual([42]);
    expect(screen.getByTestId("tool-output").textContent).toBe("line\nline\n");
    expect(screen.getByTestId("tool-output-partial").textContent).toMatch(/Reading the whole output \(15 KB\)/);
    await act(() => Promise.resolve());
    expect(screen.getByTestId("tool-output").textContent).toBe(PRINTED);
    expect(screen.queryByTestId("tool-output-partial")).toBeNull();
  });

  it("says so when the whole cannot be read, and tries again on request", async () => {
    let fail = true;
    const read = () => (fail ? Promise.reject({ code: "not_found", message: "session s has no event 42" }) : Promise.resolve(WHOLE));
    const { container } = render(
      <ReadOutputContext.Provider value={read}>
        <ToolCard tool={CUT} />
      </ReadOutputContext.Provider>,
    );
    unfold(container.querySelector("details")!);
    await act(() => Promise.resolve());
    const note = screen.getByTestId("tool-output-partial");
    expect(note.textContent).toMatch(/could not be read: session s has no event 42/);
    expect(screen.getByTestId("tool-output").textContent).toBe("line\nline\n");
    fail = false;
    act(() => within(note).getByRole("button", { name: "Try again" }).click());
    await act(() => Promise.resolve());
    expect(screen.getByTestId("tool-output").textContent).toBe(PRINTED);
  });

  it("without a store to read from, says how much is left out", () => {
    const { container } = render(<ToolCard tool={{ ...CUT, name: "read_file", view: readView("big.log") }} />);
    unfold(container.querySelector("details")!);
    expect(screen.getByTestId("tool-output-partial").textContent).toBe("The start of 15 KB of output.");
  });
});
