// A profiling aid beside the app benchmark: where a streaming answer's time goes. Starts
// the app on a fresh home with the mock LLM, streams the benchmark's answer and prints
//   - frame intervals by 5 s of the stream (does a frame cost more as the answer grows?),
//   - the CPU of each web-process thread and of the app (main thread or JIT, GC?),
//   - time spent in forced layouts (getBoundingClientRect, scrollHeight, ...) and in the
//     style and layout left pending at each frame's start,
//   - the DOM mutations made meanwhile, by element and attribute (what renders per frame?),
//   - the web process's memory before and after (what does the streamed answer keep?).
// Nothing here is a target; scripts/bench-app.sh measures those.
//
//   xvfb-run -a dbus-run-session -- node tests/e2e/bench/stream-probe.mjs FOLDER
//
// MEMO_APP_BINARY and MEMO_MOCK_LLM name the builds (release ones for figures that mean
// something); PROBE_SECONDS (30) is the answer's length; PROBE_CSS is a style sheet added
// to the page first, to try a change without a build ('.answer { display: none }' leaves
// out the answer's style, layout and paint); PROBE_ENV is JSON for the app's environment.
import { readFileSync, readdirSync } from "node:fs";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { mockConfigToml, startMockLlm } from "../lib/mock-llm.mjs";
import { streamedAnswer } from "./answer.mjs";
import { pssBy } from "./memory.mjs";

const SECONDS = Number(process.env.PROBE_SECONDS ?? 30);
const CSS = process.env.PROBE_CSS ?? "";
const ENV = JSON.parse(process.env.PROBE_ENV ?? "{}");
const [folder] = process.argv.slice(2);
if (!folder) throw new Error("usage: stream-probe.mjs FOLDER");

/** CPU seconds so far of each thread of the web process, by thread name. */
function webThreads(app) {
  const by = {};
  for (const { pid, cmdline } of app.processes()) {
    if (!/WebKitWebProcess/.test(cmdline)) continue;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
        const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        by[name] = (by[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100;
      } catch {
        // gone meanwhile
      }
    }
  }
  return by;
}

/** CPU seconds so far of the app's own process. */
function appCpu(app) {
  let seconds = 0;
  for (const { pid, cmdline } of app.processes()) {
    if (!/memo-desktop/.test(cmdline.split(" ")[0])) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      seconds += (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      // gone meanwhile
    }
  }
  return seconds;
}

/**
 * The web process's memory in MiB: PSS, and its anonymous part (the page's heaps; the rest
 * is mapped files). The collector's own view of the live heap is in the driver's log with
 * PROBE_ENV='{"JSC_logGC":"1"}' (each collection's "=> N kb").
 */
const webMemory = (app) => ({ pss: pssBy(app).web, anon: pssBy(app, "Anonymous").web });
const mib = ({ pss, anon }) => `PSS ${pss.toFixed(1)} (anonymous ${anon.toFixed(1)}) MiB`;

// Runs in the page before the message is sent: frame timing, forced-layout timing, and a
// mutation count by target.
const PROBES = `
// Read through the getter as it is now, before the wrapping below counts it as forced.
const layoutNow = Object.getOwnPropertyDescriptor(HTMLElement.prototype, "offsetHeight").get;
const frames = (window.__probeFrames = { durations: [], at: [], pending: 0, last: performance.now(), on: true });
function tick(now) {
  if (!frames.on) return;
  // Style and layout the page left for the frame to do, done here so it can be timed.
  const start = performance.now();
  layoutNow.call(document.body);
  frames.pending += performance.now() - start;
  frames.durations.push(now - frames.last);
  frames.at.push(now);
  frames.last = now;
  requestAnimationFrame(tick);
}
requestAnimationFrame(tick);

const forced = (window.__probeForced = {});
const timed = (name, read) => function (...args) {
  const start = performance.now();
  try { return read.apply(this, args); } finally {
    const entry = (forced[name] ??= { ms: 0, calls: 0 });
    entry.ms += performance.now() - start;
    entry.calls += 1;
  }
};
for (const name of ["scrollHeight", "scrollTop", "clientHeight", "offsetHeight"]) {
  for (const proto of [Element.prototype, HTMLElement.prototype]) {
    const descriptor = Object.getOwnPropertyDescriptor(proto, name);
    if (descriptor?.get) Object.defineProperty(proto, name, { ...descriptor, get: timed(name, descriptor.get) });
  }
}
Element.prototype.getBoundingClientRect = timed("getBoundingClientRect", Element.prototype.getBoundingClientRect);

const mutations = (window.__probeMutations = {});
const label = (node) => node.nodeType === 1
  ? node.tagName.toLowerCase() + (typeof node.className === "string" && node.className ? "." + node.className.split(" ").join(".") : "") + (node.dataset?.testid ? "#" + node.dataset.testid : "")
  : "text in " + (node.parentElement ? label(node.parentElement) : "?");
new MutationObserver((records) => {
  for (const r of records) {
    const key = r.type + " " + label(r.target) + (r.attributeName ? " @" + r.attributeName : "");
    mutations[key] = (mutations[key] ?? 0) + 1;
  }
}).observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
`;

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.round((sorted.length - 1) * p))] ?? 0;
};
const line = (values) => `n=${values.length} p50=${percentile(values, 0.5).toFixed(1)} p95=${percentile(values, 0.95).toFixed(1)} max=${Math.max(...values).toFixed(0)} ms`;

