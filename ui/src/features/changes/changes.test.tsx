// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { escapeLayers } from "../../components/escapeStack";
import type { ChangesReport, FileChange, RestoreReport, RevertResult } from "../../gen/protocol";
import { setUpI18n } from "../../i18n";
import { ChangesPanel, sourceLabel, UNDO_TOAST_MS } from "./ChangesPanel";
import { commentsMessage } from "./comments";
import { RestoreDialog } from "./RestoreDialog";

// The Rust side, played by the test.
const { ipc } = vi.hoisted(() => ({
  ipc: {
    sessionChanges: vi.fn(),
    revertChange: vi.fn(),
    undoRevert: vi.fn(),
    keepChange: vi.fn(),
    markReviewed: vi.fn(),
    gitStatus: vi.fn(),
    previewRestore: vi.fn(),
    restoreSession: vi.fn(),
    undoRestore: vi.fn(),
  },
}));
vi.mock("../../ipc", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../ipc")>()),
  ipc,
}));

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});
beforeEach(() => {
  Object.values(ipc).forEach((f) => f.mockReset());
  // The commit area under a git list reads the status; these tests leave it empty.
  ipc.gitStatus.mockResolvedValue({ branch: "main", head: "abc1234", ahead: 0, behind: 0, files: [], remotes: [], identity: true });
});

const TWO_HUNKS = "--- a/src/a.rs\n+++ b/src/a.rs\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n@@ -9,3 +9,3 @@\n nine\n-ten\n+TEN\n eleven\n";

function file(path: string, overrides: Partial<FileChange> = {}): FileChange {
  return {
    path,
    kind: "modified",
    sources: ["apply_patch"],
    restorable: true,
    binary: false,
    added: 2,
    removed: 2,
    diff: {
      path,
      unified: TWO_HUNKS,
      hunks: [
        { index: 0, header: "@@ -1,3 +1,3 @@", text: " one\n-two\n+TWO\n three\n" },
        { index: 1, header: "@@ -9,3 +9,3 @@", text: " nine\n-ten\n+TEN\n eleven\n" },
      ],
    },
    ...overrides,
  };
}

function report(files: FileChange[], overrides: Partial<ChangesReport> = {}): ChangesReport {
  return { scope: "session", files, git: true, ...overrides };
}

/** What a revert that wrote answers: the list afresh and the checkpoint that undoes it. */
function reverted(files: FileChange[], undo_checkpoint = 5): RevertResult {
  return { changes: report(files), undo_checkpoint };
}

function panel(props: Partial<Parameters<typeof ChangesPanel>[0]> = {}) {
  const onSendComments = vi.fn();
  const onClose = vi.fn();
  render(
    <ChangesPanel sessionId="s1" refreshKey={0} busy={false} onSendComments={onSendComments} onClose={onClose} {...props} />,
  );
  return { onSendComments, onClose };
}

