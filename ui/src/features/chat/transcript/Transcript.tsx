import { type ReactNode, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";

import { useT } from "../../../i18n";
import { say } from "../../../i18n/phrase";
import type { TranscriptEntry, TranscriptState, TurnView } from "../../../state/transcript";
import { SubagentsContext, type SubagentsContextValue } from "../../subagents/context";
import { ApprovalCard } from "./ApprovalCard";
import { type AnswerElicitation, ElicitationCard } from "./ElicitationCard";
import { ErrorNotice, InfoNotice } from "./Notices";
import { TurnBlock } from "./TurnBlock";
import { estimateOf, indexAt, offsetsOf, rangeFor, turnHolding, type ViewPosition, wantsNewer, wantsOlder } from "./virtual";

interface TranscriptProps {
  transcript: TranscriptState;
  /** Absent when there is nothing to rewind (no stored session). */
  onRewind?: ((turn: TurnView) => void) | undefined;
  rewindDisabled?: boolean;
  onRetry?: ((turn: TurnView) => void) | undefined;
  /** Answers an MCP server's request for input. */
  onElicit?: AnswerElicitation | undefined;
  /** The scrolling container the transcript is in. */
  scroller?: HTMLElement | null;
  /** The view follows the newest entry (the user has not scrolled up). */
  pinned?: boolean;
  /** An event to bring into view (a search hit, a rewind point). */
  focusSeq?: number | null;
  /** Earlier history exists in the store (a long session read from its end). */
  hasOlder?: boolean;
  /** Reads the page before what is loaded. */
  onLoadOlder?: () => void;
  /**
   * What is loaded stops short of the live end (a long session opened at a search hit, or
   * read far back): the view never follows the end meanwhile.
   */
  hasNewer?: boolean;
  /** Reads the page after what is loaded. */
  onLoadNewer?: () => void;
  /** Changes each time the loaded part was moved to the live end: the view goes there. */
  latest?: number;
  /** Shows a subagent's own transcript; absent where none can be opened. */
  onOpenAgent?: ((agentId: string) => void) | undefined;
  /**
   * Told the key of the entry at the top of the view while the view does not follow the
   * end, and null while it does (and when the transcript goes): live events must not let
   * that entry go, and "Latest" is offered while output may grow out of sight.
   */
  onReading?: ((key: string | null) => void) | undefined;
}

const NO_ANSWER: AnswerElicitation = () => Promise.resolve();
/** Where a jumped-to turn lands: this far below the top of the view. */
const JUMP_OFFSET_PX = 8;
/** How long a jumped-to turn is highlighted. */
const FOUND_MS = 1600;
/** What the user does to scroll on their own (ending a jump's hold). */
const USER_INPUT = ["wheel", "touchstart", "keydown", "mousedown"] as const;
/** How close to the bottom counts as there (as for the chat's own pinning). */
const AT_END_PX = 48;

/**
 * The conversation, virtualized: only the entries in view (plus a margin) are in the DOM,
 * the rest are two blocks of their measured or estimated height. The view follows the
 * newest entry while pinned; otherwise the entry at the top of the view stays where it is
 * whatever changes above it (entries measured, a page read from the store, entries let go).
 * Near the top of what is loaded, the page before it is read; near its bottom, when it
 * stops short of the live end, the page after it.
 */
export function Transcript({
  transcript,
  onRewind,
  rewindDisabled = false,
  onRetry,
  onElicit = NO_ANSWER,
  scroller = null,
  pinned = true,
  focusSeq = null,
  hasOlder = false,
  onLoadOlder,
  hasNewer = false,
  onLoadNewer,
  latest = 0,
  onOpenAgent,
  onReading,
}: TranscriptProps) {
  const t = useT("transcript");
  const { entries } = transcript;
  // The subagent cards read the session's agents here: a change of one agent's state
  // renders its card, not every turn.
  const subagents = useMemo<SubagentsContextValue>(
    () => ({ agents: transcript.agents, open: onOpenAgent ?? null }),
    [transcript.agents, onOpenAgent],
  );
  const keys = useMemo(() => entries.map((entry) => entry.key), [entries]);

  // Heights of entries shown at least once; `measured` changes when one does.
  const heights = useRef(new Map<string, number>());
  const [measured, setMeasured] = useState(0);
  const [viewport, setViewport] = useState(800);
  // The entry at the top of the view while not following, and where it is.
  const anchor = useRef<{ key: string; offset: number } | null>(null);
  const [moved, setMoved] = useState(0);
  // A jump holds the view on its turn until the user scrolls or the chat unpins.
  const [jumped, setJumped] = useState(false);
  // Reading towards the live end page by page: the view stays on the anchor, even once the
  // pages meet the end, until the user scrolls to the bottom themselves (being at the
  // bottom of a page just before the next one came is not asking to follow the end).
  const [forward, setForward] = useState(hasNewer);
  if (hasNewer && !forward) setForward(true);
  const following = pinned && !jumped && !forward;

  // `measured` stands for the heights map, which changes in place.
  const offsets = useMemo(() => offsetsOf(keys, heights.current, estimateOf(heights.current)), [keys, measured]);
  const position: ViewPosition =
    following || anchor.current === null ? { kind: "end" } : { kind: "anchor", ...anchor.current };
  const range = rangeFor(keys, offsets, viewport, position);
  void moved;

  const live = useRef({ keys, offsets, viewport, range, following, hasOlder, onLoadOlder, hasNewer, onLoadNewer, forward, onReading });
  live.current = { keys, offsets, viewport, range, following, hasOlder, onLoadOlder, hasNewer, onLoadNewer, forward, onReading };

  // What the view reads, said when it changes (scrolling past an entry, following or not).
  const reported = useRef<string | null | undefined>(undefined);
  const report = useCallback(() => {
    const key = live.current.following ? null : (anchor.current?.key ?? null);
    if (key === reported.current) return;
    reported.current = key;
    live.current.onReading?.(key);
  }, []);
  // Gone (another session shown): nothing of this one is read any more.
  useEffect(() => () => live.current.onReading?.(null), []);

  const body = useRef<HTMLDivElement>(null);
  const space = useRef<HTMLDivElement>(null);
  const rows = useRef(new Map<string, HTMLElement>());

  /** Puts the view back where it belongs: at the end, or the anchor entry where it was. */
  const hold = useCallback(() => {
    if (!scroller) return;
    if (live.current.following) {
      if (scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight > 0.5) scroller.scrollTop = scroller.scrollHeight;
      return;
    }
    const a = anchor.current;
    const row = a && rows.current.get(a.key);
    if (!a || !row) return;
    const drift = row.getBoundingClientRect().top - scroller.getBoundingClientRect().top - a.offset;
    if (Math.abs(drift) >= 1) scroller.scrollTop += drift;
  }, [scroller]);

  /** Records rendered entries' heights; true when one changed. */
  const measure = useCallback((elements: Iterable<HTMLElement>) => {
    let changed = false;
    for (const element of elements) {
      const key = element.dataset.key;
      if (key === undefined) continue;
      const height = element.getBoundingClientRect().height;
      if (height > 0 && Math.abs((heights.current.get(key) ?? -1) - height) >= 0.5) {
        heights.current.set(key, height);
        changed = true;
      }
    }
    return changed;
  }, []);

  // Entries change size after they are shown (code highlighting, images, a streaming
  // answer): measured again, and the view held before the next paint.
  const [observer] = useState(() =>
    typeof ResizeObserver === "undefined"
      ? null
      : new ResizeObserver((seen) => {
          const changed = measure(seen.map((entry) => entry.target as HTMLElement));
          hold();
          if (changed) setMeasured((n) => n + 1);
        }),
  );
  useEffect(() => () => observer?.disconnect(), [observer]);

  // One stable ref callback per entry, so re-renders do not re-observe.
  const refs = useRef(new Map<string, (element: HTMLElement | null) => void>());
  const rowRef = useCallback(
    (key: string) => {
      let callback = refs.current.get(key);
      if (!callback) {
        callback = (element: HTMLElement | null) => {
          const old = rows.current.get(key);
          if (old && old !== element) observer?.unobserve(old);
          if (element) {
            rows.current.set(key, element);
            observer?.observe(element);
          } else {
            rows.current.delete(key);
            refs.current.delete(key);
          }
        };
        refs.current.set(key, callback);
      }
      return callback;
    },
    [observer],
  );

  // After every render, before paint: entries just shown are measured (their true height
  // replaces the estimate) and the view is held.
  useLayoutEffect(() => {
    if (measure(rows.current.values())) setMeasured((n) => n + 1);
    hold();
  });

  // The viewport's height.
  useEffect(() => {
    if (!scroller) return;
    setViewport(scroller.clientHeight || 800);
    if (typeof ResizeObserver === "undefined") return;
    const watch = new ResizeObserver(() => setViewport(scroller.clientHeight || 800));
    watch.observe(scroller);
    return () => watch.disconnect();
  }, [scroller]);

  // Near the top of what is loaded: the page before it (once per page).
  const askedBefore = useRef<string | null>(null);
  const loadOlderIfNear = useCallback(() => {
    const { range: r, hasOlder: more, onLoadOlder: load, keys: k } = live.current;
    if (!load || !wantsOlder(r, more) || askedBefore.current === k[0]) return;
    askedBefore.current = k[0] ?? null;
    load();
  }, []);
  useEffect(loadOlderIfNear, [loadOlderIfNear, keys, range.start, hasOlder]);

  // Near the bottom of what is loaded, short of the live end: the page after it (once per page).
  const askedAfter = useRef<string | null>(null);
  const loadNewerIfNear = useCallback(() => {
    const { offsets: o, viewport: v, hasNewer: more, onLoadNewer: load, keys: k, following: f } = live.current;
    // Where the view is now, not where the last render put it: a jump to a search hit sets
    // the anchor after the first render of the window, which showed its bottom.
    const a = anchor.current;
    const r = rangeFor(k, o, v, f || a === null ? { kind: "end" } : { kind: "anchor", ...a });
    if (!load || !wantsNewer(r, o, v, more) || askedAfter.current === k[k.length - 1]) return;
    askedAfter.current = k[k.length - 1] ?? null;
    load();
  }, []);
  useEffect(loadNewerIfNear, [loadNewerIfNear, keys, range.end, hasNewer]);

  // Moved to the live end: follow it from there.
  const seenLatest = useRef(latest);
  useEffect(() => {
    if (seenLatest.current === latest) return;
    seenLatest.current = latest;
    setForward(false);
  }, [latest]);

  // Heights of entries let go (pages read past, then trimmed) are forgotten, so the map
  // stays the size of what is loaded; entries read again are measured again.
  useEffect(() => {
    if (heights.current.size <= 2 * keys.length + 200) return;
    const present = new Set(keys);
    for (const key of heights.current.keys()) if (!present.has(key)) heights.current.delete(key);
  }, [keys]);

  // Scrolling: the entry now at the top becomes the anchor; a re-render only when other
  // entries come into range.
  useEffect(() => {
    const element = body.current;
    if (!scroller || !element) return;
    let frame = 0;
    const onScroll = () => {
      // Following the end, the view's own moves to it (one a streamed frame) need no
      // anchor, and reading one costs a layout. Leaving the end reads it (below).
      if (live.current.following) return;
      anchor.current = readAnchor(element, scroller, space.current, live.current);
      report();
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        const { keys: k, offsets: o, viewport: v, range: shown, following: f } = live.current;
        const a = anchor.current;
        const next = rangeFor(k, o, v, f || a === null ? { kind: "end" } : { kind: "anchor", ...a });
        if (next.start < shown.start || next.end > shown.end || next.start > shown.start + 4 || next.end < shown.end - 4) {
          setMoved((n) => n + 1);
        }
        live.current.range = next;
        loadOlderIfNear();
        loadNewerIfNear();
        // Scrolled to the bottom once everything up to the live end is loaded: follow it.
        const { forward: reading, hasNewer: more } = live.current;
        if (reading && !more && scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight <= AT_END_PX) {
          setForward(false);
        }
      });
    };
    const byUser = () => setJumped(false);
    scroller.addEventListener("scroll", onScroll, { passive: true });
    for (const kind of USER_INPUT) scroller.addEventListener(kind, byUser, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      scroller.removeEventListener("scroll", onScroll);
      for (const kind of USER_INPUT) scroller.removeEventListener(kind, byUser);
    };
  }, [scroller, loadOlderIfNear, loadNewerIfNear, report]);

  // Unpinned by the chat: the anchor holds from here; a jump's own hold is no longer needed.
  useEffect(() => {
    if (!pinned) setJumped(false);
  }, [pinned]);
  // Following the end: no anchor. Leaving it: the entry at the top of the view is the
  // anchor from now on (a jump below sets its own; this runs before it).
  useLayoutEffect(() => {
    if (following) anchor.current = null;
    else if (anchor.current === null && scroller && body.current)
      anchor.current = readAnchor(body.current, scroller, space.current, live.current);
    report();
  }, [following, scroller, report]);

  // A jump (a search hit): its turn is brought in and held just below the top.
  const jumpedTo = useRef<number | null>(null);
  const found = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (focusSeq === null || jumpedTo.current === focusSeq) return;
    const index = turnHolding(entries, focusSeq);
    if (index === null) return;
    jumpedTo.current = focusSeq;
    anchor.current = { key: keys[index] as string, offset: JUMP_OFFSET_PX };
    report();
    found.current = keys[index] as string;
    setJumped(true);
    setMoved((n) => n + 1);
  }, [focusSeq, entries, keys]);
  useEffect(() => {
    const key = found.current;
    const row = key === null ? undefined : rows.current.get(key);
    if (!row) return;
    found.current = null;
    const turn = row.firstElementChild;
    turn?.classList.add("turn--found");
    window.setTimeout(() => turn?.classList.remove("turn--found"), FOUND_MS);
  });

  const lastTurnKey = useMemo(() => [...entries].reverse().find((e) => e.kind === "turn")?.key ?? null, [entries]);
  const total = offsets[keys.length] ?? 0;
  const above = offsets[range.start] ?? 0;
  const below = total - (offsets[range.end] ?? total);
  return (
    <SubagentsContext.Provider value={subagents}>
    <div
      className="transcript"
      data-testid="transcript"
      ref={body}
      data-entries={entries.length}
      data-first-key={entries[0]?.key}
      data-has-newer={hasNewer}
    >
      {range.start === 0 && hasOlder && onLoadOlder && (
        <button type="button" className="transcript__earlier" onClick={onLoadOlder} data-testid="show-earlier">
          {t("loadEarlier")}
        </button>
      )}
      <div className="transcript__space" style={{ height: above }} aria-hidden="true" ref={space} />
      {entries.slice(range.start, range.end).map((entry) => (
        <div key={entry.key} className="transcript__row" data-key={entry.key} ref={rowRef(entry.key)}>
          {renderEntry(entry, {
            onRewind,
            rewindDisabled,
            // Only the session's last turn can run again: the engine retries that one.
            onRetry: entry.key === lastTurnKey && !hasNewer ? onRetry : undefined,
            onElicit,
          })}
        </div>
      ))}
      <div className="transcript__space" style={{ height: below }} aria-hidden="true" />
      {range.end === keys.length && hasNewer && onLoadNewer && (
        <button type="button" className="transcript__earlier" onClick={onLoadNewer} data-testid="show-later">
          {t("loadLater")}
        </button>
      )}
    </div>
    </SubagentsContext.Provider>
  );
}

