// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { FileChange, WorktreeDiff, WorktreeInfo, WorktreeSession, WorktreeStatus } from "../../gen/protocol";
import { setUpI18n } from "../../i18n";
import { IpcError } from "../../ipc";
import { sessionSummary } from "../../test/fixtures";
import { NewWorktreeSessionButton } from "./NewWorktreeSessionButton";
import { WorktreePanel } from "./WorktreePanel";

// The Rust side, played by the test.
const { ipc } = vi.hoisted(() => ({
  ipc: {
    worktreeStatus: vi.fn(),
    worktreeDiff: vi.fn(),
    mergeWorktree: vi.fn(),
    keepWorktreeBranch: vi.fn(),
    discardWorktree: vi.fn(),
    forgetWorktree: vi.fn(),
    startWorktreeSession: vi.fn(),
  },
}));
vi.mock("../../ipc", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../ipc")>()),
  ipc,
}));

afterEach(cleanup);
beforeEach(() => Object.values(ipc).forEach((f) => f.mockReset()));

function info(overrides: Partial<WorktreeInfo> = {}): WorktreeInfo {
  return {
    id: "ab12cd34",
    repo_root: "/repo",
    path: "/home/u/.memo/worktrees/repo-ab12cd34",
    session_cwd: "/home/u/.memo/worktrees/repo-ab12cd34",
    branch: "memo/fix-login",
    base_branch: "main",
    base_commit: "0123456789abcdef",
    created_ms: 1,
    session_id: "s1",
    state: "ready",
    ...overrides,
  };
}

const COMMIT = { sha: "c0ffee0000", short_sha: "c0ffee0", subject: "Fix the login" };

function status(overrides: Partial<WorktreeStatus> = {}): WorktreeStatus {
  const uncommitted = overrides.uncommitted ?? [{ path: "src/login.rs", status: "modified" }];
  const ahead = overrides.ahead ?? [COMMIT];
  return {
    worktree: info(),
    uncommitted,
    ahead,
    behind: 0,
    merged: ahead.length === 0,
    discard_confirmation: [
      ...uncommitted.map((f) => `file ${f.path}`),
      ...ahead.map((c) => `commit ${c.sha} ${c.subject}`),
    ],
    ...overrides,
  };
}

function change(path: string): FileChange {
  return {
    path,
    kind: "modified",
    sources: ["worktree"],
    restorable: true,
    binary: false,
    added: 1,
    removed: 1,
    diff: {
      path,
      unified: `--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-old\n+new\n`,
      hunks: [{ index: 0, header: "@@ -1 +1 @@", text: "-old\n+new\n" }],
    },
  };
}

function diff(paths: string[]): WorktreeDiff {
  return { base_commit: "0123456789abcdef", files: paths.map(change) };
}

function panel(props: Partial<Parameters<typeof WorktreePanel>[0]> = {}) {
  const handlers = { onMerged: vi.fn(), onKept: vi.fn(), onDiscarded: vi.fn() };
  render(<WorktreePanel worktree={info()} refreshKey={0} {...handlers} {...props} />);
  return handlers;
}

