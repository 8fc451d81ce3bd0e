// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { SkillInfo, SkillsPage as SkillsList } from "../../gen/protocol";
import { setUpI18n } from "../../i18n";
import { SkillsPage } from "./SkillsPage";

// The Rust side, played by the test.
const { ipc } = vi.hoisted(() => ({
  ipc: {
    listSkills: vi.fn(),
    changeSkill: vi.fn(),
  },
}));
vi.mock("../../ipc", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../ipc")>()),
  ipc,
}));

// CodeMirror has no place in jsdom; the editor's own tests cover it.
vi.mock("./FileEditorPage", () => ({
  FileEditorPage: (props: { path: string; toolbar: React.ReactNode; onDirtyChange: (dirty: boolean) => void }) => (
    <div data-testid="file-editor" data-path={props.path}>
      {props.toolbar}
      <button type="button" onClick={() => props.onDirtyChange(true)}>
        type something
      </button>
    </div>
  ),
}));

afterEach(cleanup);

function skill(name: string, scope: SkillInfo["scope"], overrides: Partial<SkillInfo> = {}): SkillInfo {
  const editable = scope === "user" || scope === "project";
  const folder = name.toLowerCase().replace(/\s+/g, "-");
  const path =
    scope === "builtin"
      ? `builtin:${folder}/SKILL.md`
      : scope === "user"
        ? `/home/me/.memo/skills/${folder}/SKILL.md`
        : scope === "project"
          ? `/work/app/.agents/skills/${folder}/SKILL.md`
          : `/home/me/.claude/skills/${folder}/SKILL.md`;
  return { name, description: `${name} does things`, scope, path, enabled: true, editable, ...overrides };
}

const REVIEW = skill("Code Review", "user");
const DEPLOY = skill("deploy", "project", { enabled: false });
const PDF = skill("pdf", "other_agent");
const CREATOR = skill("skill-creator", "builtin");

function page(skills: SkillInfo[], overrides: Partial<SkillsList> = {}): SkillsList {
  return { skills, problems: [], filtered: true, config_revision: "rev-1", ...overrides };
}

function row(name: string): HTMLElement {
  return screen.getAllByTestId("skill-row").find((r) => r.dataset.name === name)!;
}

function commandError(code: string, message: string) {
  return { code, message, retryable: false };
}

beforeEach(() => {
  ipc.listSkills.mockReset();
  ipc.changeSkill.mockReset();
  ipc.listSkills.mockResolvedValue(page([REVIEW, DEPLOY, PDF, CREATOR]));
});