/**
 * The entry at the top of the view, and where its top is: read from the DOM when a
 * rendered entry is there, else (the view was moved past what is rendered, say dragged to
 * the top in one go) from the layout, counting from the block standing in for those above.
 */
function readAnchor(
  body: HTMLElement,
  scroller: HTMLElement,
  space: HTMLElement | null,
  layout: { keys: readonly string[]; offsets: readonly number[] },
): { key: string; offset: number } | null {
  const top = scroller.getBoundingClientRect().top;
  for (const child of body.children) {
    const key = (child as HTMLElement).dataset.key;
    if (key === undefined) continue;
    const box = child.getBoundingClientRect();
    if (box.bottom <= top) continue;
    // In view, or the first entry there is (nothing above it to be in view).
    if (box.top <= top + 1 || layout.keys[0] === key) return { key, offset: box.top - top };
    break;
  }
  if (!space || layout.keys.length === 0) return null;
  // The block above the rendered entries starts where the first entry would.
  const y = top - space.getBoundingClientRect().top;
  const index = indexAt(layout.offsets, Math.max(0, y));
  return { key: layout.keys[index] as string, offset: (layout.offsets[index] ?? 0) - y };
}

interface EntryActions {
  onRewind: ((turn: TurnView) => void) | undefined;
  rewindDisabled: boolean;
  onRetry: ((turn: TurnView) => void) | undefined;
  onElicit: AnswerElicitation;
}

function renderEntry(entry: TranscriptEntry, actions: EntryActions): ReactNode {
  switch (entry.kind) {
    case "turn":
      return (
        <TurnBlock
          turn={entry}
          onRewind={actions.onRewind}
          rewindDisabled={actions.rewindDisabled}
          onRetry={actions.onRetry}
        />
      );
    case "info":
      return <InfoNotice title={entry.title} body={entry.body} ok={entry.ok} busy={entry.busy === true} />;
    case "elicitation":
      return <ElicitationCard view={entry} onAnswer={actions.onElicit} />;
    case "agent_approval":
      // A subagent's question after this session's turn ended: on its own, at the end.
      return <ApprovalCard item={entry} />;
    default:
      return <ErrorNotice kind={entry.errorKind} message={entry.phrase ? say(entry.phrase) : entry.message} />;
  }
}
