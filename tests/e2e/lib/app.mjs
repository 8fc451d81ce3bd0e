// Starts the real Memo binary under tauri-driver and hands back a WebDriver session.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, openSync, closeSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

import { Builder } from "selenium-webdriver";

import { appBinary, artifactsDir, tauriDriverBinary } from "./paths.mjs";
import { RUN_MARKER_ENV, killTagged, processesTaggedWith, stopProcessGroup, waitFor } from "./processes.mjs";

const DRIVER_PORT = Number(process.env.E2E_DRIVER_PORT ?? 4444);
const NATIVE_PORT = Number(process.env.E2E_NATIVE_PORT ?? 4445);
const STARTUP_TIMEOUT_MS = 20_000;

function portIsFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

function portAccepts(port) {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

function slug(name) {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
}

export async function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// Runs in the page: repaints one corner pixel every frame, for at most 10 s or until stopped.
const KEEP_PAINTING = `
window.__memoKeepPainting?.stop();
const mark = document.createElement("div");
mark.setAttribute("aria-hidden", "true");
mark.style.cssText = "position:fixed;right:0;bottom:0;width:1px;height:1px;pointer-events:none;z-index:2147483647";
document.documentElement.append(mark);
const started = performance.now();
let frame = 0;
let odd = false;
const tick = () => {
  odd = !odd;
  mark.style.background = odd ? "rgba(127,127,127,0.004)" : "rgba(127,127,127,0.008)";
  frame = performance.now() - started < 10000 ? requestAnimationFrame(tick) : 0;
  if (!frame) mark.remove();
};
tick();
window.__memoKeepPainting = { stop: () => { cancelAnimationFrame(frame); mark.remove(); delete window.__memoKeepPainting; } };
`;

/**
 * Launches the app with a fresh MEMO_HOME, into which `homeFiles` (name -> text, e.g.
 * `config.toml`) are written first. Every process started for it (tauri-driver,
 * WebKitWebDriver, the app, WebKit helpers) carries a run tag in its environment, so
 * `stop()` can prove that nothing outlives the test.
 */
/**
 * `home`: a Memo home to use and keep (a restart test launches twice on it); by default a
 * fresh one is made and removed when the app stops. `startupTimeoutMs`: how long the
 * window may take to come up (20 s; longer under a profiler).
 */
export async function launchApp({ env = {}, homeFiles = {}, args = [], home = null, startupTimeoutMs = STARTUP_TIMEOUT_MS } = {}) {
  const application = appBinary();
  const driverBinary = tauriDriverBinary();
  mkdirSync(artifactsDir, { recursive: true });

  for (const port of [DRIVER_PORT, NATIVE_PORT]) {
    // A driver of the previous launch (a restart test) may still be letting its port go.
    if (!(await waitFor(() => portIsFree(port), 5000, 200))) {
      throw new Error(
        `port ${port} is taken (another tauri-driver or e2e run?); ` +
          "set E2E_DRIVER_PORT / E2E_NATIVE_PORT to use other ports",
      );
    }
  }

  const runId = randomUUID();
  const memoHome = home ?? mkdtempSync(path.join(tmpdir(), "memo-e2e-home-"));
  for (const [name, text] of Object.entries(homeFiles)) {
    writeFileSync(path.join(memoHome, name), text);
  }
  const logPath = path.join(artifactsDir, "tauri-driver.log");
  const logFd = openSync(logPath, "a");
  writeFileSync(logPath, `\n--- run ${runId} (${new Date().toISOString()}) ---\n`, { flag: "a" });

  const driverProcess = spawn(
    driverBinary,
    ["--port", String(DRIVER_PORT), "--native-port", String(NATIVE_PORT)],
    {
      // Its own process group, so stopping it also stops WebKitWebDriver and the app.
      detached: true,
      stdio: ["ignore", logFd, logFd],
      env: { ...process.env, MEMO_HOME: memoHome, RUST_LOG: "info", ...env, [RUN_MARKER_ENV]: runId },
    },
  );
  closeSync(logFd);

  // Last resort if the runner itself is interrupted: no async work is possible in 'exit'.
  const killOnExit = () => {
    try {
      process.kill(-driverProcess.pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
  process.once("exit", killOnExit);

  let driver;
  let stopped = false;

  const stop = async () => {
    if (stopped) {
      return [];
    }
    stopped = true;
    if (driver) {
      // Ending the session makes WebKitWebDriver close the app window and process.
      await withTimeout(driver.quit(), 10_000, "WebDriver quit").catch(() => {});
    }
    await stopProcessGroup(driverProcess);
    process.removeListener("exit", killOnExit);
    // WebKit's web process runs in a session of its own and exits once it notices its UI
    // process is gone; on a loaded machine that takes a moment. Give it that moment, then
    // anything still tagged really escaped and is killed (and reported).
    await waitFor(() => processesTaggedWith(runId).length === 0, 3000);
    const leftovers = await killTagged(runId);
    if (home === null) rmSync(memoHome, { recursive: true, force: true });
    return leftovers;
  };

  try {
    const ready = await waitFor(
      async () => driverProcess.exitCode !== null || (await portAccepts(DRIVER_PORT)),
      STARTUP_TIMEOUT_MS,
    );
    if (!ready || driverProcess.exitCode !== null) {
      throw new Error(`tauri-driver did not start listening on ${DRIVER_PORT}; see ${logPath}`);
    }
    driver = await withTimeout(
      new Builder()
        .usingServer(`http://127.0.0.1:${DRIVER_PORT}/`)
        .withCapabilities({ browserName: "wry", "tauri:options": { application, args } })
        .build(),
      startupTimeoutMs,
      "starting the app through tauri-driver",
    );
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    driver,
    memoHome,
    /** The environment the app runs with (for starting a second instance beside it). */
    env: { ...process.env, MEMO_HOME: memoHome, ...env, [RUN_MARKER_ENV]: runId },
    runId,
    stop,
    /** Processes of this run that are still alive (for the no-leftovers assertion). */
    processes: () => processesTaggedWith(runId),
    /** Saves what the webview shows to tests/e2e/artifacts/<name>.png. */
    async screenshot(name) {
      const file = path.join(artifactsDir, `${slug(name)}.png`);
      // The first frame can land a moment after the DOM is ready.
      await sleep(150);
      // WebKitWebDriver takes the screenshot at the next repaint; without compositing
      // (Memo's choice on a machine with no GPU) a still page never repaints, so one
      // pixel in the corner changes (by 1/255) each frame until the screenshot is taken.
      await driver.executeScript(KEEP_PAINTING);
      try {
        writeFileSync(file, await driver.takeScreenshot(), "base64");
      } finally {
        await driver.executeScript("window.__memoKeepPainting?.stop();").catch(() => {});
      }
      return file;
    },
  };
}