describe("WorktreePanel", () => {
  it("shows the branch, its base, what is uncommitted, the commits ahead and the diff", async () => {
    ipc.worktreeStatus.mockResolvedValue(status());
    ipc.worktreeDiff.mockResolvedValue(diff(["src/login.rs"]));
    panel();
    expect(screen.getByTestId("worktree-branch").textContent).toBe("memo/fix-login");
    expect(await screen.findByText("src/login.rs", { selector: ".worktree__list .worktree__mono" })).toBeTruthy();
    expect(within(screen.getByTestId("worktree-ahead")).getByText("Fix the login")).toBeTruthy();
    expect(screen.getByTestId("worktree-summary").textContent).toContain("1 uncommitted file");
    expect(screen.getByTestId("worktree-merge").textContent).toContain("Merge into main");
    expect(screen.getByTestId("worktree-panel").querySelector(".worktree__lead")?.textContent).toBe("from main at 0123456");
    const file = await screen.findByTestId("worktree-file");
    fireEvent.click(within(file).getByRole("button"));
    expect(await screen.findByTestId("worktree-diff")).toBeTruthy();
    expect(ipc.worktreeStatus).toHaveBeenCalledWith({ worktreeId: "ab12cd34" });
    expect(ipc.worktreeDiff).toHaveBeenCalledWith({ worktreeId: "ab12cd34" });
  });

  it("merges with the commit message once one is written, and shows a refusal", async () => {
    ipc.worktreeStatus.mockResolvedValue(status());
    ipc.worktreeDiff.mockResolvedValue(diff(["src/login.rs"]));
    ipc.mergeWorktree.mockRejectedValueOnce(
      new IpcError("merge_worktree", "conflict", "the main checkout /repo is on other, not main", false),
    );
    const { onMerged } = panel();
    const merge = await screen.findByTestId("worktree-merge");
    await waitFor(() => expect(screen.getByTestId("worktree-message")).toBeTruthy());
    expect((merge as HTMLButtonElement).disabled).toBe(true);
    // It says what it waits for, in its tooltip and in a line under the buttons.
    expect(merge.title).toMatch(/needs a commit message/);
    expect(screen.getByTestId("worktree-merge-hint").textContent).toMatch(/needs a commit message/);
    fireEvent.change(screen.getByTestId("worktree-message"), { target: { value: "Fix login" } });
    expect((merge as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByTestId("worktree-merge-hint")).toBeNull();

    fireEvent.click(merge);
    expect((await screen.findByTestId("worktree-action-error")).textContent).toContain("on other, not main");
    expect(onMerged).not.toHaveBeenCalled();

    const merged = { committed: COMMIT, base_branch: "main", head: "f00", files: ["src/login.rs"], status: status({ uncommitted: [], ahead: [] }) };
    ipc.mergeWorktree.mockResolvedValueOnce(merged);
    await waitFor(() => expect((screen.getByTestId("worktree-merge") as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId("worktree-merge"));
    expect((await screen.findByTestId("worktree-merged")).textContent).toContain("Merged into main: 1 file");
    expect(ipc.mergeWorktree).toHaveBeenLastCalledWith({ worktreeId: "ab12cd34", message: "Fix login" });
    expect(onMerged).toHaveBeenCalledWith(merged);
  });

  it("lists exactly what a discard loses and confirms with that list", async () => {
    ipc.worktreeStatus.mockResolvedValueOnce(status());
    ipc.worktreeDiff.mockResolvedValue(diff(["src/login.rs"]));
    const { onDiscarded } = panel();
    await screen.findByTestId("worktree-ahead");
    // Between the panel's read and the click, a new file appeared: the dialog shows it.
    const fresh = status({
      uncommitted: [
        { path: "src/login.rs", status: "modified" },
        { path: "notes.md", status: "untracked" },
      ],
    });
    ipc.worktreeStatus.mockResolvedValue(fresh);
    fireEvent.click(screen.getByTestId("worktree-discard"));
    const list = await screen.findByTestId("discard-list");
    expect(within(list).getByText("notes.md")).toBeTruthy();
    expect(within(list).getByText("src/login.rs")).toBeTruthy();
    expect(within(list).getByText("Fix the login")).toBeTruthy();
    expect(within(list).getByText("2 uncommitted files")).toBeTruthy();

    // Cancel leaves everything.
    fireEvent.click(screen.getByTestId("confirm-cancel"));
    expect(screen.queryByTestId("discard-list")).toBeNull();
    expect(ipc.discardWorktree).not.toHaveBeenCalled();

    const result = { branch: "memo/fix-login", branch_deleted: true };
    ipc.discardWorktree.mockResolvedValue(result);
    fireEvent.click(screen.getByTestId("worktree-discard"));
    fireEvent.click(await screen.findByTestId("confirm-ok"));
    await waitFor(() => expect(onDiscarded).toHaveBeenCalledWith(result));
    expect(ipc.discardWorktree).toHaveBeenCalledWith({
      worktreeId: "ab12cd34",
      confirm: ["file src/login.rs", "file notes.md", "commit c0ffee0000 Fix the login"],
    });
  });

  it("discards a clean, merged worktree without a list", async () => {
    const clean = status({ uncommitted: [], ahead: [] });
    ipc.worktreeStatus.mockResolvedValue(clean);
    ipc.worktreeDiff.mockResolvedValue(diff([]));
    ipc.discardWorktree.mockResolvedValue({ branch: "memo/fix-login", branch_deleted: true });
    panel();
    expect(await screen.findByText("No changes yet.")).toBeTruthy();
    expect((screen.getByTestId("worktree-merge") as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId("worktree-discard"));
    expect((await screen.findByTestId("confirm-dialog")).textContent).toContain("Nothing uncommitted or unmerged would be lost");
    expect(screen.queryByTestId("discard-list")).toBeNull();
    fireEvent.click(screen.getByTestId("confirm-ok"));
    await waitFor(() => expect(ipc.discardWorktree).toHaveBeenCalledWith({ worktreeId: "ab12cd34", confirm: null }));
  });

  it("keeps the branch and shows the push command to copy", async () => {
    ipc.worktreeStatus.mockResolvedValue(status({ uncommitted: [] }));
    ipc.worktreeDiff.mockResolvedValue(diff(["src/login.rs"]));
    const kept = {
      branch: "memo/fix-login",
      remote: "origin",
      push_command: "git push -u origin memo/fix-login",
      repo_root: "/repo",
    };
    ipc.keepWorktreeBranch.mockResolvedValue(kept);
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    const { onKept } = panel();
    await screen.findByTestId("worktree-ahead");
    fireEvent.click(screen.getByTestId("worktree-keep"));
    expect((await screen.findByTestId("worktree-push-command")).textContent).toBe("git push -u origin memo/fix-login");
    expect(onKept).toHaveBeenCalledWith(kept);
    expect(screen.getByTestId("worktree-kept").querySelector(".worktree__done")?.textContent).toBe(
      "The folder is removed; the branch memo/fix-login is kept. To publish it, run in /repo:",
    );
    expect(ipc.keepWorktreeBranch).toHaveBeenCalledWith({ worktreeId: "ab12cd34", message: "" });
    fireEvent.click(screen.getByTestId("worktree-copy"));
    await waitFor(() => expect(screen.getByTestId("worktree-copy").textContent).toBe("Copied"));
    expect(writeText).toHaveBeenCalledWith("git push -u origin memo/fix-login");
  });

  it("offers to forget a worktree whose folder is gone", async () => {
    ipc.worktreeStatus.mockResolvedValue(status({ worktree: info({ state: "missing" }), uncommitted: [] }));
    ipc.forgetWorktree.mockResolvedValue(undefined);
    const { onDiscarded } = panel({ worktree: info({ state: "missing" }) });
    expect((await screen.findByTestId("worktree-missing")).textContent).toContain("folder is gone");
    expect(screen.queryByTestId("worktree-merge")).toBeNull();
    expect(ipc.worktreeDiff).not.toHaveBeenCalled();
    await waitFor(() => expect((screen.getByTestId("worktree-forget") as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId("worktree-forget"));
    await waitFor(() => expect(onDiscarded).toHaveBeenCalledWith(null));
  });

  it("disables the actions while a turn runs", async () => {
    ipc.worktreeStatus.mockResolvedValue(status());
    ipc.worktreeDiff.mockResolvedValue(diff([]));
    panel({ busy: true });
    await screen.findByTestId("worktree-ahead");
    for (const id of ["worktree-merge", "worktree-keep", "worktree-discard"]) {
      expect((screen.getByTestId(id) as HTMLButtonElement).disabled).toBe(true);
    }
    expect(screen.getByTestId("worktree-discard").title).toMatch(/turn ends/);
  });
});

describe("NewWorktreeSessionButton", () => {
  it("starts a session in a new worktree with the branch name given", async () => {
    const started: WorktreeSession = { session: sessionSummary({ cwd: info().path }), worktree: info() };
    ipc.startWorktreeSession.mockResolvedValue(started);
    const onStarted = vi.fn();
    render(<NewWorktreeSessionButton cwd="/repo" approvalMode="auto" onStarted={onStarted} />);
    fireEvent.click(screen.getByTestId("new-worktree-session"));
    fireEvent.change(screen.getByTestId("new-worktree-name"), { target: { value: "  fix login " } });
    fireEvent.click(screen.getByTestId("new-worktree-start"));
    await waitFor(() => expect(onStarted).toHaveBeenCalledWith(started));
    expect(ipc.startWorktreeSession).toHaveBeenCalledWith({
      cwd: "/repo",
      name: "fix login",
      provider: null,
      model: null,
      approvalMode: "auto",
    });
    expect(screen.queryByTestId("new-worktree-form")).toBeNull();
  });

  it("closes on Esc, but not on the Esc that ends an input method's composition in the branch name", () => {
    render(<NewWorktreeSessionButton cwd="/repo" onStarted={vi.fn()} />);
    fireEvent.click(screen.getByTestId("new-worktree-session"));
    const name = screen.getByTestId("new-worktree-name");
    fireEvent.change(name, { target: { value: "修复" } });
    fireEvent.keyDown(name, { key: "Escape", isComposing: true });
    fireEvent.keyDown(name, { key: "Escape", keyCode: 229 });
    expect((screen.getByTestId("new-worktree-name") as HTMLInputElement).value).toBe("修复");
    fireEvent.keyDown(name, { key: "Escape" });
    expect(screen.queryByTestId("new-worktree-form")).toBeNull();
    expect(ipc.startWorktreeSession).not.toHaveBeenCalled();
  });

  it("says why a folder cannot have one, and is off without a folder", async () => {
    ipc.startWorktreeSession.mockRejectedValue(
      new IpcError("start_worktree_session", "invalid_input", "/tmp/x is not inside a git repository", false),
    );
    const onStarted = vi.fn();
    const { rerender } = render(<NewWorktreeSessionButton cwd="/tmp/x" onStarted={onStarted} variant="menu-item" />);
    fireEvent.click(screen.getByTestId("new-worktree-session"));
    fireEvent.click(screen.getByTestId("new-worktree-start"));
    expect((await screen.findByTestId("new-worktree-error")).textContent).toContain("not inside a git repository");
    expect(ipc.startWorktreeSession).toHaveBeenCalledWith(expect.objectContaining({ name: null }));
    expect(onStarted).not.toHaveBeenCalled();
    rerender(<NewWorktreeSessionButton cwd={null} onStarted={onStarted} />);
    expect((screen.getByTestId("new-worktree-session") as HTMLButtonElement).disabled).toBe(true);
  });

  it("scrolls the whole form into view when it opens at the sidebar's end, so Start can be reached", async () => {
    const scrolled: Element[] = [];
    const scrollIntoView = vi.fn(function (this: Element) {
      scrolled.push(this);
    });
    const own = Object.getOwnPropertyDescriptor(Element.prototype, "scrollIntoView");
    Element.prototype.scrollIntoView = scrollIntoView;
    try {
      render(<NewWorktreeSessionButton cwd="/repo" onStarted={vi.fn()} variant="menu-item" />);
      fireEvent.click(screen.getByTestId("new-worktree-session"));
      const form = screen.getByTestId("new-worktree-form");
      await waitFor(() => expect(scrolled).toContain(form));
      expect(scrollIntoView).toHaveBeenCalledWith({ block: "nearest" });
      expect(form.contains(screen.getByTestId("new-worktree-start"))).toBe(true);
    } finally {
      if (own) Object.defineProperty(Element.prototype, "scrollIntoView", own);
      else delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
    }
  });
});

describe("the worktree panel in Chinese", () => {
  afterEach(() => {
    setUpI18n("en");
  });

  it("reads from the Chinese catalog, markup and counts included", async () => {
    await setUpI18n("zh");
    ipc.worktreeStatus.mockResolvedValue(status());
    ipc.worktreeDiff.mockResolvedValue(diff(["src/login.rs"]));
    panel();
    expect((await screen.findByTestId("worktree-summary")).textContent).toContain("1 个未提交的文件");
    expect(screen.getByText("main", { selector: ".worktree__lead strong" })).toBeTruthy();
    expect(screen.getByTestId("worktree-panel").querySelector(".worktree__lead")?.textContent).toBe("基于 main 的 0123456");
    expect(screen.getByTestId("worktree-merge").textContent).toContain("合并到 main");
  });
});