describe("ChangesPanel", () => {
  it("lists every changed file with what made it, and asks again per scope", async () => {
    ipc.sessionChanges.mockResolvedValue(
      report([file("src/a.rs"), file("notes.txt", { kind: "created", sources: ["exec_command"], added: 1, removed: 0 })]),
    );
    panel();
    const rows = await screen.findAllByTestId("changed-file");
    expect(rows.map((r) => r.dataset.path)).toEqual(["src/a.rs", "notes.txt"]);
    // A tool is named as the engine names it (no table of Memo's own tools here).
    expect(within(rows[1]!).getByText("exec_command")).toBeTruthy();
    expect(within(rows[1]!).getByTestId("revert-file").textContent).toBe("Delete");
    expect(ipc.sessionChanges).toHaveBeenLastCalledWith({ sessionId: "s1", scope: "session" });
    fireEvent.click(screen.getByTestId("changes-scope-uncommitted"));
    await waitFor(() => expect(ipc.sessionChanges).toHaveBeenLastCalledWith({ sessionId: "s1", scope: "uncommitted" }));
  });

  it("reverts one hunk with the diff it showed, and shows a refusal", async () => {
    ipc.sessionChanges.mockResolvedValue(report([file("src/a.rs")]));
    ipc.revertChange.mockResolvedValueOnce(reverted([]));
    panel();
    fireEvent.click((await screen.findAllByTestId("changed-file"))[0]!.querySelector(".changes__toggle")!);
    const hunks = await screen.findAllByTestId("changes-hunk");
    expect(hunks).toHaveLength(2);
    fireEvent.click(within(hunks[1]!).getByTestId("revert-hunk"));
    await waitFor(() =>
      expect(ipc.revertChange).toHaveBeenCalledWith({
        sessionId: "s1",
        request: { scope: "session", path: "src/a.rs", shown_diff: TWO_HUNKS, hunks: [1] },
      }),
    );
    await waitFor(() => expect(screen.queryAllByTestId("changed-file")).toHaveLength(0));

    ipc.sessionChanges.mockResolvedValue(report([file("src/a.rs")]));
    ipc.revertChange.mockRejectedValueOnce({ code: "conflict", message: "src/a.rs changed since its diff was shown" });
    fireEvent.click(screen.getByTestId("changes-scope-last_turn"));
    fireEvent.click((await screen.findAllByTestId("revert-file"))[0]!);
    expect((await screen.findByTestId("revert-error")).textContent).toContain("changed since its diff was shown");
  });

  it("keeps a hunk by staging it with the diff it showed, and unstages it again", async () => {
    ipc.sessionChanges.mockResolvedValue(report([file("src/a.rs")]));
    ipc.keepChange
      .mockResolvedValueOnce(report([file("src/a.rs", { kept: [1] })]))
      .mockResolvedValueOnce(report([file("src/a.rs", { kept: [] })]));
    panel();
    fireEvent.click((await screen.findAllByTestId("changed-file"))[0]!.querySelector(".changes__toggle")!);
    let hunks = await screen.findAllByTestId("changes-hunk");
    expect(within(hunks[1]!).queryByTestId("hunk-state")).toBeNull();
    fireEvent.click(within(hunks[1]!).getByTestId("keep-hunk"));
    await waitFor(() => expect(within(screen.getAllByTestId("changes-hunk")[1]!).getByTestId("hunk-state").textContent).toBe("Staged"));
    expect(ipc.keepChange).toHaveBeenCalledWith({
      sessionId: "s1",
      request: { scope: "session", path: "src/a.rs", hunks: [1], shown_diff: TWO_HUNKS },
    });
    expect(ipc.revertChange).not.toHaveBeenCalled();
    hunks = screen.getAllByTestId("changes-hunk");
    // The other hunk is not kept: its Keep is still there.
    expect(within(hunks[0]!).queryByTestId("hunk-state")).toBeNull();
    expect(within(hunks[0]!).getByTestId("keep-hunk")).toBeTruthy();
    expect(within(hunks[1]!).queryByTestId("keep-hunk")).toBeNull();
    const unstage = within(hunks[1]!).getByTestId("unkeep-hunk");
    expect(unstage.textContent).toBe("Unstage");
    fireEvent.click(unstage);
    await waitFor(() => expect(within(screen.getAllByTestId("changes-hunk")[1]!).queryByTestId("hunk-state")).toBeNull());
    expect(ipc.keepChange).toHaveBeenLastCalledWith({
      sessionId: "s1",
      request: { scope: "session", path: "src/a.rs", hunks: [1], shown_diff: TWO_HUNKS, undo: true },
    });
  });

  it("a hunk git already has at HEAD reads Committed and offers neither Keep nor Unstage", async () => {
    ipc.sessionChanges.mockResolvedValue(report([file("src/a.rs", { committed: [0], kept: [1] })]));
    panel();
    fireEvent.click((await screen.findAllByTestId("changed-file"))[0]!.querySelector(".changes__toggle")!);
    const hunks = await screen.findAllByTestId("changes-hunk");
    expect(within(hunks[0]!).getByTestId("hunk-state").textContent).toBe("Committed");
    expect(within(hunks[0]!).queryByTestId("keep-hunk")).toBeNull();
    expect(within(hunks[0]!).queryByTestId("unkeep-hunk")).toBeNull();
    expect(within(hunks[1]!).getByTestId("hunk-state").textContent).toBe("Staged");
    expect(within(hunks[1]!).getByTestId("unkeep-hunk")).toBeTruthy();
  });

  it("outside git a kept hunk reads Kept, with Unkeep; a refused keep says why", async () => {
    ipc.sessionChanges.mockResolvedValue(report([file("src/a.rs", { kept: [0] })], { git: false }));
    ipc.keepChange.mockRejectedValueOnce({
      code: "conflict",
      message: "changed",
      phrase: { code: "git_changed_since_shown", path: "src/a.rs" },
    });
    panel();
    fireEvent.click((await screen.findAllByTestId("changed-file"))[0]!.querySelector(".changes__toggle")!);
    const hunks = await screen.findAllByTestId("changes-hunk");
    expect(within(hunks[0]!).getByTestId("hunk-state").textContent).toBe("Kept");
    expect(within(hunks[0]!).getByTestId("unkeep-hunk").textContent).toBe("Unkeep");
    // No git, no commit area.
    expect(screen.queryByTestId("commit-box")).toBeNull();
    expect(ipc.gitStatus).not.toHaveBeenCalled();
    fireEvent.click(within(hunks[1]!).getByTestId("keep-hunk"));
    expect((await screen.findByTestId("keep-error")).textContent).toBe("src/a.rs changed since it was shown; look at it again and retry");
  });

  it("marks a file reviewed with the diff it showed: a chip says so, and the file folds", async () => {
    ipc.sessionChanges.mockResolvedValue(report([file("src/a.rs"), file("src/b.rs")]));
    ipc.markReviewed
      .mockResolvedValueOnce(report([file("src/a.rs", { reviewed: true }), file("src/b.rs")]))
      .mockResolvedValueOnce(report([file("src/a.rs"), file("src/b.rs")]));
    panel();
    const row = (await screen.findAllByTestId("changed-file"))[0]!;
    fireEvent.click(row.querySelector(".changes__toggle")!);
    expect(within(row).getByTestId("changes-diff")).toBeTruthy();
    const toggle = within(row).getByTestId("mark-reviewed");
    expect(toggle.getAttribute("aria-pressed")).toBe("false");
    expect(within(row).queryByTestId("reviewed-chip")).toBeNull();
    fireEvent.click(toggle);
    await waitFor(() => expect(within(row).getByTestId("reviewed-chip").textContent).toBe("Reviewed"));
    expect(ipc.markReviewed).toHaveBeenCalledWith({
      sessionId: "s1",
      request: { scope: "session", path: "src/a.rs", shown_diff: TWO_HUNKS, reviewed: true },
    });
    expect(within(row).getByTestId("mark-reviewed").getAttribute("aria-pressed")).toBe("true");
    expect(within(row).queryByTestId("changes-diff")).toBeNull();
    // The other file is not marked.
    expect(within(screen.getAllByTestId("changed-file")[1]!).queryByTestId("reviewed-chip")).toBeNull();
    fireEvent.click(within(row).getByTestId("mark-reviewed"));
    await waitFor(() => expect(within(row).queryByTestId("reviewed-chip")).toBeNull());
    expect(ipc.markReviewed).toHaveBeenLastCalledWith({
      sessionId: "s1",
      request: { scope: "session", path: "src/a.rs", shown_diff: TWO_HUNKS, reviewed: false },
    });
  });

  it("a file too large to keep cannot be reverted and says why", async () => {
    const { diff: _none, ...big } = file("big.bin", { restorable: false, binary: true });
    ipc.sessionChanges.mockResolvedValue(report([big]));
    panel();
    const row = (await screen.findAllByTestId("changed-file"))[0]!;
    expect((within(row).getByTestId("revert-file") as HTMLButtonElement).disabled).toBe(true);
    expect(within(row).getByText("not restorable")).toBeTruthy();
  });

  it("collects line comments and sends them as one message", async () => {
    ipc.sessionChanges.mockResolvedValue(report([file("src/a.rs")]));
    const { onSendComments } = panel();
    fireEvent.click((await screen.findAllByTestId("changed-file"))[0]!.querySelector(".changes__toggle")!);
    const line = (await screen.findAllByTestId("diff-line")).find((l) => l.textContent?.includes("TWO"))!;
    fireEvent.click(line.querySelector("button")!);
    const form = await screen.findByTestId("comment-form");
    fireEvent.change(form.querySelector("textarea")!, { target: { value: "Keep this lowercase" } });
    fireEvent.click(within(form).getByText("Add comment"));
    fireEvent.click(await screen.findByTestId("send-comments"));
    expect(onSendComments).toHaveBeenCalledTimes(1);
    const text = onSendComments.mock.calls[0]![0] as string;
    expect(text).toContain("`src/a.rs` line 2: Keep this lowercase");
    expect(screen.queryByTestId("review-comments")).toBeNull();
  });

  it("leaves the comment box's keys to an input method while it composes: one Ctrl+Enter adds the comment after", async () => {
    ipc.sessionChanges.mockResolvedValue(report([file("src/a.rs")]));
    panel();
    fireEvent.click((await screen.findAllByTestId("changed-file"))[0]!.querySelector(".changes__toggle")!);
    const line = (await screen.findAllByTestId("diff-line")).find((l) => l.textContent?.includes("TWO"))!;
    fireEvent.click(line.querySelector("button")!);
    const box = (await screen.findByTestId("comment-form")).querySelector("textarea")!;
    fireEvent.change(box, { target: { value: "保持小写" } });
    // The Enter that picks the candidate, and the Esc that drops a composition, are the input method's.
    fireEvent.keyDown(box, { key: "Enter", ctrlKey: true, isComposing: true });
    fireEvent.keyDown(box, { key: "Enter", ctrlKey: true, keyCode: 229 });
    fireEvent.keyDown(box, { key: "Escape", isComposing: true });
    expect(screen.queryByTestId("review-comments")).toBeNull();
    expect(screen.getByTestId("comment-form")).toBeTruthy();
    fireEvent.keyDown(box, { key: "Enter", ctrlKey: true });
    expect((await screen.findByTestId("review-comments")).textContent).toContain("保持小写");
  });

  it("cuts a long folder from the left inside a left-to-right isolate, the full path in the tooltip", async () => {
    ipc.sessionChanges.mockResolvedValue(report([file("tmp/x/home/AGENTS.md")]));
    panel();
    const dir = within((await screen.findAllByTestId("changed-file"))[0]!).getByTestId("path-tail");
    // In a right-to-left box alone, the trailing slash is drawn at the start.
    const isolate = dir.querySelector("bdi");
    expect(isolate?.getAttribute("dir")).toBe("ltr");
    expect(isolate?.textContent).toBe("tmp/x/home/");
    expect(dir.title).toBe("tmp/x/home/AGENTS.md");
  });

  it("a git-less folder cannot pick the uncommitted scope", async () => {
    ipc.sessionChanges.mockResolvedValue(report([], { git: false }));
    panel();
    await waitFor(() => expect((screen.getByTestId("changes-scope-uncommitted") as HTMLButtonElement).disabled).toBe(true));
    // Why, in the tooltip and in a line under the tabs.
    expect(screen.getByTestId("changes-scope-uncommitted").title).toMatch(/not a git repository/);
    expect(screen.getByTestId("changes-scope-hint").textContent).toMatch(/not a git repository/);
  });
});

