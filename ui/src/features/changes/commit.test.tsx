// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { ChangesReport, FileChange, GitFile, GitStatus, PullRequestPlan } from "../../gen/protocol";
import { setUpI18n } from "../../i18n";
import { ChangesPanel } from "./ChangesPanel";
import { CommitBox } from "./CommitBox";
import { commandWith } from "./PullRequestForm";
import { shellLine, shellWord } from "./shell";

// The Rust side, played by the test.
const { ipc } = vi.hoisted(() => ({
  ipc: {
    sessionChanges: vi.fn(),
    keepChange: vi.fn(),
    gitStatus: vi.fn(),
    gitStage: vi.fn(),
    commitPreview: vi.fn(),
    draftCommitMessage: vi.fn(),
    commitStaged: vi.fn(),
    pushBranch: vi.fn(),
    draftPullRequest: vi.fn(),
    openPullRequest: vi.fn(),
  },
}));
vi.mock("../../ipc", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../ipc")>()),
  ipc,
}));
const openUrl = vi.hoisted(() => vi.fn((_url: string) => Promise.resolve()));
vi.mock("@tauri-apps/plugin-opener", () => ({ openUrl }));

afterEach(() => cleanup());
beforeEach(() => {
  Object.values(ipc).forEach((f) => f.mockReset());
  openUrl.mockClear();
});

function gitFile(path: string, overrides: Partial<GitFile> = {}): GitFile {
  return { path, untracked: false, conflicted: false, ...overrides };
}

/** A status; `without` leaves fields out, as the wire does (no branch, no upstream). */
function status(overrides: Partial<GitStatus> = {}, without: readonly ("branch" | "upstream" | "head")[] = []): GitStatus {
  const made: GitStatus = {
    branch: "feature",
    head: "abc1234",
    upstream: "origin/feature",
    ahead: 0,
    behind: 0,
    files: [gitFile("src/a.rs", { staged: "modified" })],
    remotes: ["origin"],
    identity: true,
    ...overrides,
  };
  for (const name of without) delete made[name];
  return made;
}

function box(props: Partial<Parameters<typeof CommitBox>[0]> = {}) {
  const onChanged = vi.fn();
  render(<CommitBox sessionId="s1" busy={false} refreshKey={0} onChanged={onChanged} {...props} />);
  return { onChanged };
}

async function openForm() {
  const open = await screen.findByTestId("commit-open");
  await waitFor(() => expect((open as HTMLButtonElement).disabled).toBe(false));
  fireEvent.click(open);
  return screen.findByTestId("commit-form");
}

const textarea = () => screen.getByTestId("commit-message") as HTMLTextAreaElement;
const submit = () => screen.getByTestId("commit-submit") as HTMLButtonElement;

