// The UI side of `IpcError` in src-tauri/src/error.rs. The payload type and the list
// of codes are generated from Rust; both sides also test against
// ./fixtures/ipc-error.json, so a change to the wire shape fails a test on each side.
import type { IpcErrorPayload } from "../gen/ipc";
import { ERROR_CODES, type ErrorCode as RustErrorCode, type Phrase } from "../gen/protocol";
import { t } from "../i18n";
import { isPhrase, say } from "../i18n/phrase";

export type { IpcErrorPayload, RustErrorCode };

/**
 * `ipc` is produced only on this side: the call never reached a command (not inside the
 * desktop app, command not registered, or not allowed by the window's capability). Tauri
 * reports those as bare strings rather than as an `IpcError`.
 */
export type ErrorCode = RustErrorCode | "ipc";

export class IpcError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly command: string;
  /** What Rust said, as a phrase; `message` is it worded in the window's language. */
  readonly phrase: Phrase | null;

  constructor(command: string, code: ErrorCode, message: string, retryable: boolean, phrase: Phrase | null = null) {
    super(message);
    this.name = "IpcError";
    this.command = command;
    this.code = code;
    this.retryable = retryable;
    this.phrase = phrase;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isRustErrorCode(value: unknown): value is RustErrorCode {
  return typeof value === "string" && (ERROR_CODES as readonly string[]).includes(value);
}

/**
 * Turns whatever `invoke` rejected with into an `IpcError`, so callers branch on `code`
 * and `retryable` instead of on message text or on the type of the thrown value.
 */
export function toIpcError(command: string, raised: unknown): IpcError {
  if (raised instanceof IpcError) {
    return raised;
  }
  if (isRecord(raised) && typeof raised.message === "string" && "code" in raised) {
    // A code this build does not know (a newer shell) is still an error from the Rust
    // side; keep its message and treat it as internal rather than dropping it.
    const code = isRustErrorCode(raised.code) ? raised.code : "internal";
    const retryable = raised.retryable === true;
    // Said as a phrase: worded here, once, so every place that shows `message` shows it in
    // the person's language.
    const phrase = isPhrase(raised.phrase) ? raised.phrase : null;
    const message = phrase === null ? raised.message : say(phrase);
    return new IpcError(command, code, message, retryable, phrase);
  }
  if (typeof raised === "string") {
    return new IpcError(command, "ipc", raised, false);
  }
  if (raised instanceof Error) {
    // Outside the desktop app `invoke` fails with a TypeError on the missing Tauri globals.
    return new IpcError(command, "ipc", raised.message, false);
  }
  return new IpcError(command, "ipc", t("common:commandFailed", { command, reason: String(raised) }), false);
}
