// @vitest-environment jsdom
import { act, cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import type { FileChange } from "../../../gen/protocol";
import type { ApprovalItem, ToolItem } from "../../../state/transcript";
import { formatProgress, ToolCard } from "./ToolCard";
import { ReadOutputContext } from "./wholeOutput";

afterEach(cleanup);

const RUNNING: ToolItem = {
  kind: "tool",
  key: "a",
  callId: "c1",
  name: "everything__trigger-long-running-operation",
  args: '{"duration":5}',
  status: "running",
  errorKind: null,
  output: null,
  provisional: false,
};

describe("ToolCard name", () => {
  it("names an MCP tool server · tool, the model's name in its tooltip", () => {
    render(<ToolCard tool={RUNNING} />);
    const name = screen.getByTestId("tool-card").querySelector(".tool__name")!;
    expect(name.textContent).toBe("everything · trigger-long-running-operation");
    expect(name.getAttribute("title")).toBe("called as everything__trigger-long-running-operation");
  });
});

describe("ToolCard progress", () => {
  it("shows a running call's progress and hides it once the call ends", () => {
    const withProgress = { ...RUNNING, progress: { progress: 2, total: 5, message: "step 2" } };
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

describe("ToolCard live output", () => {
  const EXEC: ToolItem = { ...RUNNING, name: "exec_command", args: '{"cmd":"cargo build"}' };

  it("unfolds to show what a running command prints, then folds on its result", () => {
    const { rerender, container } = render(<ToolCard tool={EXEC} />);
    const details = () => container.querySelector("details");
    expect(details()?.open).toBe(false);
    expect(screen.queryByTestId("tool-live-output")).toBeNull();

    rerender(<ToolCard tool={{ ...EXEC, liveOutput: "Compiling a\nCompiling b\n" }} />);
    expect(details()?.open).toBe(true);
    expect(screen.getByTestId("tool-live-output").textContent).toBe("Compiling a\nCompiling b\n");
    expect(screen.queryByText("Waiting for the result…")).toBeNull();

    rerender(<ToolCard tool={{ ...EXEC, liveOutput: "Compiling a\n", status: "ok", output: "Finished" }} />);
    expect(details()?.open).toBe(false);
    expect(screen.queryByTestId("tool-live-output")).toBeNull();
    expect(screen.getByTestId("tool-output").textContent).toBe("Finished");
  });
});

describe("ToolCard for a shell command", () => {
  const EXEC: ToolItem = { ...RUNNING, name: "exec_command", args: '{"cmd":"cargo test","yield_time_ms":10000}' };

  it("shows the command once, what it printed, its exit code and duration", () => {
    const output =
      "Chunk ID: 9c1d\nWall time: 2.5000 seconds\nProcess exited with code 101\nOriginal token count: 3\nOutput:\ntest failed\n";
    render(<ToolCard tool={{ ...EXEC, status: "ok", output }} />);
    expect(screen.getByTestId("tool-command").textContent).toBe("$cargo test");
    expect(screen.getByTestId("tool-status").textContent).toBe("exit 101 · 2.5 s");
    expect(screen.getByTestId("tool-output").textContent).toBe("test failed\n");
    expect(screen.queryByText(/Chunk ID|Original token count/)).toBeNull();
    expect(screen.queryByText("Arguments")).toBeNull();
    expect(screen.getByTestId("tool-card").className).toContain("tool--error");
  });

  it("keeps an engine error (a denied command) as it is", () => {
    render(<ToolCard tool={{ ...EXEC, status: "error", errorKind: "approval_denied", output: "the user denied this command" }} />);
    expect(screen.getByTestId("tool-status").textContent).toBe("approval denied");
    expect(screen.getByTestId("tool-output").textContent).toBe("the user denied this command");
  });
});

/** Opens a folded card or file the way a click on its summary does. */
function unfold(details: Element) {
  act(() => {
    (details as HTMLDetailsElement).open = true;
    details.dispatchEvent(new Event("toggle"));
  });
}

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

const PATCH_CALL: ToolItem = {
  ...RUNNING,
  name: "apply_patch",
  args: JSON.stringify({ file_path: "src/a.rs", old_string: "old\n", new_string: "new\nmore\n" }),
};

function approvalFor(callId: string, decision: ApprovalItem["decision"]): ApprovalItem {
  return {
    kind: "approval",
    key: "ap",
    decision,
    request: {
      request_id: "r1",
      call_id: callId,
      tool_name: "apply_patch",
      risk: "write",
      reason: "edit",
      fingerprint: "write:/repo/src/a.rs",
      arguments: {},
      diff: {
        path: "src/a.rs",
        unified: "",
        hunks: [
          { index: 0, header: "@@ -1 +1 @@", text: "-a\n+b\n" },
          { index: 1, header: "@@ -9 +9 @@", text: "-c\n+d\n" },
        ],
      },
    },
  };
}

describe("ToolCard waiting for an approval", () => {
  it("says it waits for approval, not that it runs, until the approval is answered", () => {
    const exec: ToolItem = { ...RUNNING, name: "exec_command", args: '{"cmd":"rm -rf build"}' };
    const { rerender } = render(<ToolCard tool={exec} approval={approvalFor("c1", null)} />);
    expect(screen.getByTestId("tool-status").textContent).toBe("waiting for approval");
    expect(screen.getByTestId("tool-card").className).toContain("tool--waiting");
    expect(screen.getByTestId("tool-card").getAttribute("data-status")).toBe("running");

    rerender(<ToolCard tool={exec} approval={approvalFor("c1", { type: "approve_once" })} />);
    expect(screen.getByTestId("tool-status").textContent).toBe("running");

    rerender(<ToolCard tool={PATCH_CALL} approval={approvalFor("c1", null)} />);
    expect(screen.getByTestId("tool-status").textContent).toBe("waiting for approval");
  });
});

describe("ToolCard for a file tool", () => {
  it("shows the change on disk as a diff, with the arguments folded away", () => {
    render(<ToolCard tool={{ ...PATCH_CALL, status: "ok", output: "Edited src/a.rs", changes: [FILE_CHANGE] }} />);
    const card = screen.getByTestId("tool-card");
    expect(card.querySelector(".tool__args")?.textContent).toBe("src/a.rs");
    expect(card.querySelector(".diff__stats")?.textContent).toBe("+2−1");
    // Nothing is built while folded.
    expect(screen.queryByTestId("diff")).toBeNull();

    unfold(card);
    const lines = within(screen.getByTestId("diff")).getAllByTestId("diff-line");
    expect(lines.map((line) => line.querySelector(".diff__num--new")?.textContent)).toEqual(["3", "", "4", "5"]);
    expect(screen.getByTestId("tool-output").textContent).toBe("Edited src/a.rs");
    const args = screen.getByTestId("tool-arguments");
    expect(args.tagName).toBe("DETAILS");
    expect((args as HTMLDetailsElement).open).toBe(false);
    expect(args.textContent).toContain('"old_string": "old\\n"');
  });

  it("falls back to the approval's diff, marking the hunks a partial approval left out", () => {
    render(<ToolCard tool={PATCH_CALL} approval={approvalFor("c1", { type: "approve_once", accepted_hunks: [0] })} />);
    unfold(screen.getByTestId("tool-card"));
    expect(screen.getAllByTestId("hunk-state").map((state) => state.textContent)).toEqual(["Applied", "Not applied"]);
  });

  it("marks no hunk of the approval's diff after a choice made edit by edit", () => {
    render(<ToolCard tool={PATCH_CALL} approval={approvalFor("c1", { type: "approve_once", accepted_edits: [1] })} />);
    unfold(screen.getByTestId("tool-card"));
    // Either hunk may hold a taken edit and a refused one: "Applied" would be a guess.
    expect(screen.getAllByTestId("diff-hunk")).toHaveLength(2);
    expect(screen.queryByTestId("hunk-state")).toBeNull();
  });

  it("falls back to a diff built from the arguments", () => {
    const write: ToolItem = { ...RUNNING, name: "write_file", args: JSON.stringify({ file_path: "n.txt", content: "a\nb\n" }) };
    render(<ToolCard tool={write} />);
    const card = screen.getByTestId("tool-card");
    expect(card.querySelector(".diff__stats")?.textContent).toBe("+2−0");
    unfold(card);
    const lines = screen.getAllByTestId("diff-line");
    expect(lines.map((line) => [line.getAttribute("data-kind"), line.querySelector(".diff__code")?.textContent])).toEqual([
      ["add", "a"],
      ["add", "b"],
    ]);
    expect(screen.getByText("Waiting for the result…")).toBeTruthy();
  });

  it("shows a Begin Patch as a diff per file", () => {
    const patch = "*** Begin Patch\n*** Update File: a.py\n@@ def f():\n-    return 1\n+    return 2\n*** Add File: b.py\n+x = 1\n*** End Patch";
    render(<ToolCard tool={{ ...RUNNING, name: "apply_patch", args: JSON.stringify({ input: patch }) }} />);
    const card = screen.getByTestId("tool-card");
    expect(card.querySelector(".tool__args")?.textContent).toBe("a.py +1 more");
    unfold(card);
    expect(screen.getAllByTestId("diff").map((diff) => diff.querySelector(".diff__path")?.textContent)).toEqual([
      "a.py",
      "b.py",
    ]);
  });

  it("names the file while the arguments still stream in", () => {
    render(<ToolCard tool={{ ...RUNNING, name: "write_file", args: '{"file_path":"src/new.ts","content":"expo' }} />);
    const card = screen.getByTestId("tool-card");
    expect(card.querySelector(".tool__args")?.textContent).toBe("src/new.ts");
    unfold(card);
    expect(screen.queryByTestId("diff")).toBeNull();
    expect(card.querySelector(".tool__pre")?.textContent).toContain("expo");
  });
});

describe("ToolCard for another tool that changed files", () => {
  it("lists the changed files with their counts, each unfolding to its diff", () => {
    const created: FileChange = { ...FILE_CHANGE, path: "bin/data.bin", kind: "created", binary: true, added: 0, removed: 0 };
    delete created.diff;
    const exec: ToolItem = {
      ...RUNNING,
      name: "exec_command",
      args: '{"cmd":"sed -i s/old/new/ src/a.rs"}',
      status: "ok",
      output: "Wall time: 0.1 seconds\nProcess exited with code 0\nOutput:\n",
      changes: [FILE_CHANGE, created],
    };
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
    const read: ToolItem = {
      ...RUNNING,
      name: "read_file",
      args: '{"file_path":"a.py","indentation":{"anchor_line":2}}',
      status: "ok",
      output: "1\tdef f():",
      repairs: REPAIRS,
    };
    render(<ToolCard tool={read} />);
    const mark = screen.getByTestId("tool-repaired");
    expect(mark.textContent).toBe("repaired");
    expect(mark.getAttribute("title")).toBe(`Arguments repaired: ${REPAIRS.join("; ")}`);
    const note = screen.getByTestId("tool-repairs");
    expect(note.querySelector("h4")?.textContent).toBe("Arguments repaired");
    expect([...note.querySelectorAll("li")].map((li) => li.textContent)).toEqual(REPAIRS);
  });

  it("shows the note on command and file cards too", () => {
    const exec: ToolItem = {
      ...RUNNING,
      name: "exec_command",
      args: '{"cmd":"ls"}',
      repairs: ['converted yield_time_ms from the string "100" to 100'],
    };
    const { unmount } = render(<ToolCard tool={exec} />);
    expect(screen.getByTestId("tool-repaired")).toBeTruthy();
    expect(screen.getByTestId("tool-repairs").textContent).toContain("yield_time_ms");
    unmount();

    render(<ToolCard tool={{ ...PATCH_CALL, repairs: ['changed file_path from "./src/a.rs" to "src/a.rs"'] }} />);
    expect(screen.getByTestId("tool-repaired")).toBeTruthy();
    unfold(screen.getByTestId("tool-card"));
    expect(screen.getByTestId("tool-repairs").textContent).toContain("./src/a.rs");
  });

  it("says nothing when nothing was repaired", () => {
    render(<ToolCard tool={{ ...RUNNING, repairs: [] }} />);
    expect(screen.queryByTestId("tool-repaired")).toBeNull();
    expect(screen.queryByTestId("tool-repairs")).toBeNull();
  });
});

describe("ToolCard with a long output cut to its start", () => {
  const HEADER = "Wall time: 0.2 seconds\nProcess exited with code 0\nOutput:\n";
  const WHOLE = HEADER + "line\n".repeat(3000);
  const CUT: ToolItem = {
    ...RUNNING,
    name: "exec_command",
    args: '{"cmd":"seq 3000"}',
    status: "ok",
    output: HEADER + "line\nline\n",
    fullLength: WHOLE.length,
    outputSeq: 42,
  };

  function open(container: HTMLElement) {
    const details = container.querySelector("details") as HTMLDetailsElement;
    act(() => {
      details.open = true;
      details.dispatchEvent(new Event("toggle"));
    });
  }

  it("reads the whole output only when opened, and shows it instead of the start", async () => {
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
    // Folded: the exit code comes from the start; nothing is read.
    expect(screen.getByTestId("tool-status").textContent).toBe("exit 0 · 200 ms");
    expect(asked).toEqual([]);
    open(container);
    expect(asked).toEqual([42]);
    expect(screen.getByTestId("tool-output-partial").textContent).toMatch(/Reading the whole output \(15 KB\)/);
    await act(() => Promise.resolve());
    expect(screen.getByTestId("tool-output").textContent).toBe("line\n".repeat(3000));
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
    open(container);
    await act(() => Promise.resolve());
    const note = screen.getByTestId("tool-output-partial");
    expect(note.textContent).toMatch(/could not be read: session s has no event 42/);
    expect(screen.getByTestId("tool-output").textContent).toBe("line\nline\n");
    fail = false;
    act(() => within(note).getByRole("button", { name: "Try again" }).click());
    await act(() => Promise.resolve());
    expect(screen.getByTestId("tool-output").textContent).toBe("line\n".repeat(3000));
  });

  it("without a store to read from, says how much is left out", () => {
    const { container } = render(<ToolCard tool={{ ...CUT, name: "read_file", args: '{"path":"big.log"}' }} />);
    open(container);
    expect(screen.getByTestId("tool-output-partial").textContent).toBe("The start of 15 KB of output.");
  });
});
