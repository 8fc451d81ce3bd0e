// Finding and stopping every process a test started, including the ones it did not spawn
// directly (WebKitWebDriver, the app, WebKit's web and network processes).
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";

/** Name of the environment variable that tags every process of one harness run. */
export const RUN_MARKER_ENV = "MEMO_E2E_RUN_ID";

/**
 * Processes whose environment carries `MEMO_E2E_RUN_ID=<runId>`. Children inherit the
 * environment, so this finds the whole tree even after a parent died and orphans were
 * re-parented (which a walk over parent ids would miss).
 */
export function processesTaggedWith(runId) {
  const needle = `${RUN_MARKER_ENV}=${runId}`;
  const found = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) {
      continue;
    }
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, "utf8").split("\0");
      if (!environ.includes(needle)) {
        continue;
      }
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").join(" ").trim();
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Zombies are already dead; they only wait for a parent to reap them.
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (state !== "Z") {
        found.push({ pid: Number(entry), cmdline });
      }
    } catch {
      // The process exited while we looked, or belongs to another user: not ours.
    }
  }
  return found;
}

function signal(pid, name) {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

/** Polls until `predicate()` is true or `timeoutMs` passes; returns the last result. */
export async function waitFor(predicate, timeoutMs, intervalMs = 100) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await predicate();
    if (result || Date.now() >= deadline) {
      return result;
    }
    await sleep(intervalMs);
  }
}

/** SIGTERM a process group, then SIGKILL it if it is still there after `graceMs`. */
export async function stopProcessGroup(child, graceMs = 5000) {
  if (child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  const exited = new Promise((resolve) => child.once("exit", resolve));
  // Negative pid = the whole group; the child was spawned detached, so it leads one.
  signal(-child.pid, "SIGTERM");
  // Cancelled once the child exits: a pending timer would keep the test file's event loop
  // (and so the whole run) alive for the full grace period.
  const cancel = new AbortController();
  const timer = sleep(graceMs, "timeout", { signal: cancel.signal }).catch(() => "exited");
  const outcome = await Promise.race([exited.then(() => "exited"), timer]);
  cancel.abort();
  if (outcome === "timeout") {
    signal(-child.pid, "SIGKILL");
    await exited;
  }
}

/** Kills whatever still carries the run's tag; returns what had to be killed. */
export async function killTagged(runId) {
  const leftovers = processesTaggedWith(runId);
  for (const { pid } of leftovers) {
    signal(pid, "SIGKILL");
  }
  await waitFor(() => processesTaggedWith(runId).length === 0, 3000);
  return leftovers;
}