describe("ChangesPanel holding back a revert", () => {
  const HELD: RevertResult = {
    changes: report([file("a.txt")]),
    held_back: { path: "a.txt", lines: "9", message: "Reverting would also drop line 9, which changed after the agent's edit." },
  };

  it("says which lines would go, writes nothing, and reverts anyway only when asked", async () => {
    ipc.sessionChanges.mockResolvedValue(report([file("a.txt"), file("b.txt")]));
    ipc.revertChange.mockResolvedValueOnce(HELD).mockResolvedValueOnce(reverted([file("b.txt")]));
    panel();
    fireEvent.click((await screen.findAllByTestId("revert-file"))[0]!);
    const held = await screen.findByTestId("held-back");
    // At its file, in the engine's words.
    expect(held.closest("[data-testid=changed-file]")?.getAttribute("data-path")).toBe("a.txt");
    expect(held.textContent).toContain("drop line 9");
    // Cancel has the focus, so Enter does not revert by accident.
    expect(document.activeElement?.textContent).toBe("Cancel");
    // Nothing written, nothing to undo.
    expect(screen.queryByTestId("undo-toast")).toBeNull();

    fireEvent.click(within(held).getByTestId("revert-anyway"));
    await waitFor(() => expect(ipc.revertChange).toHaveBeenCalledTimes(2));
    expect(ipc.revertChange).toHaveBeenLastCalledWith({
      sessionId: "s1",
      request: { scope: "session", path: "a.txt", shown_diff: TWO_HUNKS, force: true },
    });
    await waitFor(() => expect(screen.queryByTestId("held-back")).toBeNull());
    expect(screen.getByTestId("undo-message").textContent).toBe("Reverted a.txt");
  });

  it("Cancel and Esc put the question away, Esc leaving the panel open", async () => {
    ipc.sessionChanges.mockResolvedValue(report([file("a.txt")]));
    ipc.revertChange.mockResolvedValue(HELD);
    const { onClose } = panel();
    fireEvent.click(await screen.findByTestId("revert-file"));
    await screen.findByTestId("held-back");
    const layers = escapeLayers();
    fireEvent.keyDown(window, { key: "Escape" });
    expect(screen.queryByTestId("held-back")).toBeNull();
    expect(escapeLayers()).toBe(layers - 1);
    expect(onClose).not.toHaveBeenCalled();
    // The focus goes back to the file's Revert, not to nowhere.
    expect(document.activeElement).toBe(screen.getByTestId("revert-file"));

    fireEvent.click(screen.getByTestId("revert-file"));
    fireEvent.click(within(await screen.findByTestId("held-back")).getByText("Cancel"));
    expect(screen.queryByTestId("held-back")).toBeNull();
    expect(ipc.revertChange).toHaveBeenCalledTimes(2);
    expect(ipc.revertChange.mock.calls.every(([args]) => !("force" in args.request))).toBe(true);
  });
});