describe("the commit area's status", () => {
  it("shows the branch, its upstream and the files by group, and stages or unstages a whole file", async () => {
    ipc.gitStatus.mockResolvedValue(
      status({
        ahead: 2,
        behind: 1,
        files: [
          gitFile("src/new.rs", { staged: "renamed", renamed_from: "src/old.rs" }),
          gitFile("src/half.rs", { staged: "modified", unstaged: "modified" }),
          gitFile("notes.txt", { untracked: true }),
          gitFile("Cargo.lock", { conflicted: true }),
        ],
      }),
    );
    ipc.gitStage.mockResolvedValue(status({ files: [] }));
    const { onChanged } = box();
    expect((await screen.findByTestId("git-branch")).textContent).toBe("feature→ origin/feature · 2 ahead, 1 behind");
    const group = (name: string) =>
      within(screen.getByTestId(`git-group-${name}`))
        .getAllByTestId("git-file")
        .map((row) => row.querySelector(".commit__path")?.textContent);
    expect(group("staged")).toEqual(["src/old.rs → src/new.rs", "src/half.rs"]);
    expect(group("unstaged")).toEqual(["src/half.rs"]);
    expect(group("untracked")).toEqual(["notes.txt"]);
    expect(group("conflicted")).toEqual(["Cargo.lock"]);
    expect(screen.getByTestId("git-group-unstaged").textContent).toContain("Not staged");
    expect(screen.getByTestId("git-group-conflicted").textContent).toContain("Conflicts");

    const untracked = within(screen.getByTestId("git-group-untracked")).getByTestId("git-file");
    expect(untracked.dataset.path).toBe("notes.txt");
    fireEvent.click(within(untracked).getByTestId("git-stage-file"));
    await waitFor(() => expect(ipc.gitStage).toHaveBeenCalledWith({ sessionId: "s1", request: { path: "notes.txt", unstage: false } }));
    await waitFor(() => expect(onChanged).toHaveBeenCalledTimes(1));
    // The status the stage answered is shown.
    await waitFor(() => expect(screen.queryAllByTestId("git-file")).toHaveLength(0));

    ipc.gitStatus.mockResolvedValue(status());
    cleanup();
    box();
    const row = await screen.findByTestId("git-file");
    fireEvent.click(within(row).getByTestId("git-unstage-file"));
    await waitFor(() => expect(ipc.gitStage).toHaveBeenLastCalledWith({ sessionId: "s1", request: { path: "src/a.rs", unstage: true } }));
  });

  it("says a detached HEAD, an operation in progress and a missing identity, and keeps the commit closed", async () => {
    ipc.gitStatus.mockResolvedValue(status({ operation: "rebase", identity: false }, ["branch", "upstream"]));
    box();
    expect((await screen.findByTestId("git-branch")).textContent).toBe("detached HEAD");
    const notices = screen.getAllByTestId("git-notice").map((n) => n.textContent);
    expect(notices).toEqual([
      "a git rebase is in progress: finish or abort it in a terminal before committing",
      expect.stringContaining("git does not know who you are"),
    ]);
    expect((screen.getByTestId("commit-open") as HTMLButtonElement).disabled).toBe(true);
    // Detached: nothing to push from, nor a pull request.
    expect(screen.queryByTestId("push-branch")).toBeNull();
    expect(screen.queryByTestId("pr-open")).toBeNull();
  });

  it("cannot commit with nothing staged", async () => {
    ipc.gitStatus.mockResolvedValue(status({ files: [gitFile("src/a.rs", { unstaged: "modified" })] }));
    box();
    await screen.findByTestId("git-file");
    expect((screen.getByTestId("commit-open") as HTMLButtonElement).disabled).toBe(true);
  });
});