describe("SkillsPage", () => {
  it("lists every skill grouped by where it lives, with its $key and whether it is on", async () => {
    render(<SkillsPage cwd="/work/app" onDirtyChange={vi.fn()} />);
    await screen.findAllByTestId("skill-row");
    expect(ipc.listSkills).toHaveBeenCalledWith({ cwd: "/work/app" });

    const groups = ["user", "project", "other_agent", "builtin"].map((scope) => screen.getByTestId(`skill-group-${scope}`));
    expect(groups.map((g) => within(g).getAllByTestId("skill-row").map((r) => r.dataset.name))).toEqual([
      ["Code Review"],
      ["deploy"],
      ["pdf"],
      ["skill-creator"],
    ]);
    expect(groups.map((g) => within(g).getByRole("heading").textContent)).toEqual([
      expect.stringContaining("Memo (user)"),
      expect.stringContaining("This project"),
      expect.stringContaining("Other agents"),
      expect.stringContaining("Built in"),
    ]);

    expect(within(row("Code Review")).getByText("$code-review")).toBeTruthy();
    expect(within(row("Code Review")).getByText(REVIEW.path)).toBeTruthy();
    expect((within(row("Code Review")).getByTestId("skill-toggle") as HTMLInputElement).checked).toBe(true);
    expect((within(row("deploy")).getByTestId("skill-toggle") as HTMLInputElement).checked).toBe(false);
    expect(screen.getByRole("switch", { name: "Enable deploy" })).toBeTruthy();
  });

  it("says what a built-in skill does in the person's language, and everyone else's skill as its author wrote it", async () => {
    const stranger = skill("release-notes", "builtin", { description: "Drafts release notes" });
    ipc.listSkills.mockResolvedValue(page([PDF, CREATOR, stranger]));
    await setUpI18n("zh");
    try {
      render(<SkillsPage cwd="/work/app" onDirtyChange={vi.fn()} />);
      await screen.findAllByTestId("skill-row");
      const said = (name: string) => within(row(name)).getByText((_, el) => el?.classList.contains("skill-row__description") ?? false).textContent;
      expect(said("skill-creator")).toBe("创建或改进一个技能，即某类常见任务的操作说明。当用户想把一套可复用的工作流程教给 Memo 时使用。");
      expect(said("pdf")).toBe("pdf does things");
      // A built-in skill the catalog does not know yet keeps its own words rather than showing a key.
      expect(said("release-notes")).toBe("Drafts release notes");
    } finally {
      await setUpI18n("en");
    }
  });

  it("offers no Edit, Rename or Delete for other agents' and built-in skills, and says why", async () => {
    render(<SkillsPage cwd="/work/app" onDirtyChange={vi.fn()} />);
    await screen.findAllByTestId("skill-row");
    for (const name of ["pdf", "skill-creator"]) {
      const r = row(name);
      expect(within(r).queryByTestId("skill-edit")).toBeNull();
      expect(within(r).queryByTestId("skill-rename")).toBeNull();
      expect(within(r).queryByTestId("skill-delete")).toBeNull();
      expect(within(r).getByTestId("skill-toggle")).toBeTruthy();
    }
    expect(within(row("pdf")).getByText(/never changes it/)).toBeTruthy();
    expect(within(row("skill-creator")).getByText(/Ships with Memo/)).toBeTruthy();
    for (const name of ["Code Review", "deploy"]) {
      expect(within(row(name)).getByTestId("skill-edit")).toBeTruthy();
      expect(within(row(name)).getByTestId("skill-delete")).toBeTruthy();
    }
  });

  it("creates a skill with the form's fields and shows the list that comes back", async () => {
    const created = skill("Release Notes", "project");
    ipc.changeSkill.mockResolvedValue(page([REVIEW, DEPLOY, created, PDF, CREATOR]));
    render(<SkillsPage cwd="/work/app" onDirtyChange={vi.fn()} />);
    await screen.findAllByTestId("skill-row");

    fireEvent.click(screen.getByTestId("skill-new"));
    const form = screen.getByTestId("skill-form");
    fireEvent.change(screen.getByTestId("skill-name"), { target: { value: "  Release Notes " } });
    fireEvent.change(screen.getByTestId("skill-description"), { target: { value: "Writes release notes from commits" } });
    fireEvent.change(screen.getByTestId("skill-scope"), { target: { value: "project" } });
    fireEvent.change(screen.getByTestId("skill-body"), { target: { value: "Read git log, then write." } });
    expect(within(form).getByText("Mention it as $release-notes")).toBeTruthy();
    fireEvent.click(screen.getByTestId("skill-create"));

    await waitFor(() => expect(screen.queryByTestId("skill-form")).toBeNull());
    expect(ipc.changeSkill).toHaveBeenCalledWith({
      change: {
        type: "create",
        scope: "project",
        name: "Release Notes",
        description: "Writes release notes from commits",
        body: "Read git log, then write.",
      },
      cwd: "/work/app",
    });
    expect(within(screen.getByTestId("skill-group-project")).getAllByTestId("skill-row").map((r) => r.dataset.name)).toEqual([
      "deploy",
      "Release Notes",
    ]);
  });

  it("checks name and description before sending anything", async () => {
    render(<SkillsPage cwd="/work/app" onDirtyChange={vi.fn()} />);
    await screen.findAllByTestId("skill-row");
    fireEvent.click(screen.getByTestId("skill-new"));
    fireEvent.click(screen.getByTestId("skill-create"));
    expect(screen.getByText("A skill needs a name.")).toBeTruthy();
    expect(screen.getByText(/A skill needs a description/)).toBeTruthy();
    expect(screen.getByTestId("skill-name").getAttribute("aria-invalid")).toBe("true");
    expect(ipc.changeSkill).not.toHaveBeenCalled();
  });

  it("names the real Memo home where user skills and the trash are, never ~/.memo", async () => {
    render(<SkillsPage cwd="/work/app" memoHome="/srv/memo-data" onDirtyChange={vi.fn()} />);
    await screen.findAllByTestId("skill-row");
    expect(screen.getByTestId("skill-group-user").textContent).toContain("/srv/memo-data/skills");

    fireEvent.click(within(row("Code Review")).getByTestId("skill-delete"));
    expect(screen.getByTestId("confirm-dialog").textContent).toContain("/srv/memo-data/trash/skills");
    fireEvent.click(screen.getByTestId("confirm-cancel"));

    fireEvent.click(screen.getByTestId("skill-new"));
    const user = within(screen.getByTestId("skill-scope")).getAllByRole("option")[0] as HTMLOptionElement;
    expect(user.title).toBe("/srv/memo-data/skills");
    expect(document.body.textContent).toContain("In /srv/memo-data/skills; available in every project.");
    expect(document.body.textContent).not.toContain("~/.memo");
  });

  it("offers only Memo's folder without an open project", async () => {
    ipc.listSkills.mockResolvedValue(page([REVIEW, CREATOR]));
    render(<SkillsPage cwd={null} onDirtyChange={vi.fn()} />);
    await screen.findAllByTestId("skill-row");
    expect(ipc.listSkills).toHaveBeenCalledWith({ cwd: null });
    expect(screen.queryByTestId("skill-group-project")).toBeNull();
    fireEvent.click(screen.getByTestId("skill-new"));
    const options = within(screen.getByTestId("skill-scope")).getAllByRole("option") as HTMLOptionElement[];
    expect(options.map((o) => o.value)).toEqual(["user"]);
  });

  it("shows the server's reason when it refuses, and keeps the form", async () => {
    ipc.changeSkill.mockRejectedValue(commandError("invalid_input", "/home/me/.memo/skills/code-review already exists; pick another name"));
    render(<SkillsPage cwd="/work/app" onDirtyChange={vi.fn()} />);
    await screen.findAllByTestId("skill-row");
    fireEvent.click(screen.getByTestId("skill-new"));
    fireEvent.change(screen.getByTestId("skill-name"), { target: { value: "Code Review" } });
    fireEvent.change(screen.getByTestId("skill-description"), { target: { value: "again" } });
    fireEvent.click(screen.getByTestId("skill-create"));

    expect((await screen.findByTestId("skills-error")).textContent).toBe(
      "/home/me/.memo/skills/code-review already exists; pick another name",
    );
    expect(screen.getByTestId("skill-form")).toBeTruthy();
    expect((screen.getByTestId("skill-name") as HTMLInputElement).value).toBe("Code Review");
  });

  it("turns a skill on with the config revision it was listed with", async () => {
    ipc.changeSkill.mockResolvedValue(page([REVIEW, { ...DEPLOY, enabled: true }, PDF, CREATOR], { config_revision: "rev-2" }));
    render(<SkillsPage cwd="/work/app" onDirtyChange={vi.fn()} />);
    await screen.findAllByTestId("skill-row");

    fireEvent.click(within(row("deploy")).getByTestId("skill-toggle"));
    await waitFor(() => expect((within(row("deploy")).getByTestId("skill-toggle") as HTMLInputElement).checked).toBe(true));
    expect(ipc.changeSkill).toHaveBeenCalledWith({
      change: { type: "set_enabled", path: DEPLOY.path, enabled: true, config_revision: "rev-1" },
      cwd: "/work/app",
    });

    // The next change uses the revision of the answer.
    fireEvent.click(within(row("pdf")).getByTestId("skill-toggle"));
    await waitFor(() => expect(ipc.changeSkill).toHaveBeenCalledTimes(2));
    expect(ipc.changeSkill).toHaveBeenLastCalledWith({
      change: { type: "set_enabled", path: PDF.path, enabled: false, config_revision: "rev-2" },
      cwd: "/work/app",
    });
  });

  it("reads the list again after a conflict and says so", async () => {
    ipc.changeSkill.mockRejectedValue(commandError("conflict", "config.toml changed on disk since it was opened"));
    render(<SkillsPage cwd="/work/app" onDirtyChange={vi.fn()} />);
    await screen.findAllByTestId("skill-row");
    ipc.listSkills.mockResolvedValue(page([REVIEW, { ...DEPLOY, enabled: true }, PDF, CREATOR], { config_revision: "rev-9" }));

    fireEvent.click(within(row("deploy")).getByTestId("skill-toggle"));
    expect((await screen.findByTestId("skills-error")).textContent).toContain("config.toml changed on disk");
    await waitFor(() => expect((within(row("deploy")).getByTestId("skill-toggle") as HTMLInputElement).checked).toBe(true));
    expect(ipc.listSkills).toHaveBeenCalledTimes(2);
  });

  it("asks before deleting and sends nothing until confirmed", async () => {
    ipc.changeSkill.mockResolvedValue(page([DEPLOY, PDF, CREATOR]));
    render(<SkillsPage cwd="/work/app" onDirtyChange={vi.fn()} />);
    await screen.findAllByTestId("skill-row");

    fireEvent.click(within(row("Code Review")).getByTestId("skill-delete"));
    const dialog = screen.getByTestId("confirm-dialog");
    expect(dialog.textContent).toContain("Delete Code Review?");
    expect(dialog.textContent).toContain("trash");
    fireEvent.click(screen.getByTestId("confirm-cancel"));
    expect(screen.queryByTestId("confirm-dialog")).toBeNull();
    expect(ipc.changeSkill).not.toHaveBeenCalled();

    fireEvent.click(within(row("Code Review")).getByTestId("skill-delete"));
    fireEvent.click(screen.getByTestId("confirm-ok"));
    await waitFor(() => expect(screen.getAllByTestId("skill-row").map((r) => r.dataset.name)).not.toContain("Code Review"));
    expect(ipc.changeSkill).toHaveBeenCalledWith({ change: { type: "delete", path: REVIEW.path }, cwd: "/work/app" });
  });

  it("renames inline", async () => {
    const renamed = { ...REVIEW, name: "Review", path: "/home/me/.memo/skills/review/SKILL.md" };
    ipc.changeSkill.mockResolvedValue(page([renamed, DEPLOY, PDF, CREATOR]));
    render(<SkillsPage cwd="/work/app" onDirtyChange={vi.fn()} />);
    await screen.findAllByTestId("skill-row");

    fireEvent.click(within(row("Code Review")).getByTestId("skill-rename"));
    const input = screen.getByRole("textbox", { name: "New name for Code Review" });
    fireEvent.change(input, { target: { value: "Review" } });
    fireEvent.click(screen.getByTestId("skill-rename-save"));
    await waitFor(() => expect(row("Review")).toBeTruthy());
    expect(ipc.changeSkill).toHaveBeenCalledWith({
      change: { type: "rename", path: REVIEW.path, new_name: "Review" },
      cwd: "/work/app",
    });
    expect(screen.queryByRole("textbox", { name: /New name/ })).toBeNull();
  });

  it("leaves Esc to an input method while it composes, in the rename box and the new-skill form", async () => {
    render(<SkillsPage cwd="/work/app" onDirtyChange={vi.fn()} />);
    await screen.findAllByTestId("skill-row");

    fireEvent.click(within(row("Code Review")).getByTestId("skill-rename"));
    const input = screen.getByTestId("skill-rename-input");
    // Esc that drops a pinyin composition (WebKitGTK marks it, or sends keyCode 229) keeps the rename.
    fireEvent.keyDown(input, { key: "Escape", isComposing: true });
    fireEvent.keyDown(input, { key: "Escape", keyCode: 229 });
    expect(screen.getByTestId("skill-rename-input")).toBeTruthy();
    fireEvent.keyDown(input, { key: "Escape" });
    expect(screen.queryByTestId("skill-rename-input")).toBeNull();

    fireEvent.click(screen.getByTestId("skill-new"));
    const name = screen.getByTestId("skill-name");
    fireEvent.keyDown(name, { key: "Escape", isComposing: true });
    expect(screen.getByTestId("skill-form")).toBeTruthy();
    fireEvent.keyDown(name, { key: "Escape" });
    expect(screen.queryByTestId("skill-form")).toBeNull();
  });

  it("reads in Chinese when the page does, markup and counts included", async () => {
    ipc.listSkills.mockResolvedValue(
      page([REVIEW, DEPLOY], { filtered: false, problems: [{ path: "/a/SKILL.md", message: "x" }, { path: "/b/SKILL.md", message: "y" }] }),
    );
    await setUpI18n("zh");
    try {
      render(<SkillsPage cwd="/work/app" onDirtyChange={vi.fn()} />);
      await screen.findAllByTestId("skill-row");
      expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("技能");
      expect(screen.getByTestId("skills-problems").textContent).toContain("2 个文件无法读取");
      expect(document.querySelector(".skills__note code")?.textContent).toBe("active_skills");
      expect(screen.getByRole("switch", { name: "启用 deploy" })).toBeTruthy();
      fireEvent.click(screen.getByTestId("skill-new"));
      expect((screen.getByTestId("skill-body") as HTMLTextAreaElement).value).toContain("## 步骤");
    } finally {
      setUpI18n("en");
    }
  });

  it("opens the SKILL.md in the editor, passes its dirty state up, and clears it on the way back", async () => {
    const onDirtyChange = vi.fn();
    render(<SkillsPage cwd="/work/app" onDirtyChange={onDirtyChange} />);
    await screen.findAllByTestId("skill-row");

    fireEvent.click(within(row("deploy")).getByTestId("skill-edit"));
    expect(screen.getByTestId("file-editor").dataset.path).toBe(DEPLOY.path);
    fireEvent.click(screen.getByRole("button", { name: "type something" }));
    expect(onDirtyChange).toHaveBeenLastCalledWith(true);

    // Unsaved text: going back asks first.
    fireEvent.click(screen.getByRole("button", { name: "← All skills" }));
    fireEvent.click(screen.getByTestId("confirm-ok"));
    expect(await screen.findByTestId("skills-page")).toBeTruthy();
    expect(onDirtyChange).toHaveBeenLastCalledWith(false);
    expect(screen.queryByTestId("file-editor")).toBeNull();
  });

  it("lists files that could not be read", async () => {
    ipc.listSkills.mockResolvedValue(
      page([REVIEW], { problems: [{ path: "/home/me/.codex/skills/bad/SKILL.md", message: "no front matter" }] }),
    );
    render(<SkillsPage cwd={null} onDirtyChange={vi.fn()} />);
    const problems = await screen.findByTestId("skills-problems");
    expect(problems.textContent).toContain("/home/me/.codex/skills/bad/SKILL.md");
    expect(problems.textContent).toContain("no front matter");
  });
});
