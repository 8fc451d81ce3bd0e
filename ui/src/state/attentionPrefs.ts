// Whether Memo may notify and badge: two switches in Settings → Notifications, kept in
// localStorage per Memo home (like the remembered folders). On unless turned off.
import type { KeyValueStore } from "./workspaces";

export interface AttentionPrefs {
  /** Desktop notifications when a session needs approval or finishes out of sight. */
  desktop: boolean;
  /** The number of waiting sessions on the window's title and launcher badge. */
  badge: boolean;
}

export const defaultAttentionPrefs: AttentionPrefs = { desktop: true, badge: true };

const CHANGED_EVENT = "memo:attention-prefs";

function storageKey(scope: string): string {
  return `memo.attention:${scope}`;
}

export function loadAttentionPrefs(storage: KeyValueStore, scope: string): AttentionPrefs {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(storageKey(scope)) ?? "null");
    if (typeof parsed !== "object" || parsed === null) return defaultAttentionPrefs;
    const record = parsed as Record<string, unknown>;
    return {
      desktop: typeof record.desktop === "boolean" ? record.desktop : true,
      badge: typeof record.badge === "boolean" ? record.badge : true,
    };
  } catch {
    return defaultAttentionPrefs;
  }
}

/** Saves and tells the window's other readers (the settings page and the app shell). */
export function saveAttentionPrefs(storage: KeyValueStore, scope: string, prefs: AttentionPrefs): void {
  try {
    storage.setItem(storageKey(scope), JSON.stringify(prefs));
  } catch {
    // Storage full or disabled: the switch still holds for this run.
  }
  window.dispatchEvent(new CustomEvent(CHANGED_EVENT, { detail: { scope, prefs } }));
}

/** Calls `onChange` whenever the prefs of `scope` are saved; returns the unsubscribe. */
export function onAttentionPrefs(scope: string, onChange: (prefs: AttentionPrefs) => void): () => void {
  const listener = (event: Event) => {
    const detail = (event as CustomEvent<{ scope: string; prefs: AttentionPrefs }>).detail;
    if (detail.scope === scope) onChange(detail.prefs);
  };
  window.addEventListener(CHANGED_EVENT, listener);
  return () => window.removeEventListener(CHANGED_EVENT, listener);
}
