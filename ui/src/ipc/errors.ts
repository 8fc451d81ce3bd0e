// The UI side of `CommandError` in src-tauri/src/error.rs. The payload type and the list
// of codes are generated from Rust; both sides also test against
// ./fixtures/command-error.json, so a change to the wire shape fails a test on each side.
import type { CommandErrorPayload } from "../gen/commands";
import { ERROR_CODES, type ErrorCode as RustErrorCode } from "../gen/protocol";

export type { CommandErrorPayload, RustErrorCode };

/**
 * `ipc` is produced only on this side: the call never reached a command (not inside the
 * desktop app, command not registered, or not allowed by the window's capability). Tauri
 * reports those as bare strings rather than as a `CommandError`.
 */
export type ErrorCode = RustErrorCode | "ipc";

export class CommandError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly command: string;

  constructor(command: string, code: ErrorCode, message: string, retryable: boolean) {
    super(message);
    this.name = "CommandError";
    this.command = command;
    this.code = code;
    this.retryable = retryable;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isRustErrorCode(value: unknown): value is RustErrorCode {
  return typeof value === "string" && (ERROR_CODES as readonly string[]).includes(value);
}

/**
 * Turns whatever `invoke` rejected with into a `CommandError`, so callers branch on `code`
 * and `retryable` instead of on message text or on the type of the thrown value.
 */
export function toCommandError(command: string, raised: unknown): CommandError {
  if (raised instanceof CommandError) {
    return raised;
  }
  if (isRecord(raised) && typeof raised.message === "string" && "code" in raised) {
    // A code this build does not know (a newer shell) is still an error from the Rust
    // side; keep its message and treat it as internal rather than dropping it.
    const code = isRustErrorCode(raised.code) ? raised.code : "internal";
    const retryable = raised.retryable === true;
    return new CommandError(command, code, raised.message, retryable);
  }
  if (typeof raised === "string") {
    return new CommandError(command, "ipc", raised, false);
  }
  if (raised instanceof Error) {
    // Outside the desktop app `invoke` fails with a TypeError on the missing Tauri globals.
    return new CommandError(command, "ipc", raised.message, false);
  }
  return new CommandError(command, "ipc", `${command} failed: ${String(raised)}`, false);
}