const answer = streamedAnswer(SECONDS);
const mock = await startMockLlm({ responses: [{ text: answer, chunk_chars: 8, drip_ms: 2 }] });
try {
  const app = await launchApp({ env: ENV, args: [folder], homeFiles: { "config.toml": mockConfigToml(mock.baseUrl) } });
  try {
    const { driver } = app;
    const box = await driver.wait(until.elementLocated(By.css("textarea[data-testid='composer-input']")), 60_000);
    await driver.wait(until.elementIsEnabled(box), 30_000);
    if (CSS) await driver.executeScript("const s = document.createElement('style'); s.textContent = arguments[0]; document.head.append(s);", CSS);
    await driver.executeScript(PROBES);
    const memoryBefore = webMemory(app);
    const threadsBefore = webThreads(app);
    const appBefore = appCpu(app);
    const started = Date.now();
    await box.sendKeys("Explain the parser at length.", Key.ENTER);
    await driver.wait(until.elementLocated(By.css('[data-testid="turn"][data-status="completed"]')), SECONDS * 1000 + 120_000);
    const seconds = (Date.now() - started) / 1000;
    const threadsAfter = webThreads(app);
    const appAfter = appCpu(app);
    const memoryAfter = webMemory(app);
    const { durations, at, pending } = await driver.executeScript("window.__probeFrames.on = false; return window.__probeFrames;");
    const forced = await driver.executeScript("return window.__probeForced;");
    const mutations = await driver.executeScript("return window.__probeMutations;");

    console.log(`streamed ${answer.length} characters in ${seconds.toFixed(1)} s`);
    const buckets = new Map();
    for (let i = 0; i < durations.length; i++) {
      const bucket = Math.floor((at[i] - at[0]) / 5000) * 5;
      if (!buckets.has(bucket)) buckets.set(bucket, []);
      buckets.get(bucket).push(durations[i]);
    }
    for (const [bucket, values] of buckets) console.log(`frames ${String(bucket).padStart(3)} s: ${line(values)}`);
    console.log(`frames all:   ${line(durations)}`);
    const cpu = Object.entries(threadsAfter)
      .map(([name, after]) => [name, ((after - (threadsBefore[name] ?? 0)) / seconds) * 100])
      .filter(([, percent]) => percent >= 1)
      .map(([name, percent]) => `${name} ${percent.toFixed(0)} %`);
    console.log(`CPU: web process threads ${cpu.join(", ")}; app ${(((appAfter - appBefore) / seconds) * 100).toFixed(0)} %`);
    console.log(`web process memory: before ${mib(memoryBefore)}, at the end ${mib(memoryAfter)}`);
    console.log(`style and layout pending at frame starts: ${pending.toFixed(0)} ms`);
    for (const [name, { ms, calls }] of Object.entries(forced)) console.log(`forced by ${name}: ${ms.toFixed(0)} ms in ${calls} calls`);
    for (const [key, count] of Object.entries(mutations).sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`mutations ${String(count).padStart(6)}  ${key.slice(0, 140)}`);
  } finally {
    await app.stop();
  }
} finally {
  await mock.stop();
}
