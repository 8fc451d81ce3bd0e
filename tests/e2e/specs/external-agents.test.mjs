// Another agent in Memo's window: Claude Code's ACP agent (npm, tests/acp) pointed at the
// mock LLM is added in Settings → External agents, checked, picked for a new session, and
// its edit is asked on Memo's approval card, written, shown in the changes panel and
// reverted there by hunk; its command runs on Memo's terminal and shows on its card. Then
// Memo's own agent (`memo-cli acp`, in a home of its own) runs as an external agent, and
// the context it reports shows in the header's meter.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { specHelpers, watchCommand } from "../lib/dom.mjs";
import { mockConfigToml, startMockLlm } from "../lib/mock-llm.mjs";
import { repoRoot } from "../lib/paths.mjs";

const UI_TIMEOUT_MS = 30_000;
const THEME = process.env.E2E_GTK_THEME ?? "Adwaita";
// E2E_LANGUAGE=zh runs it in Chinese, as a desktop set to zh_CN gives it, to look at.
const ZH = process.env.E2E_LANGUAGE === "zh";
const WORDS = ZH
  ? { once: "仅批准一次", overwrite: "覆盖 a\\.txt", answered: /Claude Code 0\.16\.2 在 \d+ 毫秒内作出了应答/, page: /外部智能体/, who: /claude 通过智能体客户端协议在这里作答/ }
  : { once: "Approve once", overwrite: "overwrite a\\.txt", answered: /Claude Code 0\.16\.2 answered/, page: /Claude Code/, who: /claude answers here/ };
const LANGUAGE_ENV = ZH ? { LANG: "zh_CN.UTF-8", LANGUAGE: "zh_CN:zh", LC_ALL: "" } : {};
const A = "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\neleven\ntwelve\n";
const PROMPT = "Please tidy a.txt";
const AGENT = path.join(repoRoot, "tests/acp/node_modules/@zed-industries/claude-code-acp/dist/index.js");
const MEMO_CLI = path.join(repoRoot, "target/debug/memo-cli");
const HELLO = "Say hello from the inner Memo";

