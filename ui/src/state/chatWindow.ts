// The loaded window of a long session: which stretch of its log the transcript holds, how
// it grows (earlier pages above, later pages below) and shrinks (turns far from the reader
// let go), and how it meets the live end. Pure; ./chat routes its actions here.
//
// A window opened at a search hit deep in a session holds a few pages around the hit, not
// everything after it. While it does not reach the live end, live events cannot be shown
// (they belong after turns not loaded), so they are held back, bounded, and joined on when
// a later page meets the end: every live event after `held.after` is in `held.events`, so a
// page ending at or after `held.after` leaves no gap, and replayed seqs are skipped by the
// transcript reducer, so none shows twice. What is running or asked at the end meanwhile is
// not read here but from the chat's tail (./chatTail), which the window never trims.
import type { EventEnvelope, HistoryPage } from "../gen/protocol";
import { applyBatch, emptyTranscript, mergeAgents, type TranscriptState } from "./transcript";

export interface HistoryWindow {
  /** The first seq loaded (a turn's start, or 1). */
  from: number;
  /** Events exist before `from`. */
  more: boolean;
  /**
   * Events exist after the loaded part (which ends at the transcript's `lastSeq`): the
   * window does not reach the live end, and live events are held back meanwhile.
   */
  after: boolean;
}

/** Live events held back while the window does not reach the live end. */
export interface HeldEvents {
  /** Every live event with a seq above this one is in `events`. */
  after: number;
  events: EventEnvelope[];
}

export interface WindowLimits {
  /** Turns kept loaded at most... */
  turns: number;
  /** ...and items (answers, tool cards...) across them. */
  items: number;
  /** Never fewer turns than this are kept, whatever their size: the reader is among them. */
  minTurns: number;
}

/**
 * About 400 turns stay loaded; past that, turns at the end far from the reader go (they
 * are read again from the store when scrolled back to). Items bound turns with many tool
 * calls each; a page is 40 turns, so the reader's page and the one beside it always stay.
 */
export const WINDOW_LIMITS: WindowLimits = { turns: 400, items: 8000, minTurns: 80 };
/** Live events held back at most; past that the oldest go and are read from the store. */
export const MAX_HELD = 5000;

/** What the window state needs of a conversation. */
export interface Windowed {
  transcript: TranscriptState;
  history: HistoryWindow | null;
  held: HeldEvents | null;
}

/**
 * After which seq a session whose first page is `page` is subscribed to: right after the
 * page when it reaches the end; else after what the session held when opened (`lastSeq`),
 * so only what happens from now on is held back, never the log in between.
 */
export function subscribeAfter(page: HistoryPage, lastSeq: number): number {
  return page.has_after ? Math.max(lastSeq, page.to_seq) : page.to_seq;
}

function windowOf(page: HistoryPage, after: boolean): HistoryWindow | null {
  return page.has_more || after ? { from: page.from_seq, more: page.has_more, after } : null;
}

function withPage(transcript: TranscriptState, page: HistoryPage): TranscriptState {
  const applied = applyBatch(transcript, page.events);
  return { ...applied, lastSeq: Math.max(applied.lastSeq, page.to_seq) };
}

/**
 * The loaded part now ends at the transcript's `lastSeq`: when the page just read reached
 * the end and the held events take over from it, they are applied and the window follows
 * the live end again; otherwise (the held events no longer reach back that far) it still
 * does not, and the next page is read from the store.
 */
function join<S extends Windowed>(state: S, reachedEnd: boolean): S {
  const { held } = state;
  if (!reachedEnd || (held !== null && held.after > state.transcript.lastSeq)) {
    const history = state.history ?? { from: 1, more: false, after: true };
    return { ...state, history: { ...history, after: true }, held: held ?? { after: state.transcript.lastSeq, events: [] } };
  }
  const transcript = held === null ? state.transcript : applyBatch(state.transcript, held.events);
  const history = state.history && (state.history.more ? { ...state.history, after: false } : null);
  return { ...state, transcript, history, held: null };
}