describe("the commit form", () => {
  it("drafts the message with the model, commits the edited message and says what it committed", async () => {
    ipc.gitStatus.mockResolvedValueOnce(status()).mockResolvedValue(status({ files: [], ahead: 1 }));
    ipc.commitPreview.mockResolvedValue({ files: ["src/a.rs"], flagged: [] });
    let drafted: (text: string) => void = () => {};
    ipc.draftCommitMessage.mockReturnValue(new Promise<string>((resolve) => (drafted = resolve)));
    ipc.commitStaged.mockResolvedValue({ commit: "9f8e7d6", summary: "Fix the parser's last line", output: "" });
    const { onChanged } = box();
    await openForm();
    expect(document.activeElement).toBe(textarea());
    await waitFor(() => expect((screen.getByTestId("commit-draft") as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId("commit-draft"));
    // Drafting shows a spinner until the answer.
    expect(screen.getByTestId("commit-draft").querySelector(".spinner")).not.toBeNull();
    expect((screen.getByTestId("commit-draft") as HTMLButtonElement).disabled).toBe(true);
    expect(ipc.draftCommitMessage).toHaveBeenCalledWith({ sessionId: "s1" });
    drafted("Fix the parser\n\nIt dropped the last line.\n");
    await waitFor(() => expect(textarea().value).toBe("Fix the parser\n\nIt dropped the last line."));
    fireEvent.change(textarea(), { target: { value: "Fix the parser's last line\n\nIt dropped it." } });
    // Enter is a new line; an input method's Ctrl+Enter is its own.
    fireEvent.keyDown(textarea(), { key: "Enter" });
    fireEvent.keyDown(textarea(), { key: "Enter", ctrlKey: true, isComposing: true });
    expect(ipc.commitStaged).not.toHaveBeenCalled();
    fireEvent.click(submit());
    await waitFor(() =>
      expect(ipc.commitStaged).toHaveBeenCalledWith({
        sessionId: "s1",
        request: { message: "Fix the parser's last line\n\nIt dropped it.", allow_flagged: false },
      }),
    );
    expect((await screen.findByTestId("commit-result")).textContent).toBe("Committed 9f8e7d6 Fix the parser's last line");
    expect(screen.queryByTestId("commit-form")).toBeNull();
    // Read again, here and in the panel's list.
    await waitFor(() => expect(ipc.gitStatus).toHaveBeenCalledTimes(2));
    expect(onChanged).toHaveBeenCalled();
    // Now ahead of its upstream: the push is offered.
    expect(await screen.findByTestId("push-branch")).toBeTruthy();
  });

  it("commits with Ctrl+Enter, and Esc puts the form away", async () => {
    ipc.gitStatus.mockResolvedValue(status());
    ipc.commitPreview.mockResolvedValue({ files: ["src/a.rs"], flagged: [] });
    ipc.commitStaged.mockResolvedValue({ commit: "1111111", summary: "Tidy", output: "" });
    box();
    await openForm();
    fireEvent.keyDown(window, { key: "Escape" });
    expect(screen.queryByTestId("commit-form")).toBeNull();
    expect(ipc.commitStaged).not.toHaveBeenCalled();
    await openForm();
    fireEvent.change(textarea(), { target: { value: "Tidy" } });
    await waitFor(() => expect(submit().disabled).toBe(false));
    fireEvent.keyDown(textarea(), { key: "Enter", ctrlKey: true });
    await waitFor(() => expect(ipc.commitStaged).toHaveBeenCalledWith({ sessionId: "s1", request: { message: "Tidy", allow_flagged: false } }));
    expect((await screen.findByTestId("commit-result")).textContent).toBe("Committed 1111111 Tidy");
  });

  it("lists the staged files that look like secrets, and commits only once they are let through", async () => {
    ipc.gitStatus.mockResolvedValue(status());
    ipc.commitPreview.mockResolvedValue({
      files: [".env", "src/cfg.py"],
      flagged: [
        { path: ".env", looks_like: "env_file" },
        { path: "src/cfg.py", line: 4, looks_like: "aws_key" },
      ],
    });
    ipc.commitStaged.mockResolvedValue({ commit: "2222222", summary: "Config", output: "" });
    box();
    await openForm();
    const flagged = await screen.findByTestId("commit-flagged");
    expect(flagged.textContent).toContain("2 staged files look like they hold secrets");
    expect(within(flagged).getAllByTestId("commit-flag").map((li) => li.textContent)).toEqual([
      ".env: looks like an .env file",
      "src/cfg.py, line 4: looks like an AWS access key",
    ]);
    fireEvent.change(textarea(), { target: { value: "Config" } });
    expect(submit().disabled).toBe(true);
    fireEvent.click(screen.getByTestId("commit-allow-flagged"));
    expect(submit().disabled).toBe(false);
    fireEvent.click(submit());
    await waitFor(() => expect(ipc.commitStaged).toHaveBeenCalledWith({ sessionId: "s1", request: { message: "Config", allow_flagged: true } }));
  });

  it("says why the commit cannot be made", async () => {
    ipc.gitStatus.mockResolvedValue(status());
    ipc.commitPreview.mockResolvedValue({ files: [], flagged: [], blocked: { code: "git_nothing_staged" } });
    box();
    await openForm();
    expect((await screen.findByTestId("commit-blocked")).textContent).toBe(
      "nothing is staged: keep (stage) the hunks you want to commit first",
    );
    fireEvent.change(textarea(), { target: { value: "Anything" } });
    expect(submit().disabled).toBe(true);
  });

  it("shows a refusing hook's output and keeps the message to try again", async () => {
    ipc.gitStatus.mockResolvedValue(status());
    ipc.commitPreview.mockResolvedValue({ files: ["src/a.rs"], flagged: [] });
    const output = "lint.sh: src/a.rs:3: trailing whitespace\nhook failed with 1";
    ipc.commitStaged.mockRejectedValue({ code: "invalid_input", message: "refused", retryable: false, phrase: { code: "git_commit_refused", output } });
    box();
    await openForm();
    fireEvent.change(textarea(), { target: { value: "Add the parser" } });
    fireEvent.click(submit());
    const error = await screen.findByTestId("commit-error");
    expect(error.tagName).toBe("PRE");
    expect(error.textContent).toBe(`the commit was refused and nothing was committed (a hook failed, or git said why): ${output}`);
    expect(textarea().value).toBe("Add the parser");
    expect(screen.getByTestId("commit-form")).toBeTruthy();
    expect(screen.queryByTestId("commit-result")).toBeNull();
    // Ready to commit again.
    await waitFor(() => expect(submit().disabled).toBe(false));
  });
});

describe("the push", () => {
  it("asks which remote for a branch without an upstream, and pushes there, setting it", async () => {
    ipc.gitStatus.mockResolvedValue(status({ remotes: ["origin", "fork"] }, ["upstream"]));
    ipc.pushBranch
      .mockResolvedValueOnce({ type: "choose_remote", branch: "feature", remotes: ["origin", "fork"] })
      .mockResolvedValueOnce({ type: "pushed", remote: "fork", branch: "feature", set_upstream: true, output: "" });
    box();
    fireEvent.click(await screen.findByTestId("push-branch"));
    await waitFor(() => expect(ipc.pushBranch).toHaveBeenCalledWith({ sessionId: "s1", request: { force: false } }));
    const select = (await screen.findByTestId("push-remote")) as HTMLSelectElement;
    expect([...select.options].map((o) => o.value)).toEqual(["origin", "fork"]);
    expect(select.value).toBe("origin");
    expect(screen.getByTestId("push-choose").textContent).toContain("feature has no upstream yet");
    fireEvent.change(select, { target: { value: "fork" } });
    fireEvent.click(screen.getByTestId("push-confirm"));
    await waitFor(() => expect(ipc.pushBranch).toHaveBeenLastCalledWith({ sessionId: "s1", request: { remote: "fork", force: false } }));
    expect((await screen.findByTestId("push-result")).textContent).toBe("Pushed to fork/feature");
    expect(screen.queryByTestId("push-remote")).toBeNull();
    // Pushed: the pull request is offered.
    expect(screen.getByTestId("pr-open")).toBeTruthy();
  });

  it("says the repository has no remote when there is none to choose", async () => {
    ipc.gitStatus.mockResolvedValue(status({ remotes: [] }, ["upstream"]));
    ipc.pushBranch.mockResolvedValue({ type: "choose_remote", branch: "feature", remotes: [] });
    box();
    fireEvent.click(await screen.findByTestId("push-branch"));
    expect((await screen.findByTestId("push-no-remote")).textContent).toBe("the repository has no remote: add one with git remote add");
    expect(screen.queryByTestId("push-confirm")).toBeNull();
  });

  it("says why a push was rejected, and force-pushes only after a question naming the remote and branch", async () => {
    ipc.gitStatus.mockResolvedValue(status({ upstream: "origin/main", branch: "main", ahead: 1 }));
    const output = "To example.com:o/r.git\n!\tHEAD:refs/heads/main\t[rejected] (fetch first)";
    ipc.pushBranch
      .mockResolvedValueOnce({ type: "rejected", remote: "origin", branch: "main", reason: { code: "git_push_behind", remote: "origin", branch: "main" }, output })
      .mockResolvedValueOnce({ type: "pushed", remote: "origin", branch: "main", set_upstream: false, output: "" });
    box();
    fireEvent.click(await screen.findByTestId("push-branch"));
    expect((await screen.findByTestId("push-rejected")).textContent).toBe(
      "origin has commits on main that you do not have: pull (or rebase onto origin/main), then push again",
    );
    // Git's words, folded.
    const folded = screen.getByTestId("push-output") as HTMLDetailsElement;
    expect(folded.tagName).toBe("DETAILS");
    expect(folded.open).toBe(false);
    expect(folded.querySelector("pre")?.textContent).toBe(output);
    fireEvent.click(screen.getByTestId("push-force"));
    expect(screen.getByTestId("push-force-question").textContent).toContain(
      "Force-push to origin/main? What is there now is replaced.",
    );
    // The question is the safe way round: Cancel has the focus, and nothing was sent yet.
    expect(document.activeElement?.textContent).toBe("Cancel");
    expect(ipc.pushBranch).toHaveBeenCalledTimes(1);
    const confirm = screen.getByTestId("push-force-confirm");
    expect(confirm.className).toContain("button--danger");
    fireEvent.click(confirm);
    await waitFor(() => expect(ipc.pushBranch).toHaveBeenLastCalledWith({ sessionId: "s1", request: { remote: "origin", force: true } }));
    expect((await screen.findByTestId("push-result")).textContent).toBe("Pushed to origin/main");
    expect(ipc.pushBranch).toHaveBeenCalledTimes(2);
  });

  it("offers no force push where it would not help, and Esc takes back the question", async () => {
    ipc.gitStatus.mockResolvedValue(status({ ahead: 1 }));
    ipc.pushBranch
      .mockResolvedValueOnce({ type: "rejected", remote: "origin", branch: "feature", reason: { code: "git_push_auth", remote: "origin" }, output: "" })
      .mockResolvedValueOnce({ type: "rejected", remote: "origin", branch: "feature", reason: { code: "git_push_behind", remote: "origin", branch: "feature" }, output: "" });
    box();
    fireEvent.click(await screen.findByTestId("push-branch"));
    expect((await screen.findByTestId("push-rejected")).textContent).toContain("could not sign in to origin");
    expect(screen.queryByTestId("push-force")).toBeNull();
    fireEvent.click(screen.getByTestId("push-branch"));
    fireEvent.click(await screen.findByTestId("push-force"));
    expect(screen.getByTestId("push-force-question")).toBeTruthy();
    fireEvent.keyDown(window, { key: "Escape" });
    expect(screen.queryByTestId("push-force-question")).toBeNull();
    expect(ipc.pushBranch).toHaveBeenCalledTimes(2);
    expect(ipc.pushBranch.mock.calls.every(([args]) => args.request.force === false)).toBe(true);
  });
});

describe("the pull request", () => {
  const plan = (overrides: Partial<PullRequestPlan> = {}): PullRequestPlan => ({
    title: "Fix the parser",
    body: "It dropped the last line.",
    command: ["gh", "pr", "create", "--head", "feature", "--title", "Fix the parser", "--body", "It dropped the last line."],
    compare_url: "https://github.com/o/r/compare/feature?expand=1",
    ...overrides,
  });
  const { compare_url: _none, ...noForge } = plan({ command: [] });

  it("shows the command with the edited title and body, and creates it", async () => {
    ipc.gitStatus.mockResolvedValue(status());
    ipc.draftPullRequest.mockResolvedValue(plan());
    ipc.openPullRequest.mockResolvedValue({ url: "https://github.com/o/r/pull/7", output: "https://github.com/o/r/pull/7\n" });
    box();
    // Pushed, nothing ahead: no push, the pull request offered.
    fireEvent.click(await screen.findByTestId("pr-open"));
    expect(screen.queryByTestId("push-branch")).toBeNull();
    await waitFor(() => expect((screen.getByTestId("pr-title") as HTMLInputElement).value).toBe("Fix the parser"));
    expect(ipc.draftPullRequest).toHaveBeenCalledWith({ sessionId: "s1" });
    expect((screen.getByTestId("pr-body") as HTMLTextAreaElement).value).toBe("It dropped the last line.");
    expect(screen.getByTestId("pr-command").textContent).toBe(
      "gh pr create --head feature --title 'Fix the parser' --body 'It dropped the last line.'",
    );
    fireEvent.change(screen.getByTestId("pr-title"), { target: { value: "Keep the parser's last line" } });
    expect(screen.getByTestId("pr-command").textContent).toBe(
      "gh pr create --head feature --title 'Keep the parser'\\''s last line' --body 'It dropped the last line.'",
    );
    expect(screen.queryByTestId("pr-compare")).toBeNull();
    fireEvent.click(screen.getByTestId("pr-create"));
    await waitFor(() =>
      expect(ipc.openPullRequest).toHaveBeenCalledWith({
        sessionId: "s1",
        request: { title: "Keep the parser's last line", body: "It dropped the last line." },
      }),
    );
    const link = (await screen.findByTestId("pr-url")) as HTMLAnchorElement;
    expect(link.getAttribute("href")).toBe("https://github.com/o/r/pull/7");
    fireEvent.click(link);
    expect(openUrl).toHaveBeenCalledWith("https://github.com/o/r/pull/7");
  });

  it("without a forge's CLI links the compare page, opened outside the app", async () => {
    ipc.gitStatus.mockResolvedValue(status());
    ipc.draftPullRequest.mockResolvedValue(plan({ command: [] }));
    box();
    fireEvent.click(await screen.findByTestId("pr-open"));
    const link = (await screen.findByTestId("pr-compare")) as HTMLAnchorElement;
    expect(link.getAttribute("href")).toBe("https://github.com/o/r/compare/feature?expand=1");
    expect(screen.getByTestId("pr-no-cli").textContent).toContain("Neither gh nor glab is installed");
    expect(screen.queryByTestId("pr-command")).toBeNull();
    expect(screen.queryByTestId("pr-create")).toBeNull();
    fireEvent.click(link);
    expect(openUrl).toHaveBeenCalledWith("https://github.com/o/r/compare/feature?expand=1");
    expect(ipc.openPullRequest).not.toHaveBeenCalled();
  });

  it("says when the remote is on no known forge, and Esc closes the form", async () => {
    ipc.gitStatus.mockResolvedValue(status());
    ipc.draftPullRequest.mockResolvedValue(noForge);
    box();
    fireEvent.click(await screen.findByTestId("pr-open"));
    expect((await screen.findByTestId("pr-no-forge")).textContent).toBe(
      "the remote is not on GitHub or GitLab: open the pull request on its forge's site",
    );
    expect(screen.queryByTestId("pr-compare")).toBeNull();
    fireEvent.keyDown(window, { key: "Escape" });
    expect(screen.queryByTestId("pr-form")).toBeNull();
  });
});

describe("the commit area in the changes panel", () => {
  const TWO_HUNKS = "--- a/src/a.rs\n+++ b/src/a.rs\n@@ -1,1 +1,1 @@\n-a\n+A\n@@ -9,1 +9,1 @@\n-b\n+B\n";
  const changed = (kept: number[]): FileChange => ({
    path: "src/a.rs",
    kind: "modified",
    sources: ["apply_patch"],
    restorable: true,
    binary: false,
    added: 2,
    removed: 2,
    kept,
    diff: {
      path: "src/a.rs",
      unified: TWO_HUNKS,
      hunks: [
        { index: 0, header: "@@ -1,1 +1,1 @@", text: "-a\n+A\n" },
        { index: 1, header: "@@ -9,1 +9,1 @@", text: "-b\n+B\n" },
      ],
    },
  });
  const listed = (kept: number[]): ChangesReport => ({ scope: "session", files: [changed(kept)], git: true });

  it("reads the status again after a keep, and the list again after a stage", async () => {
    ipc.sessionChanges.mockResolvedValue(listed([]));
    ipc.gitStatus.mockResolvedValue(status({ files: [gitFile("src/a.rs", { unstaged: "modified" })] }));
    ipc.keepChange.mockResolvedValue(listed([0]));
    render(<ChangesPanel sessionId="s1" refreshKey={0} busy={false} onSendComments={vi.fn()} onClose={vi.fn()} />);
    await screen.findByTestId("git-file");
    const reads = ipc.gitStatus.mock.calls.length;
    fireEvent.click(screen.getByTestId("changed-file").querySelector(".changes__toggle")!);
    fireEvent.click((await screen.findAllByTestId("keep-hunk"))[0]!);
    await waitFor(() => expect(ipc.gitStatus.mock.calls.length).toBeGreaterThan(reads));

    const listings = ipc.sessionChanges.mock.calls.length;
    ipc.gitStage.mockResolvedValue(status());
    fireEvent.click(screen.getByTestId("git-stage-file"));
    await waitFor(() => expect(ipc.sessionChanges.mock.calls.length).toBe(listings + 1));
  });
});

describe("the commit area in Chinese", () => {
  afterEach(() => {
    setUpI18n("en");
  });

  it("names the groups, the push and the secrets in Chinese", async () => {
    await setUpI18n("zh");
    ipc.gitStatus.mockResolvedValue(status({ ahead: 1, files: [gitFile("a.rs", { staged: "modified" }), gitFile("b.rs", { untracked: true })] }));
    ipc.commitPreview.mockResolvedValue({ files: ["a.rs"], flagged: [{ path: ".env", looks_like: "env_file" }] });
    box();
    expect((await screen.findByTestId("git-group-staged")).textContent).toContain("已暂存");
    expect(screen.getByTestId("git-group-untracked").textContent).toContain("未跟踪");
    expect(screen.getByTestId("git-unstage-file").textContent).toBe("取消暂存");
    expect(screen.getByTestId("push-branch").textContent).toBe("推送");
    await openForm();
    expect((await screen.findByTestId("commit-flag")).textContent).toBe(".env：看起来像 .env 文件");
    expect(screen.getByTestId("commit-allow-flagged").parentElement?.textContent).toBe("仍然提交");
  });
});

describe("a command shown as a shell line", () => {
  it("quotes only the words that need it", () => {
    expect(shellWord("--title")).toBe("--title");
    expect(shellWord("feature/x-1")).toBe("feature/x-1");
    expect(shellWord("two words")).toBe("'two words'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
    expect(shellWord("")).toBe("''");
    expect(shellWord("a$b")).toBe("'a$b'");
    expect(shellLine(["glab", "mr", "create", "--description", "line one\nline two"])).toBe(
      "glab mr create --description 'line one\nline two'",
    );
  });

  it("puts the edited title and body where the drafted ones were, a title like the branch included", () => {
    const plan: PullRequestPlan = {
      title: "feature",
      body: "b",
      command: ["gh", "pr", "create", "--head", "feature", "--title", "feature", "--body", "b"],
    };
    expect(commandWith(plan, "New", "Body")).toEqual(["gh", "pr", "create", "--head", "feature", "--title", "New", "--body", "Body"]);
  });
});