describe("ChangesPanel's Undo", () => {
  async function revertA(files: FileChange[] = []) {
    ipc.sessionChanges.mockResolvedValue(report([file("a.txt")]));
    ipc.revertChange.mockResolvedValue(reverted(files, 5));
    const onReport = vi.fn<(report: ChangesReport) => void>();
    panel({ onReport });
    fireEvent.click(await screen.findByTestId("revert-file"));
    await screen.findByTestId("undo-toast");
    return { onReport };
  }

  it("is offered after each revert that wrote, and puts the file back", async () => {
    await revertA();
    expect(screen.getByTestId("undo-toast").textContent).toContain("Reverted a.txt");
    ipc.undoRevert.mockResolvedValue({ files: [{ path: "a.txt", action: "write" }] });
    const reads = ipc.sessionChanges.mock.calls.length;
    screen.getByTestId("undo-revert").focus();
    fireEvent.click(screen.getByTestId("undo-revert"));
    await waitFor(() => expect(screen.getByTestId("undo-message").textContent).toBe("a.txt is back as it was before the revert"));
    // Undo went with its phase; the keyboard's place stays in the toast. (Moved by an effect,
    // which may run just after the text shows: waited for, as the effects below.)
    await waitFor(() => expect(document.activeElement?.getAttribute("aria-label")).toBe("Dismiss"));
    expect(ipc.undoRevert).toHaveBeenCalledWith({ sessionId: "s1", checkpoint: 5, path: "a.txt", overwrite: false });
    // The list is read again: the file is back on it.
    await waitFor(() => expect(ipc.sessionChanges.mock.calls.length).toBe(reads + 1));
    expect(await screen.findAllByTestId("changed-file")).toHaveLength(1);
  });

  it("says when the file changed since, and overwrites it only on Undo anyway", async () => {
    await revertA();
    ipc.undoRevert
      .mockResolvedValueOnce({ files: [{ path: "a.txt", action: "conflict", detail: "changed after the revert" }] })
      .mockResolvedValueOnce({ files: [{ path: "a.txt", action: "write" }] });
    fireEvent.click(screen.getByTestId("undo-revert"));
    const toast = await screen.findByTestId("undo-toast");
    await waitFor(() => expect(toast.dataset.phase).toBe("conflict"));
    expect(toast.textContent).toContain("a.txt changed since the revert");
    expect(toast.textContent).toContain("changed after the revert");
    // The safe answer has the focus.
    await waitFor(() => expect(document.activeElement?.textContent).toBe("Keep it as it is"));
    fireEvent.click(within(toast).getByTestId("undo-anyway"));
    await waitFor(() => expect(screen.getByTestId("undo-message").textContent).toBe("a.txt is back as it was before the revert"));
    expect(ipc.undoRevert).toHaveBeenLastCalledWith({ sessionId: "s1", checkpoint: 5, path: "a.txt", overwrite: true });
  });

  it("keeps the file as it is when the conflict is answered with Esc", async () => {
    await revertA();
    ipc.undoRevert.mockResolvedValue({ files: [{ path: "a.txt", action: "conflict" }] });
    fireEvent.click(screen.getByTestId("undo-revert"));
    await waitFor(() => expect(screen.getByTestId("undo-toast").dataset.phase).toBe("conflict"));
    // The question owns Esc once its effect has run (it takes the focus then too).
    await waitFor(() => expect(document.activeElement?.textContent).toBe("Keep it as it is"));
    fireEvent.keyDown(window, { key: "Escape" });
    expect(screen.queryByTestId("undo-toast")).toBeNull();
    expect(ipc.undoRevert).toHaveBeenCalledTimes(1);
  });

  it("goes after a while, but not while the pointer is on it", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await revertA([file("a.txt")]);
    const toast = screen.getByTestId("undo-toast");
    fireEvent.mouseEnter(toast);
    act(() => vi.advanceTimersByTime(UNDO_TOAST_MS + 1000));
    expect(screen.getByTestId("undo-toast")).toBe(toast);
    fireEvent.mouseLeave(toast);
    act(() => vi.advanceTimersByTime(UNDO_TOAST_MS - 1000));
    expect(screen.queryByTestId("undo-toast")).not.toBeNull();
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.queryByTestId("undo-toast")).toBeNull();
  });

  it("gives way to the next revert's", async () => {
    await revertA([file("a.txt", { diff: { ...file("a.txt").diff!, unified: "other" } })]);
    ipc.revertChange.mockResolvedValue(reverted([], 6));
    fireEvent.click(screen.getByTestId("revert-file"));
    await waitFor(() => expect(ipc.revertChange).toHaveBeenCalledTimes(2));
    ipc.undoRevert.mockResolvedValue({ files: [{ path: "a.txt", action: "write" }] });
    fireEvent.click(await screen.findByTestId("undo-revert"));
    await waitFor(() => expect(ipc.undoRevert).toHaveBeenCalledWith({ sessionId: "s1", checkpoint: 6, path: "a.txt", overwrite: false }));
    expect(screen.getAllByTestId("undo-toast")).toHaveLength(1);
  });

  it("tells the header each list, so its count follows a revert and an undo", async () => {
    const { onReport } = await revertA();
    await waitFor(() => expect(onReport.mock.calls.map(([r]) => r.files.length)).toEqual([1, 0]));
    ipc.undoRevert.mockResolvedValue({ files: [{ path: "a.txt", action: "write" }] });
    fireEvent.click(screen.getByTestId("undo-revert"));
    await waitFor(() => expect(onReport.mock.calls.map(([r]) => r.files.length)).toEqual([1, 0, 1]));
    expect(screen.getByTestId("changes-panel").querySelector(".changes__lead")?.textContent).toBe("1 file");
  });
});

