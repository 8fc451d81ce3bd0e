// The app benchmark's measurements in the real app (scripts/bench-app.sh builds, seeds and
// prints the table). Everything runs under Xvfb through WebDriver, on real stores.
//
// 1. Memo started on a home holding the seeded sessions: first paint, memory idle, and how
//    its window draws (without WebKit's compositing on a machine with no GPU: see
//    src-tauri/src/rendering.rs).
// 2. A 10,000-message session with 100 MB of tool output: time from the click to its end
//    shown, scrolled to the bottom, composer ready; memory with it open; scrolling to its
//    very top (every page read) and back to the end.
// 3. Switching between two 1,000-message sessions: the first (cold) open of each, then
//    warm switches.
// 4. Streaming ~1,000 tokens/s from the mock LLM for BENCH_STREAM_SECONDS: every frame's
//    duration meanwhile (p50 / p95 / max), memory at the end.
// 5. Idle CPU over BENCH_IDLE_SECONDS after that.
// 6. A terminal flood (`yes` for BENCH_FLOOD_MB, 0 skips it): its time, the longest frame
//    gap, memory before / peak / after.
// 7. Baseline: a hello-world Tauri window (same Tauri, features and profile), in the
//    rendering Memo chose (with the JavaScriptCore options Memo's page ran with) and in
//    WebKit's default: time from its process start to its
//    first painted frame, its memory idle (PSS of it and its WebKit processes), and, in
//    Memo's rendering, the same answer shown growing at the same rate (frame times,
//    memory) and idle CPU after it. Memo's figures are given against these.
//
// Prints one JSON line of figures.
import { readFileSync, writeFileSync } from "node:fs";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { startMockLlm } from "../lib/mock-llm.mjs";
import { streamedAnswer } from "./answer.mjs";
import { kindOf, pssBy } from "./memory.mjs";

