import { invoke } from "@tauri-apps/api/core";

import { bindCommands, type CommandName, type Commands } from "../gen/commands";
import { toCommandError } from "./errors";

/**
 * The only place the UI calls `invoke`. Every rejection becomes a `CommandError`, so no
 * caller has to guess what shape a failure has.
 */
export async function invokeCommand<T>(command: CommandName, args: Record<string, unknown>): Promise<T> {
  try {
    return await invoke<T>(command, args);
  } catch (raised) {
    throw toCommandError(command, raised);
  }
}

/**
 * Every Rust command, typed from the Rust definitions (ui/src/gen/commands.ts). Results
 * are trusted as typed: the bindings and the shell are built from the same source, and a
 * stale bindings file fails the Rust tests.
 */
export const commands: Commands = bindCommands(invokeCommand);