describe("comment messages and source labels", () => {
  it("name the file and lines, and say when lines were removed", () => {
    const text = commentsMessage([
      { path: "a.rs", side: "new", startLine: 3, endLine: 5, text: "rename" },
      { path: "b.rs", side: "old", startLine: 9, endLine: 9, text: "why remove?\nit was used" },
    ]);
    expect(text).toContain("1. `a.rs` lines 3–5: rename");
    expect(text).toContain("2. `b.rs` line 9 (removed lines, before your change): why remove?\n   it was used");
    expect(sourceLabel("fs__store")).toBe("fs · store");
    expect(sourceLabel("outside")).toBe("outside Memo");
  });
});

describe("the changes panel in Chinese", () => {
  afterEach(() => {
    setUpI18n("en");
  });

  it("reads from the Chinese catalog, the comments' message too", async () => {
    await setUpI18n("zh");
    expect(
      commentsMessage([{ path: "b.rs", side: "old", startLine: 9, endLine: 9, text: "为什么删掉？" }]),
    ).toBe("对你的改动有以下审阅评论：\n\n1. `b.rs` 第 9 行（已删除的行，即你改动之前的内容）：为什么删掉？\n\n请按评论修改。");
    ipc.sessionChanges.mockResolvedValue(report([file("src/a.rs"), file("src/b.rs")]));
    panel();
    await screen.findAllByTestId("changed-file");
    expect(screen.getByTestId("changes-panel").querySelector(".changes__lead")?.textContent).toBe("2 个文件");
    expect(screen.getByTestId("changes-scope-last_turn").textContent).toBe("上一轮");
  });
});

