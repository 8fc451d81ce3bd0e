// The app benchmark's measurements in the real app (scripts/bench-app.sh prints the table).
//
// 1. Session switching: a Memo home holding two long seeded sessions; timed inside the page
//    from the click on a session's row to its transcript shown with its last answer and the
//    composer ready, one frame painted. The first open of each is cold (resumed, history
//    replayed); later switches are warm.
// 2. A terminal flood: `yes` for FLOOD_MB megabytes through the terminal panel, with the
//    longest gap between two frames while it runs (does the window freeze?) and the memory
//    (PSS) of the app and its WebKit processes before, at the end and after.
//
// Prints one JSON line of figures.
import { readFileSync } from "node:fs";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";

const [home, folder, rounds = "10", floodMb = "100"] = process.argv.slice(2);

/** CPU seconds (user + system) used so far by the app and its WebKit helpers. */
function cpuSeconds(app) {
  const ticks = 100; // USER_HZ on Linux
  let total = 0;
  for (const { pid, cmdline } of app.processes()) {
    if (!/memo-desktop|WebKit(Web|Network)Process/.test(cmdline)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      total += (Number(fields[11]) + Number(fields[12])) / ticks;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** Proportional set size of the app and its WebKit helpers, in MiB. */
function pssMiB(app) {
  let kib = 0;
  for (const { pid, cmdline } of app.processes()) {
    if (!/memo-desktop|WebKit(Web|Network)Process/.test(cmdline)) continue;
    try {
      const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
      if (match) kib += Number(match[1]);
    } catch {
      // gone meanwhile
    }
  }
  return kib / 1024;
}

// Runs in the page: records the longest gap between animation frames until stopped.
const FRAME_PROBE = `
window.__gaps = { max: 0, frames: 0, last: performance.now(), on: true };
function tick(now) {
  const g = window.__gaps;
  if (!g.on) return;
  g.max = Math.max(g.max, now - g.last);
  g.frames++;
  g.last = now;
  requestAnimationFrame(tick);
}
requestAnimationFrame(tick);
`;
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 120_000);

// Runs in the page: click the row whose title is `title`, resolve with the milliseconds
// until `lastText` is on screen and the composer can be typed in, after one more frame.
const SWITCH = `
const [title, lastText, done] = arguments;
const row = [...document.querySelectorAll('[data-testid="session-item"]')].find((b) => b.textContent.includes(title));
if (!row) { done({ error: "no row for " + title }); return; }
const t0 = performance.now();
row.click();
const deadline = t0 + ${TIMEOUT_MS};
function check() {
  const turns = document.querySelectorAll('[data-testid="turn"]');
  const last = turns[turns.length - 1];
  const box = document.querySelector("textarea[aria-label='Message']");
  const header = document.querySelector('[data-testid="session-item"][aria-current="true"]');
  const ready = last && last.textContent.includes(lastText) && box && !box.disabled && header && header.textContent.includes(title);
  if (ready) {
    requestAnimationFrame(() => done({ ms: performance.now() - t0 }));
  } else if (performance.now() > deadline) {
    done({ error: "timed out; last turn: " + (last ? last.textContent.slice(-200) : "none") + "; turns " + turns.length + "; box " + (box && box.disabled) + "; header " + (header && header.textContent) });
  } else {
    requestAnimationFrame(check);
  }
}
check();
`;

async function main() {
  const app = await launchApp({ args: [folder], home });
  try {
    const { driver } = app;
    await driver.manage().setTimeouts({ script: TIMEOUT_MS + 10_000 });
    await driver.wait(until.elementLocated(By.css('[data-testid="session-item"]')), 60_000);
    const rows = await driver.findElements(By.css('[data-testid="session-item"]'));
    const titles = [];
    for (const row of rows) titles.push((await row.getAttribute("textContent")).replace(/\d\d:\d\d.*$/, "").trim());
    const sessions = titles.filter((t) => /messages\)/.test(t)).slice(0, 2);
    if (sessions.length < 2) throw new Error(`two seeded sessions expected, found: ${titles.join(" | ")}`);
    const titleOf = (t) => t.replace(/\s*·.*$/, "");
    const lastAnswer = process.env.BENCH_LAST_ANSWER ?? "Answer 499.";
    const result = { cold: [], warm: [] };
    for (const [i, t] of sessions.entries()) {
      const r = await driver.executeAsyncScript(SWITCH, titleOf(t), lastAnswer);
      if (r.error) {
        await app.screenshot("bench - cold open failed").catch(() => {});
        throw new Error(`cold open ${i}: ${r.error}`);
      }
      result.cold.push(r.ms);
    }
    for (let i = 0; i < Number(rounds); i++) {
      const t = sessions[i % 2];
      const r = await driver.executeAsyncScript(SWITCH, titleOf(t), lastAnswer);
      if (r.error) throw new Error(`switch ${i}: ${r.error}`);
      result.warm.push(r.ms);
    }
    await app.screenshot("bench - long session open").catch(() => {});

    // The flood: the shell prints FLOOD_MB MB; the terminal must keep the window painting.
    result.pssBefore = pssMiB(app);
    await (await driver.findElement(By.css('[data-testid="toggle-terminal"]'))).click();
    const screen = By.css(".terminal-panel:not([hidden]) .terminal-view:not([hidden])");
    const rowsText = async () => {
      try {
        return await (await (await driver.findElement(screen)).findElement(By.css(".xterm-rows"))).getAttribute("textContent");
      } catch (error) {
        if (error.name === "NoSuchElementError" || error.name === "StaleElementReferenceError") return "";
        throw error;
      }
    };
    await driver.wait(async () => /\S/.test(await rowsText()), 30_000, "the shell did not start");
    const bytes = Number(floodMb) * 1_000_000;
    await driver.executeScript(FRAME_PROBE);
    const started = Date.now();
    await (await driver.findElement(By.css(".terminal-panel:not([hidden]) .xterm-helper-textarea"))).sendKeys(
      `yes 'memo flood line 0123456789' | head -c ${bytes}; echo; echo FLOOD-$((40+2))`,
      Key.ENTER,
    );
    let peak = result.pssBefore;
    await driver.wait(
      async () => {
        peak = Math.max(peak, pssMiB(app));
        return /FLOOD-42/.test(await rowsText());
      },
      30 * 60_000,
      "the flood never ended",
      500,
    );
    result.floodSeconds = (Date.now() - started) / 1000;
    const gaps = await driver.executeScript("window.__gaps.on = false; return window.__gaps;");
    result.floodMaxFrameGap = gaps.max;
    result.floodFrames = gaps.frames;
    result.pssPeak = peak;
    await new Promise((r) => setTimeout(r, 3000));
    result.pssAfter = pssMiB(app);
    result.floodMb = Number(floodMb);

    // Idle: nothing streaming, nothing typed, the terminal panel hidden again (its blinking
    // cursor repaints); the window should not spend CPU.
    await (await driver.findElement(By.css('[data-testid="toggle-terminal"]'))).click();
    const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
    const cpuStart = cpuSeconds(app);
    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    result.idleCpuPercent = ((cpuSeconds(app) - cpuStart) / idleSeconds) * 100;
    result.idleSeconds = idleSeconds;
    await app.screenshot("bench - after the flood").catch(() => {});
    console.log(JSON.stringify(result));
  } finally {
    await app.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
