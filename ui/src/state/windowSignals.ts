import { Channel } from "@tauri-apps/api/core";

import type { WindowSignal } from "../gen/protocol";
import { ipc } from "../ipc";

type Kind = WindowSignal["kind"];
type SignalOf<K extends Kind> = Extract<WindowSignal, { kind: K }>;

const listeners = new Set<(signal: WindowSignal) => void>();
let opened = false;

/**
 * Calls `listener` each time the shell sends a signal of `kind` (a clicked notification's
 * session, folders a second launch handed over); returns what stops it. Every listener
 * shares one channel, opened with the first. A channel rather than Tauri's events:
 * `listen` runs a script in the page through WebKit, and the first such script brings up
 * a JavaScript engine in the app process that stays (~3 MiB, measured at idle), while a
 * channel costs nothing until something is sent on it (see src-tauri/src/signals.rs).
 */
export function onWindowSignal<K extends Kind>(kind: K, listener: (signal: SignalOf<K>) => void): () => void {
  const entry = (signal: WindowSignal) => {
    if (signal.kind === kind) listener(signal as SignalOf<K>);
  };
  listeners.add(entry);
  open();
  return () => {
    listeners.delete(entry);
  };
}

function open(): void {
  if (opened) return;
  opened = true;
  const channel = new Channel<WindowSignal>((signal) => {
    for (const listener of [...listeners]) listener(signal);
  });
  ipc.subscribeWindowSignals({ onSignal: channel }).catch((error: unknown) => {
    // Tried again by the next listener.
    opened = false;
    console.error("Could not open the window's signal channel:", error);
  });
}