describe("an external agent in the window", { timeout: 240_000 }, () => {
  let mock;
  let app;
  let project;
  let userHome;
  let innerHome;
  const helpers = specHelpers(() => app, { theme: THEME, timeoutMs: UI_TIMEOUT_MS });
  const { wait, button } = helpers;
  const shot = (name) => helpers.shot(ZH ? `${name} (zh)` : name);
  const read = () => readFileSync(path.join(project, "a.txt"), "utf8");
  const edit = (id, old, fresh) => ({
    when: PROMPT,
    tool_calls: [
      { id, name: "mcp__acp__Edit", arguments: JSON.stringify({ file_path: path.join(project, "a.txt"), old_string: old, new_string: fresh }) },
    ],
  });

  before(async () => {
    assert.ok(existsSync(AGENT), "Claude Code's ACP agent is not installed: run `npm ci` in tests/acp");
    project = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-external-")));
    writeFileSync(path.join(project, "a.txt"), A);
    userHome = mkdtempSync(path.join(tmpdir(), "memo-e2e-claude-home-"));
    mkdirSync(path.join(userHome, ".claude"));
    mock = await startMockLlm({
      responses: [
        // Claude Code's one-word token count, once per session.
        { when: '"count"', text: "x" },
        { ...edit("toolu_w1", "two\n", "TWO\n"), text: "Tidying the numbers." },
        edit("toolu_w2", "eleven\n", "ELEVEN\n"),
        {
          when: PROMPT,
          tool_calls: [
            {
              id: "toolu_w3",
              name: "mcp__acp__Bash",
              arguments: JSON.stringify({
                command: "for i in 1 2 3 4 5 6; do echo tick-$i; sleep 0.5; done; grep -c '[A-Z]' a.txt",
                timeout: 20000,
                description: "Count capitals",
              }),
            },
          ],
        },
        { when: PROMPT, text: "Two lines are in capitals now." },
        { when: HELLO, text: "Hello from Memo's own agent." },
      ],
    });
    // Memo's own agent, with a home of its own on the same mock.
    innerHome = mkdtempSync(path.join(tmpdir(), "memo-e2e-inner-home-"));
    writeFileSync(path.join(innerHome, "config.toml"), mockConfigToml(mock.baseUrl));
    const memoAgent = `\n[external_agents.memo]\ncommand = ${JSON.stringify(MEMO_CLI)}\nargs = ["acp"]\nenv = { MEMO_HOME = ${JSON.stringify(innerHome)} }\n`;
    app = await launchApp({
      env: { GTK_THEME: THEME, ...LANGUAGE_ENV },
      args: [project],
      homeFiles: { "config.toml": mockConfigToml(mock.baseUrl) + memoAgent },
    });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    for (const dir of [project, userHome, innerHome]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("is added and checked in Settings → External agents", async () => {
    await (await wait("open-settings")).click();
    await (await wait("settings-nav-externalAgents")).click();
    const page = await wait("external-agents-page");
    assert.match(await page.getText(), WORDS.page);
    await (await wait("external-agent-preset-custom")).click();
    await (await wait("external-agent-name")).sendKeys("claude");
    await (await wait("external-agent-command")).sendKeys("node");
    await (await wait("external-agent-args")).sendKeys(AGENT);
    const env = [
      `ANTHROPIC_BASE_URL=${mock.baseUrl}`,
      `HOME=${userHome}`,
      `CLAUDE_CONFIG_DIR=${path.join(userHome, ".claude")}`,
      "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
      "DISABLE_TELEMETRY=1",
      "DISABLE_AUTOUPDATER=1",
      // Claude Code refuses to run as root otherwise (CI runs as root).
      "IS_SANDBOX=1",
      "ANTHROPIC_API_KEY=test-key",
    ];
    // One line each: WebKit's driver types no "\n", but an Enter in a textarea is a new line.
    const envField = await wait("external-agent-env");
    for (const line of env) await envField.sendKeys(line, Key.ENTER);
    await (await wait("external-agent-save")).click();
    const card = await app.driver.wait(until.elementLocated(By.css('[data-testid="external-agent"][data-name="claude"]')), UI_TIMEOUT_MS);
    await (await card.findElement(By.css('[data-testid="external-agent-check-button"]'))).click();
    const check = await app.driver.wait(until.elementLocated(By.css('[data-testid="external-agent-check"]')), 60_000);
    assert.equal(await check.getAttribute("data-ok"), "true", await check.getText());
    assert.match(await check.getText(), WORDS.answered);
    await shot("external agents - settings, checked");
    const config = readFileSync(path.join(app.memoHome, "config.toml"), "utf8");
    assert.match(config, /\[external_agents\.claude\]/);
    assert.match(config, /IS_SANDBOX = "1"/, "each line of the environment is a variable of its own");
    await (await wait("settings-close")).click();
  });

  test("runs a session whose edits ask on Memo's card, land, show in the changes panel and revert by hunk", async (t) => {
    t.after(() => shot("external agents - at the end"));
    const select = await wait("model-select");
    await (await select.findElement(By.css('option[value="acp:claude"]'))).click();
    // The new session says who will answer.
    await app.driver.wait(async () => WORDS.who.test(await (await wait("chat-new-session")).getText()), UI_TIMEOUT_MS);
    const message = await app.driver.findElement(By.css('[data-testid="composer"] textarea'));
    await message.sendKeys(PROMPT, Key.ENTER);
    // Memo's own words for each question: the file it overwrites, the command it runs.
    for (const expected of [WORDS.overwrite, WORDS.overwrite, "grep -c"]) {
      const card = await app.driver.wait(
        until.elementLocated(By.css('[data-testid="approval-card"][data-state="pending"]')),
        60_000,
        `no approval card for ${expected}`,
      );
      assert.match(await card.getText(), new RegExp(expected));
      if (read() === A) await shot("external agents - approval card");
      await (await button(card, WORDS.once)).click();
      await app.driver.wait(async () => (await card.getAttribute("data-state")) !== "pending", UI_TIMEOUT_MS);
      if (expected === "grep -c") {
        // The agent's command runs on Memo's PTY: watched live, read-only, in the terminal
        // panel, as Memo's own commands are.
        const watch = await watchCommand(app.driver, UI_TIMEOUT_MS);
        await app.driver.wait(
          async () => {
            // xterm.js draws its rows once it has laid out.
            const rows = await watch.findElements(By.css(".xterm-rows"));
            return rows.length > 0 && /tick-[2-6]/.test(await rows[0].getAttribute("textContent"));
          },
          UI_TIMEOUT_MS,
          "the agent's command did not show in the terminal panel",
        );
        await shot("external agents - its command watched in the terminal panel");
      }
    }
    await app.driver.wait(until.elementLocated(By.css('[data-testid="turn"][data-status="completed"]')), 60_000);
    assert.equal(read(), A.replace("two", "TWO").replace("eleven", "ELEVEN"));
    const turn = await wait("turn");
    const text = await turn.getText();
    assert.match(text, /Two lines are in capitals now\./);
    assert.match(text, /grep -c/);
    await (await wait("terminal-watch-close")).click();
    // The header names the agent the session runs on.
    // (Its own mode and model menus beside it may leave the name to the pill's tooltip.)
    assert.match(await (await wait("chat-model")).getAttribute("title"), /claude/);
    await shot("external agents - the agent's turn");

    await (await wait("open-changes")).click();
    const panel = await wait("changes-panel");
    const row = await app.driver.wait(
      until.elementLocated(By.css('[data-testid="changed-file"][data-path="a.txt"]')),
      UI_TIMEOUT_MS,
    );
    await (await row.findElement(By.css(".changes__toggle"))).click();
    const hunks = await app.driver.wait(async () => {
      const found = await row.findElements(By.css('[data-testid="changes-hunk"]'));
      return found.length === 2 ? found : null;
    }, UI_TIMEOUT_MS, "the agent's two edits are not two hunks");
    await shot("external agents - changes panel");
    await (await hunks[0].findElement(By.css('[data-testid="revert-hunk"]'))).click();
    await app.driver.wait(() => read() === A.replace("eleven", "ELEVEN"), UI_TIMEOUT_MS, "the hunk was not reverted on disk");
    assert.ok(panel);
  });

  test("runs Memo's own agent as an external agent, with the context it reports in the meter", async () => {
    // The changes panel of the last test takes the header's room.
    if ((await app.driver.findElements(By.css('[data-testid="changes-panel"]'))).length > 0) await (await wait("open-changes")).click();
    await (await wait("new-session")).click();
    const select = await wait("model-select");
    await (await select.findElement(By.css('option[value="acp:memo"]'))).click();
    const message = await app.driver.findElement(By.css('[data-testid="composer"] textarea'));
    await message.sendKeys(HELLO, Key.ENTER);
    await app.driver.wait(
      async () => (await app.driver.findElements(By.css('[data-testid="turn"][data-status="completed"]'))).length > 0,
      60_000,
      "the inner Memo's turn did not complete",
    );
    assert.match(await (await wait("turn")).getText(), /Hello from Memo's own agent\./);
    // The agent's own figures: shown, but no way into Memo's prompt inspector.
    const meter = await app.driver.wait(until.elementLocated(By.css('[data-testid="context-meter"]')), UI_TIMEOUT_MS, "no context meter");
    assert.equal(await meter.getTagName(), "span");
    assert.match(await meter.getAttribute("title"), /Memo/);
    assert.ok(Number(await meter.getAttribute("data-percent")) >= 0);
    await shot("external agents - Memo's own agent, its context in the meter");
    // The agent's own settings are menus in the header, as it words them: a pick goes to
    // the agent (session/set_mode) and the menu shows what it answered.
    const mode = await app.driver.wait(until.elementLocated(By.css('[data-testid="agent-setting-mode"]')), UI_TIMEOUT_MS, "no menu of the agent's modes");
    const modes = await Promise.all((await mode.findElements(By.css("option"))).map((o) => o.getAttribute("value")));
    assert.deepEqual(modes, ["auto", "strict", "dangerous"]);
    assert.ok(await app.driver.findElement(By.css('[data-testid="agent-setting-model"]')), "no menu of the agent's models");
    await (await mode.findElement(By.css('option[value="strict"]'))).click();
    await app.driver.wait(
      async () => (await (await wait("agent-setting-mode")).getAttribute("value")) === "strict",
      UI_TIMEOUT_MS,
      "the agent's answer to the pick did not show",
    );
    await shot("external agents - the agent's own mode and model in the header");
  });
});
