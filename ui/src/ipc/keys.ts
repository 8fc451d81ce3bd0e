// Typed wrappers of src-tauri/src/commands/keys.rs. Keys go to the keychain only; no
// command hands one back.
import type { KeyStatus } from "../gen/protocol";
import { CommandError } from "./errors";
import { invokeCommand } from "./invoke";

function isKeyStatus(value: unknown): value is KeyStatus {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  const optionalString = (field: string) => record[field] === null || typeof record[field] === "string";
  return (
    typeof record.provider === "string" &&
    typeof record.required === "boolean" &&
    optionalString("source") &&
    optionalString("keychain_error")
  );
}

async function expectStatus(command: string, args: Record<string, unknown>): Promise<KeyStatus> {
  const payload = await invokeCommand<unknown>(command, args);
  if (!isKeyStatus(payload)) {
    throw new CommandError(command, "internal", `${command} returned an unexpected payload`, false);
  }
  return payload;
}

/** Where `provider`'s key would come from (keychain, environment, nowhere). */
export function keyStatus(provider: string): Promise<KeyStatus> {
  return expectStatus("key_status", { provider });
}

/** Stores `key` for `provider` in the OS keychain. */
export function setApiKey(provider: string, key: string): Promise<KeyStatus> {
  return expectStatus("set_api_key", { provider, key });
}

/** Removes `provider`'s key from the OS keychain. */
export function deleteApiKey(provider: string): Promise<KeyStatus> {
  return expectStatus("delete_api_key", { provider });
}
