// A session in its own git worktree on the real app: started from the sidebar, the agent's
// edit lands in the worktree and never in the checkout the user has open; the worktree
// panel shows the change; discarding lists what would be lost and can be called off; a
// merge brings the change back to the base branch.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { countNow } from "../lib/dom.mjs";
import { mockConfigToml, startMockLlm } from "../lib/mock-llm.mjs";

const UI_TIMEOUT_MS = 20_000;
const THEME = process.env.E2E_GTK_THEME ?? "Adwaita";

const SCENARIO = {
  responses: [
    { tool_calls: [{ name: "write_file", arguments: JSON.stringify({ file_path: "app.txt", content: "version two\n" }) }] },
    { text: "Changed app.txt in the worktree." },
  ],
};

const byTestId = (id) => By.css(`[data-testid="${id}"]`);
const git = (cwd, ...args) =>
  execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], { cwd, encoding: "utf8" });

describe("A session in its own worktree", { timeout: 240_000 }, () => {
  let mock;
  let app;
  let repo;
  let home;

  before(async () => {
    repo = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-wt-repo-")));
    home = mkdtempSync(path.join(tmpdir(), "memo-e2e-wt-home-"));
    git(repo, "init", "-q", "-b", "main");
    writeFileSync(path.join(repo, "app.txt"), "version one\n");
    git(repo, "add", "app.txt");
    git(repo, "commit", "-q", "-m", "first");
    mock = await startMockLlm(SCENARIO);
    app = await launchApp({
      env: { GTK_THEME: THEME },
      args: [repo],
      home,
      homeFiles: { "config.toml": mockConfigToml(mock.baseUrl) },
    });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    for (const dir of [repo, home]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const wait = (id) => app.driver.wait(until.elementLocated(byTestId(id)), UI_TIMEOUT_MS);
  const shot = (name) => app.screenshot(`${name}${THEME.includes("dark") ? " (dark)" : ""}`).catch(() => {});

  test("the agent's edit stays in the worktree until merged", async () => {
    await app.driver.wait(
      async () => (await (await wait("chat-title")).getAttribute("textContent")) === path.basename(repo),
      UI_TIMEOUT_MS,
    );
    // The sidebar settles first (the folder's session list loads and moves what is below
    // it): a click located before that can land on another row.
    await wait("sessions-empty");
    const nameField = () => countNow(app.driver, byTestId("new-worktree-name"));
    for (let attempt = 0; attempt < 3 && (await nameField()) !== 1; attempt++) {
      await (await wait("new-worktree-session")).click();
      await app.driver.wait(async () => (await nameField()) === 1, 3000).catch(() => {});
    }
    await (await wait("new-worktree-name")).sendKeys("fix-it");
    await (await wait("new-worktree-start")).click();
    const toggle = await wait("open-worktree");
    assert.match(await toggle.getAttribute("textContent"), /fix-it/);
    assert.equal(await (await wait("worktree-list")).findElements(byTestId("worktree-row")).then((r) => r.length), 1);

    const message = await app.driver.findElement(By.css("textarea[aria-label='Message']"));
    // The new session shows before its events are read; the composer is disabled until then.
    await app.driver.wait(until.elementIsEnabled(message), UI_TIMEOUT_MS, "the worktree session's composer stays disabled");
    await message.sendKeys("change the version", Key.ENTER);
    const card = await app.driver.wait(
      until.elementLocated(By.css('[data-testid="approval-card"][data-state="pending"]')),
      UI_TIMEOUT_MS,
    );
    await (await card.findElement(By.xpath(".//button[normalize-space()='Approve once']"))).click();
    await app.driver.wait(
      until.elementLocated(By.css('[data-testid="turn"][data-status="completed"]')),
      UI_TIMEOUT_MS,
      "the turn did not complete",
    );
    // The checkout the user has open is untouched; the worktree holds the edit.
    assert.equal(readFileSync(path.join(repo, "app.txt"), "utf8"), "version one\n");
    const worktrees = JSON.parse(readFileSync(path.join(home, "worktrees.json"), "utf8"));
    const entries = Array.isArray(worktrees) ? worktrees : (worktrees.worktrees ?? []);
    assert.equal(entries.length, 1);
    assert.equal(readFileSync(path.join(entries[0].path, "app.txt"), "utf8"), "version two\n");

    await toggle.click();
    const file = await app.driver.wait(until.elementLocated(By.css('[data-testid="worktree-file"][data-path="app.txt"]')), UI_TIMEOUT_MS);
    assert.ok(file);
    await shot("worktrees - the session's own branch");

    // Discarding lists exactly what would be lost, and can be called off.
    await (await wait("worktree-discard")).click();
    const losses = await wait("discard-list");
    assert.match(await losses.getAttribute("textContent"), /app\.txt/);
    await shot("worktrees - discard lists the losses");
    await (await wait("confirm-cancel")).click();

    await (await wait("worktree-message")).sendKeys("Bump the version");
    await (await wait("worktree-merge")).click();
    await wait("worktree-merged");
    assert.equal(readFileSync(path.join(repo, "app.txt"), "utf8"), "version two\n");
    assert.match(git(repo, "log", "--format=%s", "-n", "3"), /Bump the version/);
    await shot("worktrees - merged");
  });
});
