// The composer's unsent message, one per session (or per folder before its session exists),
// kept while Settings, another folder or another session is in front, and across a restart
// (localStorage). The stored copy is bounded: a huge draft or many images must not fill
// localStorage (and every other preference with it), so over the budget images, then long
// pasted texts, stay in memory only; old drafts go first.
import type { ImageInput } from "../gen/protocol";
import type { KeyValueStore } from "./workspaces";
import { pageStorage } from "./pageStorage";

/** A long paste, kept out of the text box as an attachment (sent inside the message). */
export interface PastedText {
  id: number;
  text: string;
}

export interface Draft {
  text: string;
  images: ImageInput[];
  pastes: PastedText[];
}

export const emptyDraft: Draft = { text: "", images: [], pastes: [] };

/** A session's draft by its id; a session not started yet by its folder. */
export function draftKey(sessionId: string | null, cwd: string | null): string | null {
  if (sessionId !== null) return `session:${sessionId}`;
  return cwd === null ? null : `folder:${cwd}`;
}

const STORAGE_KEY = "memo.drafts";
/** Characters of JSON kept in localStorage for all drafts (it holds ~5 M for the origin). */
export const DRAFT_BUDGET = 1_000_000;
/** Drafts kept in localStorage, the newest. */
export const MAX_STORED_DRAFTS = 40;
/** Quiet time before the stored copy is written: not a JSON of every draft per keystroke. */
const WRITE_DELAY_MS = 400;

interface Stored {
  text: string;
  images?: ImageInput[];
  pastes?: PastedText[];
  /** When it last changed (ms): the newest are kept when over the budget. */
  at: number;
}

function isEmpty(draft: Draft): boolean {
  return draft.text === "" && draft.images.length === 0 && draft.pastes.length === 0;
}

/**
 * What of `drafts` goes into localStorage within `budget` characters: the newest first, each
 * with its text (cut to the budget if it alone is over), then its pasted texts and images
 * while they fit.
 */
export function storedCopy(drafts: ReadonlyMap<string, Stored>, budget = DRAFT_BUDGET): Record<string, Stored> {
  const out: Record<string, Stored> = {};
  let left = budget;
  const newest = [...drafts.entries()].sort((a, b) => b[1].at - a[1].at).slice(0, MAX_STORED_DRAFTS);
  for (const [key, draft] of newest) {
    const base = { text: draft.text, at: draft.at };
    let size = JSON.stringify(key).length + JSON.stringify(base).length + 2;
    if (size > left) {
      // The newest text alone over the budget: its start is better than nothing. An older
      // one is left out (a smaller, older one may still fit).
      const room = left - (size - draft.text.length) - 16;
      if (room > 0 && Object.keys(out).length === 0) {
        out[key] = { text: draft.text.slice(0, room), at: draft.at };
        left = 0;
      }
      continue;
    }
    const entry: Stored = base;
    left -= size;
    for (const part of ["pastes", "images"] as const) {
      const items = draft[part];
      if (!items || items.length === 0) continue;
      size = JSON.stringify(items).length + part.length + 4;
      if (size <= left) {
        (entry as unknown as Record<string, unknown>)[part] = items;
        left -= size;
      }
    }
    out[key] = entry;
  }
  return out;
}

function parse(raw: string | null): Map<string, Stored> {
  const map = new Map<string, Stored>();
  try {
    const parsed: unknown = JSON.parse(raw ?? "null");
    if (typeof parsed !== "object" || parsed === null) return map;
    for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
      if (typeof value !== "object" || value === null) continue;
      const v = value as Partial<Stored>;
      if (typeof v.text !== "string") continue;
      map.set(key, {
        text: v.text,
        images: Array.isArray(v.images) ? v.images : [],
        pastes: Array.isArray(v.pastes) ? v.pastes : [],
        at: typeof v.at === "number" ? v.at : 0,
      });
    }
  } catch {
    // A broken copy: no drafts rather than no composer.
  }
  return map;
}

export class DraftStore {
  private readonly drafts: Map<string, Stored>;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly storage: KeyValueStore | null,
    private readonly budget = DRAFT_BUDGET,
  ) {
    this.drafts = parse(storage?.getItem(STORAGE_KEY) ?? null);
  }

  get(key: string): Draft {
    const found = this.drafts.get(key);
    return found ? { text: found.text, images: found.images ?? [], pastes: found.pastes ?? [] } : emptyDraft;
  }

  /** Keeps `draft` for `key` (an empty one is dropped) and writes the stored copy soon. */
  set(key: string, draft: Draft): void {
    const before = this.drafts.get(key);
    if (isEmpty(draft)) {
      if (!before) return;
      this.drafts.delete(key);
    } else {
      if (before && before.text === draft.text && before.images === draft.images && before.pastes === draft.pastes) return;
      this.drafts.set(key, { ...draft, at: Date.now() });
    }
    this.schedule();
  }

  /** After a send: what was sent leaves the draft; what was added meanwhile stays. */
  sent(key: string, sent: Draft): void {
    const now = this.get(key);
    this.set(key, {
      text: now.text.trim() === sent.text.trim() ? "" : now.text,
      images: now.images === sent.images ? [] : now.images,
      pastes: now.pastes === sent.pastes ? [] : now.pastes,
    });
  }

  /** Writes the stored copy now (before the window goes, and in tests). */
  flush(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (!this.storage) return;
    try {
      this.storage.setItem(STORAGE_KEY, JSON.stringify(storedCopy(this.drafts, this.budget)));
    } catch {
      // Storage full or disabled: the drafts still hold for this run.
    }
  }

  /** Every draft dropped (tests). */
  forgetAll(): void {
    this.drafts.clear();
    this.flush();
  }

  private schedule(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), WRITE_DELAY_MS);
  }
}


/** The window's drafts. */
export const drafts = new DraftStore(pageStorage());
// The last keystrokes before the window closes are written at once, not after the delay.
if (typeof window !== "undefined") {
  window.addEventListener("pagehide", () => drafts.flush());
  window.addEventListener("beforeunload", () => drafts.flush());
}
