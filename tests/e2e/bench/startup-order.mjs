// Profiles which of memo-desktop's functions run, for scripts/startup-order.sh: the app
// runs under callgrind (through WebDriver, on a seeded home) and two profiles are dumped:
// 1. the start, up to the window idle with its sessions listed;
// 2. then: opening the 10,000-message session and reading back through it, switching to
//    a 1,000-message one, a new session whose question streams an answer after a tool
//    call, and the settings.
// Everything runs ~50 times slower under callgrind, so the waits are long.
//
// node startup-order.mjs HOME FOLDER BINARY OUT_DIR
import { execFileSync } from "node:child_process";
import { chmodSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";

import { By, Key, until } from "selenium-webdriver";

import { launchApp } from "../lib/app.mjs";
import { startMockLlm } from "../lib/mock-llm.mjs";
import { waitFor } from "../lib/processes.mjs";

const [home, folder, binary, outDir] = process.argv.slice(2);
const SLOW_MS = 600_000;
const LONG_LAST = "Answer 4999.";
const SHORT_LAST = "Answer 499.";
const ANSWER = "The file starts with a heading.\n\n```sh\nhead -n 1 notes.md\n```\n\n- **one** point\n- `two`";

// STARTUP_ORDER_DRY=1 runs the same steps without callgrind (to check them quickly).
const DRY = process.env.STARTUP_ORDER_DRY === "1";
const byTestId = (id) => By.css(`[data-testid="${id}"]`);

/** Asks callgrind to write what it counted since the last dump; waits for the file. */
async function dump(label) {
  if (DRY) return;
  const before = new Set(readdirSync(outDir));
  execFileSync("callgrind_control", ["--dump=" + label], { stdio: "ignore" });
  const written = await waitFor(() => readdirSync(outDir).some((f) => !before.has(f)), SLOW_MS, 500);
  if (!written) throw new Error(`callgrind wrote no profile for ${label}`);
}

// Runs in the page: clicks the session row titled `title`, resolves once `lastText` is in
// the last turn (clicked in the page, as the app benchmark does).
const OPEN_SESSION = `
const [title, lastText, timeout, done] = arguments;
const row = [...document.querySelectorAll('[data-testid="session-item"]')].find((b) => b.textContent.includes(title));
if (!row) { done("no row for " + title); return; }
row.click();
const t0 = performance.now();
(function check() {
  const turns = document.querySelectorAll('[data-testid="turn"]');
  const last = turns[turns.length - 1];
  if (last && last.textContent.includes(lastText)) done(null);
  else if (performance.now() - t0 > timeout) done("timed out opening " + title);
  else setTimeout(check, 200);
})();
`;

async function openSession(driver, title, lastText) {
  const error = await driver.executeAsyncScript(OPEN_SESSION, title, lastText, SLOW_MS - 10_000);
  if (error) throw new Error(error);
}

const mock = await startMockLlm({
  responses: [
    { tool_calls: [{ name: "read_file", arguments: '{"file_path":"notes.md"}' }] },
    { text: ANSWER, chunk_chars: 8, drip_ms: 5 },
  ],
});
writeFileSync(path.join(folder, "notes.md"), "# Notes\n\nSome text.\n");
writeFileSync(
  path.join(home, "config.toml"),
  `current_provider = "bench"\n[[providers.bench]]\nname = "bench"\nmodel = "bench-model"\nbase_url = "${mock.baseUrl}/v1"\n`,
);
const wrapper = path.join(outDir, "memo-desktop-under-callgrind");
writeFileSync(
  wrapper,
  DRY
    ? `#!/bin/sh\nexec "${binary}" "$@"\n`
    : `#!/bin/sh\nexec valgrind --tool=callgrind --dump-instr=yes --collect-jumps=no ` +
        `--callgrind-out-file=${outDir}/callgrind.out.%p "${binary}" "$@"\n`,
);
chmodSync(wrapper, 0o755);
process.env.MEMO_APP_BINARY = wrapper;

let app;
try {
  // A window takes minutes to come up under callgrind.
  app = await launchApp({ home, args: [folder], startupTimeoutMs: SLOW_MS });
  const { driver } = app;
  await driver.manage().setTimeouts({ script: SLOW_MS, implicit: 0 });
  await driver.wait(until.elementLocated(byTestId("session-item")), SLOW_MS);
  await driver.wait(until.elementLocated(By.css("textarea[data-testid='composer-input']")), SLOW_MS);
  // What runs once the window is up (the sessions' statuses, the composer's set-up).
  await new Promise((r) => setTimeout(r, 20_000));
  await dump("start");

  await openSession(driver, "Long 1", LONG_LAST);
  for (let i = 0; i < 5; i++) {
    await driver.executeScript('document.querySelector(".chat__body").scrollTop = 0;');
    await new Promise((r) => setTimeout(r, 3000));
  }
  await openSession(driver, "Bench 1", SHORT_LAST);

  await (await driver.findElement(byTestId("new-session"))).click();
  const message = await driver.wait(until.elementLocated(By.css("textarea[data-testid='composer-input']")), SLOW_MS);
  await message.sendKeys("what does notes.md start with?", Key.ENTER);
  await driver.wait(until.elementLocated(By.css('[data-testid="turn"][data-status="completed"]')), SLOW_MS);

  await (await driver.findElement(byTestId("open-settings"))).click();
  await driver.wait(until.elementLocated(byTestId("settings-view")), SLOW_MS);
  await new Promise((r) => setTimeout(r, 5000));
  await (await driver.findElement(byTestId("settings-close"))).click();
  await new Promise((r) => setTimeout(r, 5000));
  await dump("use");
} finally {
  await app?.stop();
  await mock.stop();
}
