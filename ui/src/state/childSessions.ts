// Subagents' own sessions, read for the parent's transcript: the card of a spawn call
// call shows its child's work live, and "Open" shows the child's whole transcript. Both
// read one feed per child here, because the backend keeps one subscription per session
// (a second subscribe would cut off the first).
//
// A feed is subscribed while something shows it and let go a little after the last one
// stops (a card scrolled out of the virtualized transcript often comes right back). What
// it read stays for a few children, so showing one again resubscribes after its last seq.
import { createContext, useCallback, useContext, useEffect, useSyncExternalStore } from "react";

import type { EventEnvelope } from "../gen/protocol";
import { ipc, subscribeSession, toIpcError } from "../ipc";
import { frameQueue, type FrameQueue, type Schedule, nextFrame } from "./frameQueue";
import { applyBatch, emptyTranscript, type TranscriptState } from "./transcript";

export interface ChildFeedApi {
  subscribe: (sessionId: string, afterSeq: number, onEvents: (batch: EventEnvelope[]) => void) => Promise<void>;
  unsubscribe: (sessionId: string) => Promise<void>;
}

export interface ChildFeed {
  transcript: TranscriptState;
  /** Nothing read yet (the stored history is on its way). */
  loading: boolean;
  /** Why the child's events could not be read. */
  error: string | null;
}

const EMPTY_FEED: ChildFeed = { transcript: emptyTranscript, loading: true, error: null };

/** How long a feed nobody shows stays subscribed. */
const RELEASE_DELAY_MS = 3000;
/** Feeds nobody shows whose transcript is kept (the most recently shown). */
const KEEP_IDLE = 12;

interface Entry {
  feed: ChildFeed;
  users: number;
  subscribed: boolean;
  listeners: Set<() => void>;
  releaseTimer: ReturnType<typeof setTimeout> | null;
  lastUsed: number;
}

export class ChildSessions {
  private readonly entries = new Map<string, Entry>();
  private readonly incoming: FrameQueue<EventEnvelope>;
  private clock = 0;

  constructor(
    private readonly api: ChildFeedApi,
    private readonly options: { releaseDelayMs?: number; keepIdle?: number; schedule?: Schedule } = {},
  ) {
    // Events reach the feeds once a frame, however many children stream at once.
    this.incoming = frameQueue<EventEnvelope>((id, batch) => this.apply(id, batch), options.schedule ?? nextFrame);
  }

  /** The child's feed as it is now (the same object until it changes). */
  feed(sessionId: string): ChildFeed {
    return this.entries.get(sessionId)?.feed ?? EMPTY_FEED;
  }

  /** Calls `listener` whenever the child's feed changes; returns the unlisten. */
  listen(sessionId: string, listener: () => void): () => void {
    const entry = this.entry(sessionId);
    entry.listeners.add(listener);
    return () => entry.listeners.delete(listener);
  }

  /** Keeps the child's events coming until the returned release is called. */
  use(sessionId: string): () => void {
    const entry = this.entry(sessionId);
    entry.users++;
    entry.lastUsed = ++this.clock;
    if (entry.releaseTimer !== null) {
      clearTimeout(entry.releaseTimer);
      entry.releaseTimer = null;
    }
    if (!entry.subscribed) this.subscribe(sessionId, entry);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      entry.users--;
      if (entry.users > 0) return;
      entry.releaseTimer = setTimeout(() => this.letGo(sessionId, entry), this.options.releaseDelayMs ?? RELEASE_DELAY_MS);
    };
  }

  /** Stops every feed (the window goes). */
  dispose(): void {
    this.incoming.dispose();
    for (const [id, entry] of this.entries) {
      if (entry.releaseTimer !== null) clearTimeout(entry.releaseTimer);
      if (entry.subscribed) this.api.unsubscribe(id).catch(() => undefined);
    }
    this.entries.clear();
  }

  private entry(sessionId: string): Entry {
    let entry = this.entries.get(sessionId);
    if (entry === undefined) {
      entry = { feed: EMPTY_FEED, users: 0, subscribed: false, listeners: new Set(), releaseTimer: null, lastUsed: 0 };
      this.entries.set(sessionId, entry);
    }
    return entry;
  }

  private subscribe(sessionId: string, entry: Entry): void {
    entry.subscribed = true;
    // The reducer skips what it already has, so a resubscription from the last seq (or a
    // replay racing it) never shows an event twice.
    this.api
      .subscribe(sessionId, entry.feed.transcript.lastSeq, (batch) => this.incoming.push(sessionId, batch))
      .catch((raised: unknown) => {
        entry.subscribed = false;
        this.change(entry, { ...entry.feed, loading: false, error: toIpcError("subscribe_session", raised).message });
      });
  }

  private apply(sessionId: string, batch: EventEnvelope[]): void {
    const entry = this.entries.get(sessionId);
    if (entry === undefined) return;
    const transcript = applyBatch(entry.feed.transcript, batch);
    if (transcript === entry.feed.transcript && !entry.feed.loading) return;
    this.change(entry, { transcript, loading: false, error: null });
  }

  private change(entry: Entry, feed: ChildFeed): void {
    entry.feed = feed;
    for (const listener of [...entry.listeners]) listener();
  }

  private letGo(sessionId: string, entry: Entry): void {
    entry.releaseTimer = null;
    if (entry.users > 0) return;
    if (entry.subscribed) {
      entry.subscribed = false;
      this.incoming.discard(sessionId);
      this.api.unsubscribe(sessionId).catch(() => undefined);
    }
    // Only the most recently shown idle feeds keep what they read.
    const idle = [...this.entries].filter(([, e]) => e.users === 0 && e.listeners.size === 0);
    idle.sort(([, a], [, b]) => b.lastUsed - a.lastUsed);
    for (const [id, stale] of idle.slice(this.options.keepIdle ?? KEEP_IDLE)) {
      if (stale.releaseTimer === null && !stale.subscribed) this.entries.delete(id);
    }
  }
}

const ipcApi: ChildFeedApi = {
  subscribe: subscribeSession,
  unsubscribe: (sessionId) => ipc.unsubscribeSession({ sessionId }),
};

let windowFeeds: ChildSessions | null = null;

/** The window's feeds (made on first use); tests provide their own through the context. */
function defaultFeeds(): ChildSessions {
  windowFeeds ??= new ChildSessions(ipcApi);
  return windowFeeds;
}

export const ChildSessionsContext = createContext<ChildSessions | null>(null);

/**
 * A subagent's session as a transcript, read while `live` (the card shows its work, or
 * its transcript is open); what was read stays shown when `live` turns false.
 */
export function useChildSession(sessionId: string | null, live: boolean): ChildFeed {
  const feeds = useContext(ChildSessionsContext) ?? defaultFeeds();
  useEffect(() => {
    if (sessionId === null || !live) return;
    return feeds.use(sessionId);
  }, [feeds, sessionId, live]);
  const listen = useCallback(
    (onChange: () => void) => (sessionId === null ? () => undefined : feeds.listen(sessionId, onChange)),
    [feeds, sessionId],
  );
  const read = useCallback(() => (sessionId === null ? EMPTY_FEED : feeds.feed(sessionId)), [feeds, sessionId]);
  return useSyncExternalStore(listen, read);
}