/** A session's first page: its end, or a few turns from a search hit on. */
export function openPage<S extends Windowed>(state: S, page: HistoryPage, lastSeq: number): S {
  const opened = { ...state, transcript: withPage(state.transcript, page), history: windowOf(page, page.has_after), held: null };
  if (!page.has_after) return opened;
  return { ...opened, held: { after: subscribeAfter(page, lastSeq), events: [] } };
}

/** An earlier page, put above what is loaded; far later turns may go to make room. */
export function olderPage<S extends Windowed>(state: S, page: HistoryPage, limits = WINDOW_LIMITS): S {
  // Only the page that ends where the loaded part starts fits above it.
  if (state.history === null || page.to_seq !== state.history.from - 1) return state;
  const older = applyBatch(emptyTranscript, page.events);
  const transcript = {
    ...state.transcript,
    entries: [...older.entries, ...state.transcript.entries],
    session: state.transcript.session ?? older.session,
    // The later word holds: what is loaded already came after this page.
    agentSettings: state.transcript.agentSettings.length > 0 ? state.transcript.agentSettings : older.agentSettings,
    agents: mergeAgents(older.agents, state.transcript.agents),
  };
  const history = { ...state.history, from: page.from_seq, more: page.has_more };
  const next = { ...state, transcript, history: history.more || history.after ? history : null };
  return trimNewer(next, limits);
}

/** A later page, put below what is loaded (the window reads on towards the live end). */
export function newerPage<S extends Windowed>(state: S, page: HistoryPage, limits = WINDOW_LIMITS): S {
  // Only a page that holds the event after the loaded part fits below it. It may start
  // earlier: asked for the seq after the loaded part, the service starts at the turn
  // holding it, which the loaded part may end inside of (a page read while a turn ran).
  // The seqs loaded already are skipped by the transcript reducer.
  const wanted = state.transcript.lastSeq + 1;
  if (state.history?.after !== true || page.from_seq > wanted || page.to_seq < wanted) return state;
  const next = join({ ...state, transcript: withPage(state.transcript, page) }, !page.has_after);
  return trimOlder(next, limits);
}

/** The session's end page, in place of whatever was loaded ("Jump to latest"). */
export function latestPage<S extends Windowed>(state: S, page: HistoryPage): S {
  // Already there, with live events applied as they come (some maybe after this page).
  if (state.held === null) return state;
  // Known from earlier pages and not repeated in this one: where the session started and
  // its subagents.
  const base = {
    ...emptyTranscript,
    session: state.transcript.session,
    mcp: state.transcript.mcp,
    agentSettings: state.transcript.agentSettings,
  };
  const fresh = withPage(base, page);
  const transcript = { ...fresh, agents: mergeAgents(state.transcript.agents, fresh.agents) };
  const history = { from: page.from_seq, more: page.has_more, after: true };
  const next = { ...state, transcript, history };
  return join(next, !page.has_after);
}

/**
 * Live events: shown when the window reaches the end, else held back (bounded). Shown, they
 * may push the window past its limits: the earliest turns go, unless the user is reading
 * one of them (`reading`, the key of the entry at the top of the view while not following
 * the end): then the newest go instead and live events are held back from here, as when
 * reading back, so what is read never moves.
 */