const [home, folder, helloBinary, memoBinary] = process.argv.slice(2);
const env = (name, fallback) => Number(process.env[name] ?? fallback);
const ROUNDS = env("BENCH_ROUNDS", 20);
const FLOOD_MB = env("BENCH_FLOOD_MB", 100);
const STREAM_SECONDS = env("BENCH_STREAM_SECONDS", 60);
const IDLE_SECONDS = env("BENCH_IDLE_SECONDS", 30);
const STARTS = env("BENCH_STARTS", 3);
const TIMEOUT_MS = env("BENCH_TIMEOUT_MS", 180_000);
const LONG_TITLE = process.env.BENCH_LONG_TITLE ?? "Long 1";
const LONG_LAST = process.env.BENCH_LONG_LAST ?? "Answer 4999.";
const SHORT_LAST = process.env.BENCH_SHORT_LAST ?? "Answer 499.";

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/** CPU seconds (user + system) used so far by the app and its WebKit helpers, by kind. */
function cpuSeconds(app) {
  const by = { total: 0, app: 0, web: 0, network: 0 };
  for (const { pid, cmdline } of app.processes()) {
    const kind = kindOf(cmdline);
    if (kind === null) continue;
    try {
      const fields = statFields(pid);
      const seconds = (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ
      by[kind] += seconds;
      by.total += seconds;
    } catch {
      // gone meanwhile
    }
  }
  return by;
}

/** /proc/PID/stat's fields after the command name (field 3 of the man page is [0]). */
function statFields(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** Proportional set size of the app and its WebKit helpers, in MiB (by process: `pssBy`). */
function pssMiB(app) {
  return pssBy(app).total;
}

/** When the app's own process started, in ms since the epoch (to ~10 ms). */
function processStartMs(app, binary) {
  const name = binary.split("/").pop();
  const proc = app.processes().find(({ cmdline }) => cmdline.split(" ")[0].endsWith(name));
  if (!proc) throw new Error(`no ${name} process found`);
  const startTicks = Number(statFields(proc.pid)[19]);
  const uptime = Number(readFileSync("/proc/uptime", "utf8").split(" ")[0]);
  const bootMs = Date.now() - uptime * 1000;
  return bootMs + startTicks * 10;
}

/** Milliseconds from the process start to its first painted frame. */
async function firstPaint(app, binary) {
  const painted = await app.driver.wait(
    () => app.driver.executeScript("return window.__memoFirstPaint ?? null"),
    60_000,
    "no first paint recorded",
  );
  return painted - processStartMs(app, binary);
}

/** Starts `binary` on `home`, measures first paint and idle memory, and returns the app. */
async function start(binary, home, args, env = {}) {
  process.env.MEMO_APP_BINARY = binary;
  const app = await launchApp({ args, home, env });
  const paint = await firstPaint(app, binary);
  await pause(5000);
  const memory = pssBy(app);
  return { app, paint, pss: memory.total, pssBy: memory };
}

// Runs in the page: records every frame's duration until stopped.
const FRAME_PROBE = `
window.__frames = { durations: [], last: performance.now(), on: true };
function tick(now) {
  const f = window.__frames;
  if (!f.on) return;
  f.durations.push(now - f.last);
  f.last = now;
  requestAnimationFrame(tick);
}
requestAnimationFrame(tick);
`;

// Runs in the page: click the row whose title is `title`, resolve with the milliseconds
// until `lastText` is on screen at the bottom and the composer can be typed in, after one
// more frame.
const SWITCH = `
const [title, lastText, timeout, done] = arguments;
const row = [...document.querySelectorAll('[data-testid="session-item"]')].find((b) => b.textContent.includes(title));
if (!row) { done({ error: "no row for " + title }); return; }
const t0 = performance.now();
row.click();
function check() {
  const turns = document.querySelectorAll('[data-testid="turn"]');
  const last = turns[turns.length - 1];
  const box = document.querySelector("textarea[data-testid='composer-input']");
  const header = document.querySelector('[data-testid="session-item"][aria-current="true"]');
  const body = document.querySelector(".chat__body");
  const atEnd = body && body.scrollHeight - body.scrollTop - body.clientHeight < 60;
  const ready = last && last.textContent.includes(lastText) && box && !box.disabled && header && header.textContent.includes(title) && atEnd;
  if (ready) {
    requestAnimationFrame(() => done({ ms: performance.now() - t0 }));
  } else if (performance.now() - t0 > timeout) {
    done({ error: "timed out; last turn: " + (last ? last.textContent.slice(-200) : "none") + "; turns " + turns.length + "; at end " + atEnd });
  } else {
    requestAnimationFrame(check);
  }
}
check();
`;

// Runs in the page: scroll up until the first turn of the session is shown, then back to
// the end; resolves with both times.
const TOP_AND_BACK = `
const [lastText, timeout, done] = arguments;
const body = document.querySelector(".chat__body");
const t0 = performance.now();
function up() {
  const first = [...document.querySelectorAll('[data-testid="turn"]')].some((t) => t.textContent.includes("Question 0:"));
  if (first && body.scrollTop === 0) {
    const top = performance.now() - t0;
    const t1 = performance.now();
    body.scrollTop = body.scrollHeight;
    const down = () => {
      const turns = document.querySelectorAll('[data-testid="turn"]');
      const last = turns[turns.length - 1];
      const atEnd = body.scrollHeight - body.scrollTop - body.clientHeight < 60;
      if (last && last.textContent.includes(lastText) && atEnd) {
        requestAnimationFrame(() => done({ top, back: performance.now() - t1, turns: turns.length }));
      } else if (performance.now() - t1 > timeout) {
        done({ error: "not back at the end" });
      } else {
        body.scrollTop = body.scrollHeight;
        requestAnimationFrame(down);
      }
    };
    requestAnimationFrame(down);
  } else if (performance.now() - t0 > timeout) {
    done({ error: "the top was not reached; turns " + document.querySelectorAll('[data-testid="turn"]').length });
  } else {
    body.scrollTop = 0;
    requestAnimationFrame(up);
  }
}
up();
`;

/** p-th percentile of `values`. */
function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.round((sorted.length - 1) * p))] ?? 0;
}

/**
 * The hello-world window, started STARTS times with `env`: first paint, idle memory. With
 * `stream`, the last start then shows `answer` growing at the rate Memo streams it (a
 * paragraph per blank line, pinned to the bottom, beside a focused text box like Memo's
 * composer), with every frame timed, and then sits idle: what WebKit itself costs to show
 * a stream, and to idle after one.
 */
