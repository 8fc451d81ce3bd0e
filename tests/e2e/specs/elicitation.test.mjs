// An MCP server asking for input mid-call, on the real app: the model calls
// server-everything's trigger-elicitation-request, the conversation shows the server's
// form, the person fills it in and sends it, and the tool's result carries what was sent.
import assert from "node:assert/strict";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { everythingToml } from "../lib/paths.mjs";
import { mockConfigToml, startMockLlm } from "../lib/mock-llm.mjs";

const UI_TIMEOUT_MS = 30_000;
const THEME = process.env.E2E_GTK_THEME ?? "Adwaita";
const byTestId = (id) => By.css(`[data-testid="${id}"]`);

describe("An MCP server's request for input", { timeout: 180_000 }, () => {
  let mock;
  let app;
  let project;

  before(async () => {
    project = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-elicit-")));
    mock = await startMockLlm({
      responses: [
        { tool_calls: [{ name: "everything__trigger-elicitation-request", arguments: "{}" }] },
        { text: "Thanks for the details." },
      ],
    });
    const config = `${mockConfigToml(mock.baseUrl)}${everythingToml()}`;
    app = await launchApp({
      env: { GTK_THEME: THEME, MEMO_MCP_LOGIN_SHELL: "0" },
      args: [project],
      homeFiles: { "config.toml": config },
    });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    if (project) rmSync(project, { recursive: true, force: true });
  });

  const wait = (id, root = app.driver) => app.driver.wait(until.elementLocated(byTestId(id)), UI_TIMEOUT_MS).then(() => root.findElement(byTestId(id)));
  const shot = (name) => app.screenshot(`${name}${THEME.includes("dark") ? " (dark)" : ""}`).catch(() => {});

  test("the form reaches the person and their answer reaches the server", async () => {
    await app.driver.wait(
      async () => (await (await wait("chat-title")).getAttribute("textContent")) === path.basename(project),
      UI_TIMEOUT_MS,
    );
    const message = await app.driver.findElement(By.css("textarea[aria-label='Message']"));
    await message.sendKeys("ask me for my details", Key.ENTER);
    const card = await app.driver.wait(
      until.elementLocated(By.css('[data-testid="approval-card"][data-state="pending"]')),
      UI_TIMEOUT_MS,
    );
    await (await card.findElement(By.xpath(".//button[normalize-space()='Approve once']"))).click();
    const form = await app.driver.wait(
      until.elementLocated(By.css('[data-testid="elicitation"][data-state="pending"]')),
      UI_TIMEOUT_MS,
      "the server's form did not appear",
    );
    assert.match(await form.getAttribute("textContent"), /everything/);
    await (await form.findElement(byTestId("elicit-name"))).sendKeys("Ada Lovelace");
    await (await form.findElement(byTestId("elicit-check"))).click();
    await shot("an MCP server asking for input");
    await (await form.findElement(byTestId("elicit-submit"))).click();
    await app.driver.wait(
      until.elementLocated(By.css('[data-testid="elicitation"][data-state="accept"]')),
      UI_TIMEOUT_MS,
    );
    await app.driver.wait(
      until.elementLocated(By.css('[data-testid="turn"][data-status="completed"]')),
      UI_TIMEOUT_MS,
    );
    const requests = await mock.requests();
    const last = JSON.stringify(requests[requests.length - 1]);
    assert.match(last, /Ada Lovelace/, "the tool's result (sent back to the model) carries the answer");
    await shot("after answering an MCP server");
  });
});