export function liveEvents<S extends Windowed>(
  state: S,
  batch: readonly EventEnvelope[],
  limits = WINDOW_LIMITS,
  reading: string | null = null,
): S {
  const { held } = state;
  if (held === null) {
    const transcript = applyBatch(state.transcript, batch);
    if (transcript === state.transcript) return state;
    const grown = { ...state, transcript };
    const trimmed = trimOlder(grown, limits);
    if (reading === null || trimmed === grown || holds(trimmed, reading)) return trimmed;
    const holding = trimNewer(grown, limits);
    return holds(holding, reading) ? holding : trimmed;
  }
  // seq 0 (an error the store refused) has no place in the log: it is held like the rest.
  const newest = newestSeq(held);
  const fresh = batch.filter((e) => e.seq === 0 || (e.seq > held.after && e.seq > newest));
  if (fresh.length === 0) return state;
  let events = [...held.events, ...fresh];
  let after = held.after;
  let over = events.length - MAX_HELD;
  if (over > 0) {
    // The oldest go; they are read from the store when a later page is. An error the store
    // refused (seq 0) cannot be read again, so those stay while others can go.
    const kept: EventEnvelope[] = [];
    for (const e of events) {
      if (over > 0 && e.seq !== 0) {
        after = Math.max(after, e.seq);
        over -= 1;
      } else kept.push(e);
    }
    events = over > 0 ? kept.slice(over) : kept;
  }
  return { ...state, held: { after, events } };
}

/** The newest seq held (seq-0 notices carry none). */
function newestSeq(held: HeldEvents): number {
  for (let i = held.events.length - 1; i >= 0; i--) {
    const seq = held.events[i]?.seq ?? 0;
    if (seq !== 0) return seq;
  }
  return held.after;
}

/** Whether entry `key` is still loaded. */
function holds(state: Windowed, key: string): boolean {
  return state.transcript.entries.some((entry) => entry.key === key);
}

/** Turn indexes in `entries`, and the items each holds. */
function turnsOf(transcript: TranscriptState): { index: number; items: number }[] {
  const turns: { index: number; items: number }[] = [];
  transcript.entries.forEach((entry, index) => {
    if (entry.kind === "turn") turns.push({ index, items: entry.items.length });
  });
  return turns;
}

/** How many turns from one end go so the rest fits the limits (read from the other end). */
function excess(sizes: number[], limits: WindowLimits): number {
  let turns = sizes.length;
  let items = sizes.reduce((sum, n) => sum + n, 0);
  let drop = 0;
  while (turns > limits.minTurns && (turns > limits.turns || items > limits.items)) {
    items -= sizes[drop] as number;
    turns -= 1;
    drop += 1;
  }
  return drop;
}

/**
 * Lets go of the earliest turns (and what lies between them) past the limits: the reader
 * reads on at the other end. The window then starts at the first turn kept.
 */
export function trimOlder<S extends Windowed>(state: S, limits = WINDOW_LIMITS): S {
  const turns = turnsOf(state.transcript);
  const drop = excess(turns.map((t) => t.items), limits);
  if (drop === 0) return state;
  const first = turns[drop] as { index: number };
  const entries = state.transcript.entries.slice(first.index);
  const start = entries[0];
  const from = start?.kind === "turn" ? start.startSeq : state.transcript.lastSeq + 1;
  const history = { from, more: true, after: state.history?.after ?? false };
  return { ...state, transcript: { ...state.transcript, entries }, history };
}

/**
 * Lets go of the latest turns (and what follows them) past the limits: the reader is far
 * back. The window then ends before the first turn let go, and no longer reaches the live
 * end: live events are held back from here until a later page meets it again.
 */
export function trimNewer<S extends Windowed>(state: S, limits = WINDOW_LIMITS): S {
  const turns = turnsOf(state.transcript);
  const drop = excess(turns.map((t) => t.items).reverse(), limits);
  if (drop === 0) return state;
  const firstGone = turns[turns.length - drop] as { index: number };
  const gone = state.transcript.entries[firstGone.index];
  if (gone?.kind !== "turn") return state;
  const entries = state.transcript.entries.slice(0, firstGone.index);
  const transcript = { ...state.transcript, entries, lastSeq: gone.startSeq - 1 };
  const history = { from: state.history?.from ?? 1, more: state.history?.more ?? false, after: true };
  // Live events from what was loaded on, unless some were held back already.
  const held = state.held ?? { after: state.transcript.lastSeq, events: [] };
  return { ...state, transcript, history, held };
}
