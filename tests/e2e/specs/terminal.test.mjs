// The embedded terminal on the real app and a real PTY: typing `echo` and reading it back,
// a second tab, a shell that exits says so and restarts, closing a tab ends its
// background jobs, and no shell outlives the app. Then an agent's running command is
// watched, read-only, in the terminal panel.
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { countNow, watchCommand } from "../lib/dom.mjs";
import { mockConfigToml, startMockLlm } from "../lib/mock-llm.mjs";

const UI_TIMEOUT_MS = 20_000;
const THEME = process.env.E2E_GTK_THEME ?? "Adwaita";
// Long enough that on two busy cores the card's Watch button is still there when the
// test clicks it (at 0.4 s a tick, CI once saw the command end before the click landed).
const TICKS = "for i in 1 2 3 4 5 6 7 8; do echo tick-$i; sleep 1; done";

const SCENARIO = {
  responses: [
    { tool_calls: [{ name: "exec_command", arguments: JSON.stringify({ cmd: TICKS, yield_time_ms: 15000 }) }] },
    { text: "It ticked." },
  ],
};

const byTestId = (id) => By.css(`[data-testid="${id}"]`);
const alive = (pid) => existsSync(`/proc/${pid}`) && !/\) Z /.test(readStat(pid));
function readStat(pid) {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return "";
  }
}

