// Two folders at once on the real app: a turn in one waits for approval while the other
// folder is used and runs a whole turn; the sidebar says which session needs the user,
// the window title counts it, and it is approved from the sidebar without opening it.
// Then a desktop notification (a real daemon, dunst, on the test's session bus) about a
// session out of sight is clicked and opens that session at its approval.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { after, before, describe, test } from "node:test";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { countNow } from "../lib/dom.mjs";
import { mockConfigToml, startMockLlm } from "../lib/mock-llm.mjs";
import { stopProcessGroup } from "../lib/processes.mjs";

const UI_TIMEOUT_MS = 20_000;
const THEME = process.env.E2E_GTK_THEME ?? "Adwaita";
const exec = (cmd, extra = {}) => ({ tool_calls: [{ name: "exec_command", arguments: JSON.stringify({ cmd }) }], ...extra });

const SCENARIO = {
  responses: [
    exec("touch from-a.txt"), // A's first turn asks
    { text: "Hello from B." }, // B's turn, while A waits
    { text: "Created from-a.txt." }, // A, once approved from the sidebar
    // A's second turn asks a while later, when B is in front: a notification.
    exec("touch notified.txt", { first_byte_delay_ms: 2500 }),
    { text: "Created notified.txt." },
  ],
};

const byTestId = (id) => By.css(`[data-testid="${id}"]`);

/** Whether a notification daemon owns its bus name on this session bus. */
function notificationsOwned() {
  const out = spawnSync(
    "dbus-send",
    [
      "--session",
      "--print-reply=literal",
      "--dest=org.freedesktop.DBus",
      "/",
      "org.freedesktop.DBus.NameHasOwner",
      "string:org.freedesktop.Notifications",
    ],
    { encoding: "utf8" },
  );
  return out.status === 0 && out.stdout.includes("true");
}

function dunstctl(...args) {
  const out = spawnSync("dunstctl", args, { encoding: "utf8" });
  if (out.status !== 0) throw new Error(`dunstctl ${args.join(" ")} failed: ${out.stderr}`);
  return out.stdout.trim();
}

