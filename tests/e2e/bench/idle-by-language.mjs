// Idle memory of the app in each interface language, beside the hello-world Tauri window
// (the same Tauri, features and profile) in the same run: each is started STARTS times on
// a fresh home, left 10 s after its first painted frame, and its PSS summed with its
// WebKit processes'. Prints a Markdown table of medians.
//
//   xvfb-run -a dbus-run-session -- node tests/e2e/bench/idle-by-language.mjs HELLO MEMO
//
// (scripts/bench-app.sh builds both; `--debug` or release binaries alike.)
import { launchApp } from "../lib/app.mjs";
import { pssBy } from "./memory.mjs";

const [helloBinary, memoBinary] = process.argv.slice(2);
const STARTS = Number(process.env.BENCH_STARTS ?? 3);
const SETTLE_MS = 10_000;

const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const RUNS = [
  { name: "hello-world window", binary: helloBinary, env: { LANG: "en_US.UTF-8", LANGUAGE: "en" } },
  { name: "Memo, English (LANG=en_US.UTF-8)", binary: memoBinary, env: { LANG: "en_US.UTF-8", LANGUAGE: "en" } },
  { name: "Memo, Chinese (LANG=zh_CN.UTF-8)", binary: memoBinary, env: { LANG: "zh_CN.UTF-8", LANGUAGE: "zh_CN" } },
];

async function once({ binary, env }) {
  process.env.MEMO_APP_BINARY = binary;
  const app = await launchApp({ env });
  try {
    await app.driver.wait(() => app.driver.executeScript("return window.__memoFirstPaint ?? null"), 60_000);
    await pause(SETTLE_MS);
    const language = await app.driver.executeScript("return document.documentElement.lang || null");
    return { pss: pssBy(app), language };
  } finally {
    await app.stop();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rows = [];
for (const run of RUNS) {
  const samples = [];
  for (let i = 0; i < STARTS; i += 1) samples.push(await once(run));
  rows.push({
    name: run.name,
    total: median(samples.map((s) => s.pss.total)),
    app: median(samples.map((s) => s.pss.app)),
    web: median(samples.map((s) => s.pss.web)),
    language: samples[0].language,
  });
}
const base = rows[0].total;
console.log(`idle PSS, median of ${STARTS} starts, ${SETTLE_MS / 1000} s after first paint`);
console.log("| window | page lang | total MiB | Rust process MiB | web process MiB | vs hello-world |");
console.log("| --- | --- | ---: | ---: | ---: | ---: |");
for (const row of rows) {
  const ratio = `${(row.total / base).toFixed(2)}×`;
  console.log(`| ${row.name} | ${row.language ?? "—"} | ${row.total.toFixed(1)} | ${row.app.toFixed(1)} | ${row.web.toFixed(1)} | ${ratio} |`);
}