describe("The terminal panel", { timeout: 300_000 }, () => {
  let mock;
  let app;
  let project;

  before(async () => {
    project = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-term-")));
    mock = await startMockLlm(SCENARIO);
    app = await launchApp({
      // A known shell, whatever the machine's login shell is.
      env: { GTK_THEME: THEME, SHELL: "/bin/bash" },
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
  /** The shown terminal's screen text. */
  const screenText = async () => {
    const views = await app.driver.findElements(By.css(".terminal-panel:not([hidden]) .terminal-view:not([hidden])"));
    if (views.length === 0) return "";
    try {
      return await views[0].findElement(By.css(".xterm-rows")).getAttribute("textContent");
    } catch (error) {
      if (error.name === "StaleElementReferenceError" || error.name === "NoSuchElementError") return "";
      throw error;
    }
  };
  /** The watch view's screen text ("" until xterm.js has loaded and drawn it). */
  const watchText = async (watch) => {
    const rows = await watch.findElements(By.css(".xterm-rows"));
    return rows.length === 0 ? "" : rows[0].getAttribute("textContent");
  };
  const screenShows = async (pattern, what) => {
    let last = "";
    await app.driver
      .wait(async () => pattern.test((last = await screenText())), UI_TIMEOUT_MS)
      .catch((error) => {
        throw new Error(`the terminal never showed ${what}; it shows: ${JSON.stringify(last.slice(-400))}`, { cause: error });
      });
  };
  // WebKit can deliver a shifted character ($, !) after a later plain key: Enter goes
  // only once the shell has echoed the whole line.
  const type = async (text) => {
    // xterm's input is a 1-pixel textarea that follows the cursor, which WebDriver may call
    // not interactable: focus it in the page, then type at the keyboard.
    const input = await app.driver.findElement(
      By.css(".terminal-panel:not([hidden]) .terminal-view:not([hidden]) .xterm-helper-textarea"),
    );
    await app.driver.executeScript("arguments[0].focus();", input);
    await app.driver.actions().sendKeys(text).perform();
    await app.driver.wait(async () => (await screenText()).trimEnd().endsWith(text), UI_TIMEOUT_MS, `the shell never echoed ${text}`);
    await app.driver.actions().sendKeys(Key.ENTER).perform();
  };
  const tabs = () => countNow(app.driver, By.css(".terminal-panel:not([hidden]) [role=tab]"));
  // Keys typed before the shell is connected would be lost: wait for its first output.
  const ready = () => screenShows(/\S/, "anything (the shell did not start)");

  test("echo comes back; a second tab; an exited shell restarts; a closed tab ends its jobs", async () => {
    await app.driver.wait(
      async () => (await (await wait("chat-title")).getAttribute("textContent")) === path.basename(project),
      UI_TIMEOUT_MS,
    );
    await (await wait("toggle-terminal")).click();
    await app.driver.wait(async () => (await tabs()) === 1, UI_TIMEOUT_MS, "no terminal tab opened");
    await ready();
    await type("echo hello-$((6*7)) && pwd");
    await screenShows(/hello-42/, "echo's answer");
    // pwd prints after echo (its own write, drawn a frame later).
    await screenShows(new RegExp(path.basename(project)), "the folder pwd prints (the shell starts in the folder)");
    await shot("terminal - echo");

    // A second tab with a background job; closing the tab ends the job.
    await (await app.driver.findElement(By.css("[aria-label='New terminal']"))).click();
    await app.driver.wait(async () => (await tabs()) === 2, UI_TIMEOUT_MS, "no second tab");
    await ready();
    await type("sleep 1000 & echo JOB=$!");
    await screenShows(/JOB=\d+/, "the job's pid");
    const pid = Number(/JOB=(\d+)/.exec(await screenText())[1]);
    assert.ok(alive(pid), "the background job runs");
    const closeButtons = await app.driver.findElements(By.css(".terminal-panel:not([hidden]) .terminal-tab__close"));
    await closeButtons[closeButtons.length - 1].click();
    await app.driver.wait(async () => (await tabs()) === 1, UI_TIMEOUT_MS, "the tab did not close");
    await app.driver.wait(async () => !alive(pid), 10_000, `sleep ${pid} outlived its terminal`);

    // A shell that exits says so; Restart gives a working shell again.
    await type("exit 3");
    const ended = await app.driver.wait(
      until.elementLocated(By.css(".terminal-panel:not([hidden]) .terminal-view__ended")),
      UI_TIMEOUT_MS,
    );
    assert.match(await ended.getAttribute("textContent"), /3/);
    await shot("terminal - exited");
    await (await ended.findElement(By.css(".terminal-view__restart"))).click();
    await app.driver.wait(async () => (await countNow(app.driver, By.css(".terminal-panel:not([hidden]) .terminal-view__ended"))) === 0, UI_TIMEOUT_MS);
    await type("echo again-$((2+2))");
    await screenShows(/again-4/, "the restarted shell's answer");

    // Dragging the panel's top edge up gives the shell more rows.
    await type("stty size | sed 's/^/SIZE-A /'");
    await screenShows(/SIZE-A \d+ \d+/, "the terminal's size");
    const rowsBefore = Number(/SIZE-A (\d+) \d+/.exec(await screenText())[1]);
    const grip = await app.driver.findElement(By.css(".terminal-dock__grip"));
    await app.driver.actions().move({ origin: grip }).press().move({ origin: grip, y: -120 }).release().perform();
    await type("stty size | sed 's/^/SIZE-B /'");
    await screenShows(/SIZE-B \d+ \d+/, "the terminal's new size");
    const rowsAfter = Number(/SIZE-B (\d+) \d+/.exec(await screenText())[1]);
    assert.ok(rowsAfter > rowsBefore, `rows ${rowsBefore} -> ${rowsAfter} after making the panel taller`);
    await shot("terminal - taller");
  });

  test("an agent's running command is watched read-only in the panel", async () => {
    const message = await app.driver.findElement(By.css("textarea[aria-label='Message']"));
    await shot("terminal - before asking the agent");
    await message.sendKeys("tick please", Key.ENTER);
    const card = await app.driver.wait(
      until.elementLocated(By.css('[data-testid="approval-card"][data-state="pending"]')),
      UI_TIMEOUT_MS,
    );
    await (await card.findElement(By.xpath(".//button[normalize-space()='Approve once']"))).click();
    const watch = await watchCommand(app.driver, UI_TIMEOUT_MS);
    await app.driver.wait(
      async () => /tick-[2-8]/.test(await watchText(watch)),
      UI_TIMEOUT_MS,
      "the watched command's output never showed",
    );
    await shot("terminal - watching the agent's command");
    await app.driver.wait(
      async () => /Finished/.test(await (await wait("terminal-watch")).getAttribute("textContent")),
      UI_TIMEOUT_MS,
      "the watch did not say the command finished",
    );
    // xterm.js draws what it is given a frame later: the last line may follow "Finished".
    await app.driver.wait(async () => /tick-8/.test(await watchText(watch)), UI_TIMEOUT_MS, "the watch never showed tick-8");
    await (await wait("terminal-watch-close")).click();
    // Back to the shell tabs, which kept running.
    await screenShows(/again-4/, "the shell tab, kept");
  });

  test("removing the folder from the list ends its shells", async () => {
    await type("sleep 1002 & echo GONE=$!");
    await screenShows(/GONE=\d+/, "the job's pid");
    const pid = Number(/GONE=(\d+)/.exec(await screenText())[1]);
    assert.ok(alive(pid));
    // The remove button shows on hover.
    const row = await app.driver.findElement(By.css('[data-testid="workspace-row"]'));
    await app.driver.actions().move({ origin: row }).perform();
    await (await row.findElement(By.css(`[aria-label="Remove ${path.basename(project)} from the list"]`))).click();
    await app.driver.wait(async () => !alive(pid), 10_000, `sleep ${pid} outlived its folder`);
    // Back again, with a fresh terminal.
    await (await wait("workspace-add")).click();
    await (await wait("workspace-path-input")).sendKeys(project);
    await (await wait("workspace-path-open")).click();
    await app.driver.wait(
      async () => (await (await wait("chat-title")).getAttribute("textContent")) === path.basename(project),
      UI_TIMEOUT_MS,
    );
    // The panel stays shown when its folder goes; the reopened folder's tab comes a moment after
    // the title (two effects later), so open the panel only if it is hidden, not if no tab is there yet.
    if ((await (await wait("terminal-dock")).getAttribute("hidden")) !== null) await (await wait("toggle-terminal")).click();
    await app.driver.wait(async () => (await tabs()) === 1, UI_TIMEOUT_MS, "no terminal after reopening the folder");
    await ready();
  });

  test("no shell outlives the app", async () => {
    await type("sleep 1001 & echo LAST=$!");
    await screenShows(/LAST=\d+/, "the job's pid");
    const pid = Number(/LAST=(\d+)/.exec(await screenText())[1]);
    assert.ok(alive(pid));
    const leftovers = await app.stop();
    app = null;
    assert.deepEqual(leftovers, [], "processes outlived the app");
    assert.ok(!alive(pid), `sleep ${pid} outlived the app`);
  });
});
