// The engine stores no title yet, so the sidebar labels a session with the first words
// of its first message, remembered here when the UI sees it.
import type { KeyValueStore } from "./workspaces";

const KEY = "memo.sessionTitles";
const MAX_TITLES = 500;
const MAX_TITLE_CHARS = 80;

type Titles = Record<string, string>;

function read(storage: KeyValueStore): Titles {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(KEY) ?? "{}");
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Titles) : {};
  } catch {
    return {};
  }
}

/** One line, at most MAX_TITLE_CHARS, cut at a word boundary when one is near. */
export function titleFromMessage(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= MAX_TITLE_CHARS) {
    return line;
  }
  const cut = line.slice(0, MAX_TITLE_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${space > MAX_TITLE_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}

export function sessionTitle(storage: KeyValueStore, sessionId: string): string | null {
  const title = read(storage)[sessionId];
  return typeof title === "string" ? title : null;
}

/** Returns false when the title was already known (nothing to refresh). */
export function rememberSessionTitle(storage: KeyValueStore, sessionId: string, message: string): boolean {
  const titles = read(storage);
  const title = titleFromMessage(message);
  if (title === "" || titles[sessionId] === title) {
    return false;
  }
  titles[sessionId] = title;
  // Oldest entries first in insertion order; keep the newest MAX_TITLES.
  const entries = Object.entries(titles).slice(-MAX_TITLES);
  try {
    storage.setItem(KEY, JSON.stringify(Object.fromEntries(entries)));
  } catch {
    return false;
  }
  return true;
}
