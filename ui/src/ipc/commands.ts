import { CommandError } from "./errors";
import { invokeCommand } from "./invoke";

/** Mirror of `AppInfo` in src-tauri/src/commands/app.rs. */
export interface AppInfo {
  version: string;
  memo_home: string;
  platform: string;
  engine: string;
}

const APP_INFO_FIELDS = ["version", "memo_home", "platform", "engine"] as const;

function isAppInfo(value: unknown): value is AppInfo {
  if (typeof value !== "object" || value === null) {
    return false;
  }
  const record = value as Record<string, unknown>;
  return APP_INFO_FIELDS.every((field) => typeof record[field] === "string");
}

/** Version, data folder and platform as the Rust side computed them. */
export async function getAppInfo(): Promise<AppInfo> {
  const payload = await invokeCommand<unknown>("app_info");
  // The hand-written mirror can drift from the Rust struct; catching that here gives a
  // clear error instead of `undefined` rendered in the status bar.
  if (!isAppInfo(payload)) {
    throw new CommandError("app_info", "internal", "app_info returned an unexpected payload", false);
  }
  return payload;
}
