// The app's processes by kind, and their memory, for the app benchmark and the stream probe.
import { readFileSync } from "node:fs";

const APP_PROCESSES = /memo-desktop|memo-bench-hello|WebKit(Web|Network)Process/;

/** "web" (the page), "network", "app" (the Rust process: Memo or the hello-world), or null. */
export function kindOf(cmdline) {
  if (/WebKitWebProcess/.test(cmdline)) return "web";
  if (/WebKitNetworkProcess/.test(cmdline)) return "network";
  return APP_PROCESSES.test(cmdline) ? "app" : null;
}

/**
 * One smaps_rollup figure of the app and its WebKit helpers in MiB, in all and by kind:
 * `Pss` (the default) or e.g. `Anonymous` (heaps, as against mapped files).
 */
export function pssBy(app, field = "Pss") {
  const by = { total: 0, app: 0, web: 0, network: 0 };
  const pattern = new RegExp(`^${field}:\\s+(\\d+) kB`, "m");
  for (const { pid, cmdline } of app.processes()) {
    const kind = kindOf(cmdline);
    if (kind === null) continue;
    try {
      const match = pattern.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
      if (match) {
        by[kind] += Number(match[1]) / 1024;
        by.total += Number(match[1]) / 1024;
      }
    } catch {
      // gone meanwhile
    }
  }
  return by;
}
