import type { PageMessage } from "../gen/protocol";
import { ipc } from "./invoke";

/** After a failed request (the shell not ready, say), how long before the next one. */
const RETRY_MS = 1000;

/** The part of Tauri's page runtime that hands a message to a `Channel`. */
interface ChannelCallbacks {
  runCallback(id: number, data: unknown): void;
}

declare global {
  interface Window {
    __TAURI_INTERNALS__?: ChannelCallbacks;
  }
}

let started = false;

/**
 * The page's side of every channel passed to a command: takes the messages the shell sent
 * with `receive_messages`, one request at a time that the shell holds open until there are
 * some, and hands each to its `Channel` (Tauri's own class, which puts a channel's messages
 * in order and forgets it once it ended). The shell does not push them as scripts the way
 * Tauri's channels do, because every script WebKit runs for the app costs the app a
 * JavaScript engine of its own (see src-tauri/src/page_channel.rs). Started once.
 */
export function receiveMessages(): void {
  if (started) return;
  started = true;
  void (async () => {
    for (;;) {
      try {
        deliver(await ipc.receiveMessages());
      } catch (error) {
        console.error("Could not receive the shell's messages:", error);
        await new Promise((resolve) => window.setTimeout(resolve, RETRY_MS));
      }
    }
  })();
}

/** Hands each message to its channel; one that throws does not keep the rest back. */
export function deliver(messages: readonly PageMessage[], callbacks: ChannelCallbacks | undefined = window.__TAURI_INTERNALS__): void {
  if (!callbacks) return;
  for (const { channel, index, message } of messages) {
    try {
      callbacks.runCallback(channel, message === undefined ? { end: true, index } : { message, index });
    } catch (error) {
      console.error(`Channel ${channel} could not take message ${index}:`, error);
    }
  }
}