async function hello(env, answer) {
  const paints = [];
  const pss = [];
  let last = null;
  let stream = null;
  let idleAfter = null;
  for (let i = 0; i < STARTS; i++) {
    const { app, paint, pss: memory, pssBy: split } = await start(helloBinary, null, [], env);
    paints.push(paint);
    pss.push(memory);
    last = split;
    try {
      if (answer !== null && i === STARTS - 1) {
        await app.driver.manage().setTimeouts({ script: STREAM_SECONDS * 1000 + TIMEOUT_MS });
        const before = pssMiB(app);
        const started = Date.now();
        const durations = await app.driver.executeAsyncScript(HELLO_STREAM, answer, STREAM_SECONDS * 1000);
        const seconds = (Date.now() - started) / 1000;
        stream = { seconds, ...frameFigures(durations), pssBefore: before, pss: pssMiB(app), pssBy: pssBy(app) };
        idleAfter = await idle(app);
      }
    } finally {
      await app.stop();
    }
  }
  return { paint: percentile(paints, 0.5), paints, pss: percentile(pss, 0.5), pssBy: last, stream, idle: idleAfter };
}

/** The compositing WebKit is told to use: WebKit's own default, or none (Memo's choice without a GPU). */
const RENDERING = {
  default: {},
  off: { WEBKIT_DISABLE_COMPOSITING_MODE: "1" },
};

/**
 * The hello-world in both renderings; only the one Memo ends up in shows the stream, and it
 * also gets the JavaScriptCore options Memo's web process ran with (the same WebKit set-up).
 */
async function baselines(answer, memoRendering, memoScriptOptions) {
  const out = {};
  for (const [name, env] of Object.entries(RENDERING)) {
    const mine = name === memoRendering;
    out[name] = await hello(mine ? { ...env, ...memoScriptOptions } : env, mine ? answer : null);
  }
  return out;
}

/** The environment of Memo's web process. */
function webEnviron(app) {
  const web = app.processes().find(({ cmdline }) => /WebKitWebProcess/.test(cmdline));
  if (!web) throw new Error("no web process found");
  return readFileSync(`/proc/${web.pid}/environ`, "utf8").split("\0");
}

/** How Memo's web process was told to draw: "off" when it runs without WebKit's compositing. */
function renderingOf(app) {
  return webEnviron(app).includes("WEBKIT_DISABLE_COMPOSITING_MODE=1") ? "off" : "default";
}

/** The JavaScriptCore options (`JSC_*`) Memo's web process was started with. */
function scriptOptionsOf(app) {
  return Object.fromEntries(
    webEnviron(app)
      .filter((entry) => entry.startsWith("JSC_"))
      .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
  );
}

// Runs in the hello-world page: shows the answer growing at ~4,000 characters a second for
// the given milliseconds, and resolves with every frame's duration.
const HELLO_STREAM = `
const [answer, ms, done] = arguments;
document.body.innerHTML = "";
document.body.style.cssText = "margin:0;display:flex;flex-direction:column;height:100vh;font:15px/1.5 system-ui,sans-serif";
const scroller = document.createElement("div");
scroller.style.cssText = "flex:1;overflow:auto;padding:0 24px";
const box = document.createElement("textarea");
box.style.cssText = "height:64px;margin:12px 24px";
document.body.append(scroller, box);
box.focus();
let paragraph = null;
let at = 0;
const durations = [];
const t0 = performance.now();
let last = t0;
function frame(now) {
  durations.push(now - last);
  last = now;
  const upTo = Math.min(answer.length, Math.floor(((now - t0) / 1000) * 4000));
  while (at < upTo) {
    const cut = answer.indexOf("\\n\\n", at);
    const end = cut === -1 || cut >= upTo ? upTo : cut;
    if (paragraph === null) {
      paragraph = document.createElement("p");
      paragraph.append(document.createTextNode(""));
      scroller.append(paragraph);
    }
    paragraph.firstChild.appendData(answer.slice(at, end));
    at = end;
    if (end === cut) {
      paragraph = null;
      at = cut + 2;
    }
  }
  scroller.scrollTop = scroller.scrollHeight;
  if (now - t0 < ms) requestAnimationFrame(frame);
  else done(durations);
}
requestAnimationFrame(frame);
`;

/** p50 / p95 / p99 / max of frame durations. */
function frameFigures(durations) {
  return {
    frames: durations.length,
    p50: percentile(durations, 0.5),
    p95: percentile(durations, 0.95),
    p99: percentile(durations, 0.99),
    max: Math.max(...durations),
  };
}

