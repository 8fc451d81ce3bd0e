import { invoke } from "@tauri-apps/api/core";

import { bindCalls, type CallName, type IpcCalls } from "../gen/ipc";
import { toIpcError } from "./errors";

/**
 * The only place the UI calls `invoke`. Every rejection becomes an `IpcError`, so no
 * caller has to guess what shape a failure has.
 */
export async function invokeCall<T>(call: CallName, args: Record<string, unknown>): Promise<T> {
  try {
    return await invoke<T>(call, args);
  } catch (raised) {
    throw toIpcError(call, raised);
  }
}

/**
 * Every IPC call into the shell, typed from the Rust definitions (ui/src/gen/ipc.ts). Results
 * are trusted as typed: the bindings and the shell are built from the same source, and a
 * stale bindings file fails the Rust tests.
 */
export const ipc: IpcCalls = bindCalls(invokeCall);
