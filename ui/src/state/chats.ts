// Every conversation the window holds at once: one ChatState per session it has shown
// (kept, and kept current, so switching back is instant and a turn running out of sight
// is never lost), one unsent draft per folder, and which of them each folder shows.
// The pure part; ./useChat drives it.
import { chatReducer, initialChat, type ChatAction, type ChatState } from "./chat";
import { tailRunning } from "./chatTail";

export interface ChatsState {
  byKey: Record<string, ChatState>;
  /** Folder -> the key of the conversation it shows. */
  shown: Record<string, string>;
  /** Session keys, most recently shown last: the oldest are let go first. */
  recent: string[];
}

export const initialChats: ChatsState = { byKey: {}, shown: {}, recent: [] };

/** Sessions' conversations kept in memory (and subscribed to) besides the shown ones. */
export const MAX_KEPT = 12;

/** The key of a folder's unsent conversation. */
export function draftKey(cwd: string): string {
  return `draft:${cwd}`;
}

export function isDraftKey(key: string): boolean {
  return key.startsWith("draft:");
}

export type ChatsAction =
  /** Applies a ChatAction to one conversation (created when it is new). */
  | { type: "chat"; key: string; action: ChatAction }
  /** Folder `cwd` shows conversation `key` from now on. */
  | { type: "show"; cwd: string; key: string }
  /** The draft of `cwd` became session `sessionId` (its first message was sent). */
  | { type: "promote"; cwd: string; sessionId: string }
  /** Forgets conversations (deleted, or let go to save memory). */
  | { type: "drop"; keys: string[] };

/** The conversation folder `cwd` shows: its chosen one, else its draft. */
export function shownKey(state: ChatsState, cwd: string | null): string | null {
  if (cwd === null) return null;
  return state.shown[cwd] ?? draftKey(cwd);
}

export function shownChat(state: ChatsState, cwd: string | null): ChatState {
  const key = shownKey(state, cwd);
  return (key !== null ? state.byKey[key] : undefined) ?? initialChat;
}

function touch(recent: string[], key: string): string[] {
  if (isDraftKey(key)) return recent;
  return [...recent.filter((k) => k !== key), key];
}

export function chatsReducer(state: ChatsState, action: ChatsAction): ChatsState {
  switch (action.type) {
    case "chat": {
      const current = state.byKey[action.key];
      // Events of a conversation already let go: nothing to keep them in.
      if (current === undefined && action.action.type === "events") return state;
      const next = chatReducer(current ?? initialChat, action.action);
      if (next === current) return state;
      return { ...state, byKey: { ...state.byKey, [action.key]: next } };
    }
    case "show":
      if (state.shown[action.cwd] === action.key && state.recent[state.recent.length - 1] === action.key) return state;
      return {
        ...state,
        shown: { ...state.shown, [action.cwd]: action.key },
        recent: touch(state.recent, action.key),
      };
    case "promote": {
      const draft = draftKey(action.cwd);
      const moved = state.byKey[draft] ?? initialChat;
      const byKey = { ...state.byKey, [action.sessionId]: moved };
      delete byKey[draft];
      // Only when the folder still shows its draft: the user may have moved on meanwhile.
      const shown =
        (state.shown[action.cwd] ?? draft) === draft ? { ...state.shown, [action.cwd]: action.sessionId } : state.shown;
      return { byKey, shown, recent: touch(state.recent, action.sessionId) };
    }
    case "drop": {
      if (!action.keys.some((k) => k in state.byKey || state.recent.includes(k))) return state;
      const byKey = { ...state.byKey };
      for (const key of action.keys) delete byKey[key];
      const shown = Object.fromEntries(Object.entries(state.shown).filter(([, key]) => !action.keys.includes(key)));
      return { byKey, shown, recent: state.recent.filter((k) => !action.keys.includes(k)) };
    }
  }
}

/**
 * Session conversations to let go so at most `max` are kept: the least recently shown
 * first, never one a folder shows, one with a turn running, or one loading.
 */
export function evictable(state: ChatsState, max: number = MAX_KEPT): string[] {
  const sessions = state.recent.filter((k) => state.byKey[k] !== undefined);
  const excess = sessions.length - max;
  if (excess <= 0) return [];
  const shown = new Set(Object.values(state.shown));
  const out: string[] = [];
  for (const key of sessions) {
    if (out.length >= excess) break;
    const chat = state.byKey[key];
    if (chat === undefined || shown.has(key) || chat.phase !== "idle" || tailRunning(chat.tail) !== null) continue;
    out.push(key);
  }
  return out;
}