describe("Several folders and sessions at once", { timeout: 300_000 }, () => {
  let mock;
  let app;
  let folderA;
  let folderB;
  let dunst;

  before(async () => {
    folderA = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-ws-a-")));
    folderB = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-ws-b-")));
    mock = await startMockLlm(SCENARIO);
    // A real notification daemon on this session bus, started before the app.
    assert.ok(!notificationsOwned(), "another notification daemon already runs on this bus");
    dunst = spawn("dunst", [], { detached: true, stdio: "ignore" });
    for (let i = 0; i < 100 && !notificationsOwned(); i++) await sleep(100);
    assert.ok(notificationsOwned(), "dunst did not take org.freedesktop.Notifications");
    app = await launchApp({
      env: { GTK_THEME: THEME },
      args: [folderA],
      homeFiles: { "config.toml": mockConfigToml(mock.baseUrl) },
    });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    await mock?.stop().catch(() => {});
    if (dunst) await stopProcessGroup(dunst, 3000).catch(() => {});
    for (const dir of [folderA, folderB]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const wait = (id) => app.driver.wait(until.elementLocated(byTestId(id)), UI_TIMEOUT_MS);
  const shot = (name) => app.screenshot(`${name}${THEME.includes("dark") ? " (dark)" : ""}`).catch(() => {});
  const title = async () => (await wait("chat-title")).getAttribute("textContent");
  const inFolder = async (folder) =>
    app.driver.wait(async () => (await title()) === path.basename(folder), UI_TIMEOUT_MS, `${folder} is not in front`);
  const send = async (text) => {
    const message = await app.driver.findElement(By.css("textarea[aria-label='Message']"));
    await message.sendKeys(text, Key.ENTER);
  };
  const completedTurns = (count) =>
    app.driver.wait(
      async () => (await countNow(app.driver, By.css('[data-testid="turn"][data-status="completed"]'))) === count,
      UI_TIMEOUT_MS,
      `${count} completed turn(s) expected in front`,
    );
  const activeState = async (label) => {
    for (const row of await app.driver.findElements(byTestId("active-row"))) {
      try {
        if ((await row.getAttribute("textContent")).includes(label)) {
          return (await row.findElement(byTestId("session-status"))).getAttribute("data-state");
        }
      } catch (error) {
        if (error.name !== "StaleElementReferenceError" && error.name !== "NoSuchElementError") throw error;
      }
    }
    return null;
  };
  // Clicks the folder's row until it is in front (a row can go stale while the list re-renders).
  const showFolder = async (folder) =>
    app.driver.wait(
      async () => {
        try {
          for (const item of await app.driver.findElements(byTestId("workspace-item"))) {
            if ((await item.getAttribute("textContent")).includes(path.basename(folder))) await item.click();
          }
        } catch (error) {
          if (error.name !== "StaleElementReferenceError") throw error;
        }
        return (await title()) === path.basename(folder);
      },
      UI_TIMEOUT_MS,
      `${folder} did not come to the front`,
    );
  const openFolder = async (folder) => {
    await (await wait("workspace-add")).click();
    await (await wait("workspace-path-input")).sendKeys(folder);
    await (await wait("workspace-path-open")).click();
    await inFolder(folder);
  };

  test("a turn waits for approval in one folder while the other runs a whole turn", async () => {
    await inFolder(folderA);
    await send("make a file");
    await app.driver.wait(until.elementLocated(By.css('[data-testid="approval-card"][data-state="pending"]')), UI_TIMEOUT_MS);

    await openFolder(folderB);
    // A's session waits, out of sight: the Active list says so with the command.
    await app.driver.wait(async () => (await activeState("make a file")) === "waiting", UI_TIMEOUT_MS, "A is not shown waiting");
    const approval = await wait("active-approval");
    assert.match(await approval.getAttribute("textContent"), /touch from-a\.txt/);
    await app.driver.wait(async () => (await app.driver.getTitle()) === "Memo (1)", UI_TIMEOUT_MS, "the window title does not count it");

    await send("hi");
    await completedTurns(1);
    assert.match(await (await app.driver.findElement(By.css("main"))).getAttribute("textContent"), /Hello from B\./);
    await shot("workspaces - one waits while the other answers");

    // Approved from the sidebar: A's turn finishes out of sight and is marked unread.
    await (await wait("sidebar-approve")).click();
    await app.driver.wait(async () => (await activeState("make a file")) === "unread", UI_TIMEOUT_MS, "A is not marked finished");
    await app.driver.wait(async () => (await app.driver.getTitle()) === "Memo", UI_TIMEOUT_MS, "the count did not clear");
    assert.ok(existsSync(path.join(folderA, "from-a.txt")), "the approved command ran in A");
    assert.ok(!existsSync(path.join(folderB, "from-a.txt")), "and nowhere else");
    await shot("workspaces - finished out of sight");

    // Opening it from the Active list: its folder and its whole turn, then read.
    await (await wait("active-open")).click();
    await inFolder(folderA);
    await completedTurns(1);
    assert.match(await (await app.driver.findElement(By.css("main"))).getAttribute("textContent"), /Created from-a\.txt\./);
    await app.driver.wait(async () => (await countNow(app.driver, byTestId("active-row"))) === 0, UI_TIMEOUT_MS, "still unread");
    // B kept its conversation.
    const rows = await app.driver.findElements(byTestId("workspace-item"));
    assert.equal(rows.length, 2);
  });

  test("a remembered folder that is gone is shown as missing, not opened", async () => {
    const gone = realpathSync(mkdtempSync(path.join(tmpdir(), "memo-e2e-ws-gone-")));
    await openFolder(gone);
    await showFolder(folderA);
    rmSync(gone, { recursive: true, force: true });
    // Coming back to the window checks the folders again.
    await app.driver.executeScript("window.dispatchEvent(new Event('focus'))");
    const row = await app.driver.wait(until.elementLocated(By.css('[data-testid="workspace-row"][data-missing="true"]')), UI_TIMEOUT_MS);
    assert.match(await row.getAttribute("textContent"), /Missing/);
    await shot("workspaces - a missing folder");
    // Clicking it opens nothing; folder A stays in front.
    await (await row.findElement(byTestId("workspace-item"))).click();
    await inFolder(folderA);
    // Taken off the list.
    await app.driver.actions().move({ origin: row }).perform();
    await (await row.findElement(By.css(`[aria-label="Remove ${path.basename(gone)} from the list"]`))).click();
    await app.driver.wait(async () => (await countNow(app.driver, By.css('[data-missing="true"]'))) === 0, UI_TIMEOUT_MS);
  });

  test("a notification about a session out of sight opens it at its approval", async () => {
    dunstctl("close-all");
    await send("another file, please");
    // B in front when A's second request asks.
    await showFolder(folderB);
    await app.driver.wait(async () => (await activeState("make a file")) === "waiting", UI_TIMEOUT_MS, "A did not ask");
    await app.driver.wait(async () => Number(dunstctl("count", "displayed")) >= 1, UI_TIMEOUT_MS, "no notification shown");
    await shot("workspaces - notified");
    dunstctl("action", "0");
    await inFolder(folderA);
    const card = await app.driver.wait(
      until.elementLocated(By.css('[data-testid="approval-card"][data-state="pending"]')),
      UI_TIMEOUT_MS,
    );
    assert.match(await card.getAttribute("textContent"), /touch notified\.txt/);
    await (await card.findElement(By.xpath(".//button[normalize-space()='Approve once']"))).click();
    await completedTurns(2);
    assert.ok(existsSync(path.join(folderA, "notified.txt")));
  });
});