async function memo(result) {
  const answer = streamedAnswer(STREAM_SECONDS);
  // Four-character tokens, two a piece, a piece every ~2 ms: ~1,000 tokens a second.
  const mock = await startMockLlm({ responses: [{ text: answer, chunk_chars: 8, drip_ms: 2 }] });
  // The seeded sessions' provider, now at the mock (which only the streaming asks).
  const config = readFileSync(`${home}/config.toml`, "utf8");
  writeFileSync(
    `${home}/config.toml`,
    `current_provider = "bench"\n[[providers.bench]]\nname = "bench"\nmodel = "bench-model"\nbase_url = "${mock.baseUrl}/v1"\n`,
  );
  try {
    // Cold starts first (each on the same home), then one app for the rest.
    const paints = [];
    const pss = [];
    for (let i = 0; i < STARTS - 1; i++) {
      const { app, paint, pss: memory } = await start(memoBinary, home, [folder]);
      paints.push(paint);
      pss.push(memory);
      await app.stop();
    }
    const { app, paint, pss: memory, pssBy: split } = await start(memoBinary, home, [folder]);
    paints.push(paint);
    pss.push(memory);
    result.memo = { paint: percentile(paints, 0.5), paints, pss: percentile(pss, 0.5), pssBy: split, rendering: renderingOf(app), scriptOptions: scriptOptionsOf(app) };
    try {
      await sessions(app, result);
      await stream(app, result, answer.length);
      result.idle = await idle(app);
      // The same window again: CPU that keeps going (a loop, a timer) shows here too, work
      // that ends (collecting the stream's garbage) does not.
      result.idleLater = await idle(app);
      if (FLOOD_MB > 0) result.flood = await flood(app);
    } finally {
      await app.stop();
    }
  } finally {
    writeFileSync(`${home}/config.toml`, config);
    await mock.stop();
  }
}

