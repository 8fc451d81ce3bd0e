import { open, save } from "@tauri-apps/plugin-dialog";

import { toCommandError } from "./errors";

/** The native folder picker; null when the user cancels. */
export async function pickFolder(): Promise<string | null> {
  try {
    const picked = await open({ directory: true, multiple: false, title: "Open folder" });
    // `multiple: false` gives one path, but the declared type still allows a list.
    if (Array.isArray(picked)) {
      return picked[0] ?? null;
    }
    return picked;
  } catch (raised) {
    throw toCommandError("dialog.open", raised);
  }
}

/** The native save dialog for a JSON file; null when the user cancels. */
export async function pickSavePath(title: string, defaultPath: string): Promise<string | null> {
  try {
    return await save({ title, defaultPath, filters: [{ name: "JSON", extensions: ["json"] }] });
  } catch (raised) {
    throw toCommandError("dialog.save", raised);
  }
}
