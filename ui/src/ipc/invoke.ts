import { invoke } from "@tauri-apps/api/core";

import { toCommandError } from "./errors";

/**
 * The only place the UI calls `invoke`. Every rejection becomes a `CommandError`, so no
 * caller has to guess what shape a failure has.
 */
export async function invokeCommand<T>(command: string, args?: Record<string, unknown>): Promise<T> {
  try {
    return await invoke<T>(command, args);
  } catch (raised) {
    throw toCommandError(command, raised);
  }
}
