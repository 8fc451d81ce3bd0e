// The composer's caret stops blinking after the user's quiet timeout (GTK's
// gtk-cursor-blink-timeout) and blinks again on a real key press (src-tauri/src/caret.rs):
// each blink repaints the window, which kept an idle app busy. WebDriver's input never
// reaches GTK, so the key press here goes through the X server (xdotool), and the caret is
// watched on the X screen itself.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { By, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";

const UI_TIMEOUT_MS = 20_000;
// The user's settings: a quick blink (a change every 200 ms) that stops after 3 s quiet.
const BLINK_MS = 400;
const TIMEOUT_S = 3;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The X window showing Memo, and where it is on the screen. */
function memoWindow() {
  const ids = execFileSync("xdotool", ["search", "--onlyvisible", "--name", "^Memo$"], { encoding: "utf8" }).trim().split("\n");
  assert.equal(ids.length, 1, `one Memo window expected, found ${ids.join(", ")}`);
  const geometry = execFileSync("xdotool", ["getwindowgeometry", "--shell", ids[0]], { encoding: "utf8" });
  const field = (name) => Number(new RegExp(`^${name}=(\\d+)`, "m").exec(geometry)[1]);
  return { id: ids[0], x: field("X"), y: field("Y") };
}

/** `count` grabs of a screen rectangle, one every ~`everyMs`: its raw pixels each time. */
async function watch(rect, count, everyMs) {
  const grabs = [];
  for (let i = 0; i < count; i++) {
    const crop = `${rect.width}x${rect.height}+${rect.x}+${rect.y}`;
    grabs.push(execFileSync("import", ["-silent", "-window", "root", "-crop", crop, "gray:-"], { maxBuffer: 16 << 20 }));
    await sleep(everyMs);
  }
  return grabs;
}

/** The distinct images among `grabs`, each with how dark it is (the caret is the dark part). */
function distinct(grabs) {
  const seen = new Map();
  for (const grab of grabs) {
    const key = grab.toString("base64");
    if (!seen.has(key)) seen.set(key, { key, ink: grab.reduce((sum, v) => sum + (255 - v), 0) });
  }
  return [...seen.values()];
}

describe("the composer's caret", { timeout: 120_000 }, () => {
  let app;
  let project;
  let gtkConfig;

  before(async () => {
    project = mkdtempSync(path.join(tmpdir(), "memo-e2e-project-"));
    gtkConfig = mkdtempSync(path.join(tmpdir(), "memo-e2e-gtk-"));
    mkdirSync(path.join(gtkConfig, "gtk-3.0"));
    writeFileSync(
      path.join(gtkConfig, "gtk-3.0", "settings.ini"),
      `[Settings]\ngtk-cursor-blink-time=${BLINK_MS}\ngtk-cursor-blink-timeout=${TIMEOUT_S}\n`,
    );
    app = await launchApp({
      env: { GTK_THEME: "Adwaita", XDG_CONFIG_HOME: gtkConfig },
      args: [project],
      homeFiles: { "config.toml": '[[providers.local]]\nname = "local"\nmodel = "m"\nbase_url = "http://127.0.0.1:9/v1"\n' },
    });
  });

  after(async () => {
    await app?.stop().catch(() => {});
    for (const dir of [project, gtkConfig]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test("rests after the quiet timeout, blinks again on a key press, and rests shown", async () => {
    const box = await app.driver.wait(until.elementLocated(By.css("textarea[aria-label='Message']")), UI_TIMEOUT_MS);
    await app.driver.wait(until.elementIsEnabled(box), UI_TIMEOUT_MS);
    // The window gets the X focus first (under Xvfb nothing gives it one): an unfocused
    // window shows no caret at all. Focus coming back counts as input, as a key press does.
    const window = memoWindow();
    execFileSync("xdotool", ["windowfocus", "--sync", window.id]);
    await box.click();
    const inBox = await box.getRect();
    // The start of the text box's first line, where the caret stands (the box has no
    // padding of its own: the caret is drawn on its very edge).
    const rect = {
      x: window.x + Math.round(inBox.x) - 4,
      y: window.y + Math.round(inBox.y),
      width: 200,
      height: Math.min(Math.round(inBox.height), 40),
    };

    // Nothing reached GTK since: past the timeout the caret rests.
    await sleep((TIMEOUT_S + 1) * 1000);
    const quiet = distinct(await watch(rect, 8, BLINK_MS / 4));
    assert.equal(quiet.length, 1, "the caret still blinks after the quiet timeout");

    // A real key press: the caret blinks again, at the user's period.
    execFileSync("xdotool", ["key", "--clearmodifiers", "x"]);
    await app.driver.wait(async () => (await box.getAttribute("value")) === "x", UI_TIMEOUT_MS, "the key press did not reach the composer");
    // Watched once the "x" has replaced the placeholder on screen, so the looks seen
    // differ by the caret alone.
    await sleep(150);
    const blinking = distinct(await watch(rect, 8, BLINK_MS / 4));
    assert.ok(blinking.length >= 2, "the caret does not blink after a key press");

    // Quiet again: it rests, shown (the darker of its two looks, in the light theme).
    await sleep((TIMEOUT_S + 1) * 1000);
    const rested = distinct(await watch(rect, 8, BLINK_MS / 4));
    assert.equal(rested.length, 1, "the caret did not rest again");
    const shown = blinking.reduce((a, b) => (b.ink > a.ink ? b : a));
    assert.equal(rested[0].key, shown.key, "the caret rests hidden");
  });
});
