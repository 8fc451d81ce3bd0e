import { open, save } from "@tauri-apps/plugin-dialog";

import { toIpcError } from "./errors";
import { t } from "../i18n";

/** A choice in a file dialog's type list: its name, and extensions without the dot. */
export interface FileFilter {
  name: string;
  extensions: string[];
}

const JSON_FILTER: FileFilter = { name: "JSON", extensions: ["json"] };

/**
 * "All files": the native dialogs know no wildcard of their own, but take `*` as an
 * extension that matches every file that has one.
 */
export function allFiles(): FileFilter {
  return { name: t("common:allFiles"), extensions: ["*"] };
}

/** The native folder picker; null when the user cancels. */
export async function pickFolder(): Promise<string | null> {
  try {
    const picked = await open({ directory: true, multiple: false, title: t("common:openFolder") });
    // `multiple: false` gives one path, but the declared type still allows a list.
    if (Array.isArray(picked)) {
      return picked[0] ?? null;
    }
    return picked;
  } catch (raised) {
    throw toIpcError("dialog.open", raised);
  }
}

/** The native picker for one or more files; null when the user cancels. */
export async function pickFiles(title: string, filters: FileFilter[]): Promise<string[] | null> {
  try {
    const picked = await open({ title, multiple: true, directory: false, filters });
    if (picked === null) return null;
    // `multiple: true` gives a list, but the declared type still allows a single path.
    const paths = Array.isArray(picked) ? picked : [picked];
    return paths.length > 0 ? paths : null;
  } catch (raised) {
    throw toIpcError("dialog.open", raised);
  }
}

/**
 * The native save dialog (it asks before replacing a file); null when the user cancels.
 * Without a filter it offers JSON, what the approval rules export writes.
 */
export async function pickSavePath(title: string, defaultPath: string, filter: FileFilter = JSON_FILTER): Promise<string | null> {
  try {
    return await save({ title, defaultPath, filters: [filter] });
  } catch (raised) {
    throw toIpcError("dialog.save", raised);
  }
}