describe("RestoreDialog", () => {
  const preview: RestoreReport = {
    files: [
      { path: "a.rs", action: "write" },
      { path: "new.rs", action: "delete" },
      { path: "b.rs", action: "conflict", detail: "changed after the agent changed it" },
      { path: "c.rs", action: "unchanged" },
    ],
  };

  it("previews, overwrites a chosen conflict, and can undo a code restore", async () => {
    ipc.previewRestore.mockResolvedValue(preview);
    ipc.restoreSession.mockResolvedValue({ files: [{ path: "a.rs", action: "write" }, { path: "b.rs", action: "write" }], undo_checkpoint: 7 });
    ipc.undoRestore.mockResolvedValue({ files: [] });
    const onClose = vi.fn();
    const onCodeRestored = vi.fn();
    render(
      <RestoreDialog sessionId="s1" toSeq={4} title="Rewind" modes={["code", "conversation", "both"]} onConversation={vi.fn()} onCodeRestored={onCodeRestored} onClose={onClose} />,
    );
    const files = await screen.findAllByTestId("restore-file");
    expect(files.map((f) => f.dataset.action)).toEqual(["write", "delete", "conflict"]);
    fireEvent.click(within(files[2]!).getByRole("checkbox"));
    fireEvent.click(screen.getByTestId("restore-code"));
    await waitFor(() =>
      expect(ipc.restoreSession).toHaveBeenCalledWith({ sessionId: "s1", toSeq: 4, mode: "code", overwrite: ["b.rs"] }),
    );
    expect(onCodeRestored).toHaveBeenCalled();
    fireEvent.click(await screen.findByTestId("undo-restore"));
    await waitFor(() => expect(ipc.undoRestore).toHaveBeenCalledWith({ sessionId: "s1", checkpoint: 7, overwrite: [] }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it("says nothing was restored when every file was kept, and the reason once", async () => {
    ipc.previewRestore.mockResolvedValue({ files: [preview.files[2]!] });
    ipc.restoreSession.mockResolvedValue({ files: [preview.files[2]!], undo_checkpoint: 8 });
    render(<RestoreDialog sessionId="s1" toSeq={4} title="Rewind" modes={["code"]} onConversation={vi.fn()} onClose={vi.fn()} />);
    await screen.findAllByTestId("restore-file");
    fireEvent.click(screen.getByTestId("restore-code"));
    expect((await screen.findByRole("heading")).textContent).toBe("Nothing was restored");
    const row = screen.getByTestId("restore-file").textContent ?? "";
    expect(row).toBe("b.rskept as it is nowchanged after the agent changed it");
    expect(row).not.toContain("since the agent's edit");
  });

  it("opens the restored conversation with its message", async () => {
    ipc.previewRestore.mockResolvedValue({ files: [] });
    const session = { id: "s2", title: null, cwd: "/w", provider: "p", model: "m", created_ms: 0, updated_ms: 0, last_seq: 3 };
    ipc.restoreSession.mockResolvedValue({ files: [], session, message: "edit both" });
    const onConversation = vi.fn();
    render(<RestoreDialog sessionId="s1" toSeq={4} title="Rewind" modes={["code", "conversation", "both"]} onConversation={onConversation} onClose={() => {}} />);
    await screen.findByText(/changed no file after this point/);
    fireEvent.click(screen.getByTestId("restore-both"));
    await waitFor(() => expect(onConversation).toHaveBeenCalledWith(session, "edit both"));
  });
});
