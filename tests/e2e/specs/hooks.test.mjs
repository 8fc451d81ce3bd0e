// Claude Code hooks on the real app: a folder whose .claude/settings.json has a PreToolUse
// hook lists it in the trust prompt; once trusted, the hook blocks the agent's command
// (exit 2): the command never runs, the transcript shows which hook blocked it and why,
// and the model is told the reason.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { countNow } from "../lib/dom.mjs";
import { mockConfigToml, startMockLlm } from "../lib/mock-llm.mjs";

const UI_TIMEOUT_MS = 20_000;
const THEME = process.env.E2E_GTK_THEME ?? "Adwaita";
const REASON = "Deleting files is reviewed by the team first";

const byTestId = (id) => By.css(`[data-testid="${id}"]`);

describe("A project's PreToolUse hook", { timeout: 120_000 }, () => {
  let mock;
  let app;
  let project;
  let victim;

  before(async () => {
    project = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-hooks-")));
    victim = path.join(project, "build");
    mkdirSync(victim);
    writeFileSync(path.join(victim, "keep.txt"), "still here\n");
    mkdirSync(path.join(project, ".claude"));
    writeFileSync(
      path.join(project, ".claude", "settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            { matcher: "Bash", hooks: [{ type: "command", command: `echo '${REASON}' >&2; exit 2`, timeout: 10 }] },
          ],
        },
      }),
    );
    mock = await startMockLlm({
      responses: [
        { tool_calls: [{ name: "exec_command", arguments: JSON.stringify({ cmd: "rm -rf build" }) }] },
        { text: "Understood: I left the build folder alone." },
      ],
    });
    app = await launchApp({
      env: { GTK_THEME: THEME, MEMO_MCP_LOGIN_SHELL: "0" },
      args: [project],
      homeFiles: { "config.toml": mockConfigToml(mock.baseUrl) },
    });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    if (project) rmSync(project, { recursive: true, force: true });
  });

  const wait = (id) => app.driver.wait(until.elementLocated(byTestId(id)), UI_TIMEOUT_MS);
  const shot = (name) => app.screenshot(`${name}${THEME.includes("dark") ? " (dark)" : ""}`).catch(() => {});

  test("is listed in the trust prompt", async () => {
    const dialog = await wait("trust-dialog");
    assert.match(await dialog.getText(), /PreToolUse/);
    await shot("trust prompt listing a hook");
    await (await app.driver.findElement(byTestId("trust-accept"))).click();
    await app.driver.wait(async () => (await countNow(app.driver, byTestId("trust-dialog"))) === 0, UI_TIMEOUT_MS, "the trust dialog stays");
  });

  test("blocks the agent's command, says which hook and why, and the model is told", async () => {
    const message = await app.driver.findElement(By.css("textarea[aria-label='Message']"));
    await message.sendKeys("clean the build folder", Key.ENTER);
    await app.driver.wait(until.elementLocated(By.css('[data-testid="turn"][data-status="completed"]')), UI_TIMEOUT_MS);
    const line = await wait("hook-line");
    const text = await line.getAttribute("textContent");
    assert.match(text, /PreToolUse hook blocked/);
    assert.match(text, /blocked/i);
    assert.match(text, new RegExp(REASON));
    assert.ok(existsSync(path.join(victim, "keep.txt")), "the blocked command ran");
    const requests = await mock.requests();
    assert.equal(requests.length, 2);
    assert.match(JSON.stringify(requests[1]), new RegExp(REASON));
    await app.driver.executeScript("arguments[0].scrollIntoView({ block: 'center' });", line);
    await shot("a hook blocked the agent's command");
  });
});