async function sessions(app, result) {
  const { driver } = app;
  await driver.manage().setTimeouts({ script: TIMEOUT_MS + 10_000 });
  await driver.wait(until.elementLocated(By.css('[data-testid="session-item"]')), 60_000);
  const rows = await driver.findElements(By.css('[data-testid="session-item"]'));
  const titles = [];
  for (const row of rows) titles.push((await row.getAttribute("textContent")).replace(/\s*\(.*$/, "").trim());
  const short = titles.filter((t) => t.startsWith("Bench")).slice(0, 2);
  if (short.length < 2 || !titles.includes(LONG_TITLE)) throw new Error(`seeded sessions missing: ${titles.join(" | ")}`);

  // The long session.
  const open = await driver.executeAsyncScript(SWITCH, `${LONG_TITLE} (`, LONG_LAST, TIMEOUT_MS);
  if (open.error) throw new Error(`opening the long session: ${open.error}`);
  await pause(3000);
  const openPss = pssBy(app);
  await app.screenshot("bench - the 10,000-message session").catch(() => {});
  const trip = await driver.executeAsyncScript(TOP_AND_BACK, LONG_LAST, TIMEOUT_MS);
  if (trip.error) throw new Error(`scrolling the long session: ${trip.error}`);
  await pause(3000);
  result.long = { open: open.ms, pss: openPss.total, pssBy: openPss, top: trip.top, back: trip.back, turnsInDom: trip.turns, pssAfterTop: pssMiB(app) };

  // Two 1,000-message sessions.
  const cold = [];
  for (const title of short) {
    const r = await driver.executeAsyncScript(SWITCH, `${title} (`, SHORT_LAST, TIMEOUT_MS);
    if (r.error) throw new Error(`cold open of ${title}: ${r.error}`);
    cold.push(r.ms);
  }
  const warm = [];
  for (let i = 0; i < ROUNDS; i++) {
    const r = await driver.executeAsyncScript(SWITCH, `${short[i % 2]} (`, SHORT_LAST, TIMEOUT_MS);
    if (r.error) throw new Error(`switch ${i}: ${r.error}`);
    warm.push(r.ms);
  }
  result.switching = { cold, warm };
}

async function stream(app, result, characters) {
  const { driver } = app;
  await (await driver.findElement(By.css('[data-testid="new-session"]'))).click();
  const box = await driver.wait(until.elementLocated(By.css("textarea[data-testid='composer-input']")), 30_000);
  await driver.wait(until.elementIsEnabled(box), 30_000);
  await driver.executeScript(FRAME_PROBE);
  // The app has opened and scrolled the long session by now: what the stream itself adds is
  // the difference from here, against the hello-world's from its idle start.
  const before = pssMiB(app);
  const started = Date.now();
  await box.sendKeys("Explain the parser at length.", Key.ENTER);
  await driver.wait(
    until.elementLocated(By.css('[data-testid="turn"][data-status="completed"]')),
    STREAM_SECONDS * 1000 + TIMEOUT_MS,
    "the streamed turn did not complete",
  );
  const seconds = (Date.now() - started) / 1000;
  const durations = await driver.executeScript("window.__frames.on = false; return window.__frames.durations;");
  await app.screenshot("bench - after streaming").catch(() => {});
  result.stream = {
    seconds,
    tokensPerSecond: characters / 4 / seconds,
    ...frameFigures(durations),
    pssBefore: before,
    pss: pssMiB(app),
    pssBy: pssBy(app),
  };
}

/** Counts, from now on, DOM mutations. */
const IDLE_PROBE = `
  const probe = (window.__idle = { mutations: 0 });
  probe.observer = new MutationObserver((records) => { probe.mutations += records.length; });
  probe.observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
`;

/** Stops the idle probe and says what it saw. */
const IDLE_REPORT = `
  const probe = window.__idle;
  probe.observer.disconnect();
  const running = (document.getAnimations ? document.getAnimations() : []).filter((a) => a.playState === "running");
  const where = running.slice(0, 5).map((a) => {
    const el = a.effect && a.effect.target;
    return el ? (el.className && el.className.baseVal !== undefined ? el.className.baseVal : String(el.className)) : "?";
  });
  return { mutations: probe.mutations, animations: running.length, animated: where };
`;

async function idle(app) {
  // A moment for the end of the stream to settle (the last render, the sidebar's refresh).
  await pause(2000);
  // What the window does meanwhile: DOM changes and animations running. An idle window
  // should show neither; CPU with neither is the web engine's own (GC, caches). (Frames
  // are not counted: a requestAnimationFrame loop would itself keep the window drawing.)
  await app.driver.executeScript(IDLE_PROBE);
  const before = cpuSeconds(app);
  await pause(IDLE_SECONDS * 1000);
  const after = cpuSeconds(app);
  const seen = await app.driver.executeScript(IDLE_REPORT);
  const percent = (kind) => ((after[kind] - before[kind]) / IDLE_SECONDS) * 100;
  return {
    seconds: IDLE_SECONDS,
    cpuPercent: percent("total"),
    app: percent("app"),
    web: percent("web"),
    network: percent("network"),
    pss: pssMiB(app),
    ...seen,
  };
}

async function flood(app) {
  const { driver } = app;
  const before = pssMiB(app);
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
  await driver.executeScript(FRAME_PROBE);
  const started = Date.now();
  await (await driver.findElement(By.css(".terminal-panel:not([hidden]) .xterm-helper-textarea"))).sendKeys(
    `yes 'memo flood line 0123456789' | head -c ${FLOOD_MB * 1_000_000}; echo; echo FLOOD-$((40+2))`,
    Key.ENTER,
  );
  let peak = before;
  await driver.wait(
    async () => {
      peak = Math.max(peak, pssMiB(app));
      return /FLOOD-42/.test(await rowsText());
    },
    30 * 60_000,
    "the flood never ended",
    500,
  );
  const seconds = (Date.now() - started) / 1000;
  const durations = await driver.executeScript("window.__frames.on = false; return window.__frames.durations;");
  await pause(3000);
  const after = pssMiB(app);
  await (await driver.findElement(By.css('[data-testid="toggle-terminal"]'))).click();
  return { mb: FLOOD_MB, seconds, maxFrameGap: Math.max(...durations), before, peak, after };
}

async function main() {
  const result = {};
  await memo(result);
  // The hello-world in the rendering Memo chose (its denominator), and in the other.
  result.baselines = await baselines(streamedAnswer(STREAM_SECONDS), result.memo.rendering, result.memo.scriptOptions);
  result.baseline = result.baselines[result.memo.rendering];
  console.log(JSON.stringify(result));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
