import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";

import type { TranscriptState, TurnView } from "../../../state/transcript";
import type { ResolveApproval } from "./ApprovalCard";
import { type AnswerElicitation, ElicitationCard } from "./ElicitationCard";
import { ErrorNotice, InfoNotice } from "./Notices";
import { TurnBlock } from "./TurnBlock";
import { WINDOW, windowRange } from "./window";

interface TranscriptProps {
  transcript: TranscriptState;
  onResolve: ResolveApproval;
  /** Absent when there is nothing to rewind (no stored session). */
  onRewind?: ((turn: TurnView) => void) | undefined;
  rewindDisabled?: boolean;
  onRetry?: ((turn: TurnView) => void) | undefined;
  /** Answers an MCP server's request for input. */
  onElicit?: AnswerElicitation | undefined;
  /** The scrolling container: scrolling near its top shows earlier entries. */
  scroller?: HTMLElement | null;
  /** The view follows the newest entry (the user has not scrolled up). */
  pinned?: boolean;
  /** An event to bring into the window (a search hit). */
  focusSeq?: number | null;
  /** Earlier history exists in the store (a long session read from its end). */
  hasOlder?: boolean;
  /** Reads the page before what is loaded. */
  onLoadOlder?: () => void;
}

const NO_ANSWER: AnswerElicitation = () => Promise.resolve();
/** How long the entry on screen is held in place while new entries above settle. */
const SETTLE_MS = 2000;

/**
 * The conversation, newest WINDOW entries first in the DOM: a long session opens and is
 * switched to as fast as a short one. Scrolling to the top (or the button there) adds
 * earlier entries without moving what is on screen; a search hit's turn is always in.
 */
export function Transcript({
  transcript,
  onResolve,
  onRewind,
  rewindDisabled = false,
  onRetry,
  onElicit = NO_ANSWER,
  scroller = null,
  pinned = true,
  focusSeq = null,
  hasOlder = false,
  onLoadOlder,
}: TranscriptProps) {
  const { entries } = transcript;
  // Null while following the newest entries; the user's own bounds once they read back.
  const [from, setFrom] = useState<number | null>(null);
  const [to, setTo] = useState<number | null>(null);
  // The last search hit jumped to: its stretch stays shown after the chat clears the
  // focus, until the user moves on (earlier, later, or back at the newest).
  const [jump, setJump] = useState<number | null>(null);
  useEffect(() => {
    if (focusSeq !== null) setJump(focusSeq);
  }, [focusSeq]);
  const { start, end } = windowRange(entries, from, to, focusSeq ?? jump);

  // Entries read from the store were put above: indices move down by as many (the start
  // too, unless the user asked for those entries: then they are shown).
  const revealOlder = useRef(false);
  const firstKey = useRef(entries[0]?.key);
  useLayoutEffect(() => {
    const before = firstKey.current;
    firstKey.current = entries[0]?.key;
    if (before === undefined || before === entries[0]?.key) return;
    const shift = entries.findIndex((entry) => entry.key === before);
    if (shift <= 0) return;
    const reveal = revealOlder.current;
    revealOlder.current = false;
    if (!reveal) setFrom((f) => (f === null ? f : f + shift));
    setTo((t) => (t === null ? t : t + shift));
  }, [entries]);

  const current = useRef({ start, end });
  current.current = { start, end };
  // Reading above the bottom: freeze the start so new entries never shift the page. Back
  // at the bottom of the newest entries: follow again (older ones leave the DOM).
  const atNewest = end >= entries.length;
  useEffect(() => {
    if (!pinned) setFrom(current.current.start);
    else if (atNewest && jump === null) setFrom(null);
  }, [pinned, atNewest, jump]);

  /** From now on the user's own bounds, no longer a hit's stretch. */
  const settle = useCallback((nextFrom: number | null, nextTo: number | null) => {
    setJump(null);
    setFrom(nextFrom);
    setTo(nextTo);
  }, []);

  const showLater = useCallback(() => {
    const next = current.current.end + WINDOW;
    settle(current.current.start, next >= entries.length ? null : next);
  }, [entries.length, settle]);

  // Earlier entries are added above: the entry at the top of the view stays where it is,
  // also while the new ones settle (code highlighting, images change their height).
  const body = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLButtonElement>(null);
  // Held for a moment after the entries arrive; a page read from the store may take a
  // while to arrive (`waiting`), so its moment starts then.
  const anchor = useRef<{ element: Element; offset: number; until: number; waiting: boolean } | null>(null);
  const holdAnchor = useCallback(() => {
    const a = anchor.current;
    if (!a || !scroller) return;
    if (performance.now() > a.until || !a.element.isConnected) {
      anchor.current = null;
      return;
    }
    const drift = a.element.getBoundingClientRect().top - scroller.getBoundingClientRect().top - a.offset;
    if (Math.abs(drift) >= 1) scroller.scrollTop += drift;
  }, [scroller]);
  const showEarlier = useCallback(() => {
    const first = current.current.start;
    if (first === 0 && !(hasOlder && onLoadOlder)) return;
    if (scroller && body.current) {
      const top = scroller.getBoundingClientRect().top;
      // The first entry in view (never the "show earlier" button, which stays on top).
      const entriesShown = [...body.current.children].filter((child) => child !== sentinel.current);
      const element = entriesShown.find((child) => child.getBoundingClientRect().bottom > top) ?? entriesShown[0];
      if (element) {
        const fromStore = first === 0;
        anchor.current = {
          element,
          offset: element.getBoundingClientRect().top - top,
          until: performance.now() + (fromStore ? 10_000 : SETTLE_MS),
          waiting: fromStore,
        };
      }
    }
    const last = current.current.end >= entries.length ? null : current.current.end;
    if (first === 0) {
      // Everything loaded is shown: the page before it comes from the store, above.
      settle(0, last);
      revealOlder.current = true;
      onLoadOlder?.();
    } else {
      settle(Math.max(0, first - WINDOW), last);
    }
  }, [scroller, hasOlder, onLoadOlder, entries.length, settle]);
  const shownLength = useRef(entries.length);
  useLayoutEffect(() => {
    const a = anchor.current;
    if (a?.waiting && entries.length !== shownLength.current) {
      a.waiting = false;
      a.until = performance.now() + SETTLE_MS;
    }
    shownLength.current = entries.length;
    holdAnchor();
  }, [start, entries.length, holdAnchor]);
  // A jump to a search hit supersedes holding the view where it was.
  useLayoutEffect(() => {
    if (focusSeq !== null) anchor.current = null;
  }, [focusSeq]);
  // The user scrolling on their own ends the hold.
  useEffect(() => {
    if (!scroller) return;
    const release = () => {
      anchor.current = null;
    };
    for (const kind of ["wheel", "touchstart", "keydown", "mousedown"]) scroller.addEventListener(kind, release, { passive: true });
    return () => {
      for (const kind of ["wheel", "touchstart", "keydown", "mousedown"]) scroller.removeEventListener(kind, release);
    };
  }, [scroller]);
  useEffect(() => {
    const element = body.current;
    if (!element) return;
    const observer = new ResizeObserver(holdAnchor);
    observer.observe(element);
    return () => observer.disconnect();
  }, [holdAnchor]);

  // Reaching the top shows earlier entries by itself; not while a search hit's stretch is
  // shown (the hit sits right under the top: it would load at once, under the user's eyes).
  const following = jump === null && focusSeq === null;
  useEffect(() => {
    const target = sentinel.current;
    if (!target || !scroller || !following || (start === 0 && !hasOlder)) return;
    const observer = new IntersectionObserver(
      (seen) => {
        if (seen.some((e) => e.isIntersecting)) showEarlier();
      },
      { root: scroller, rootMargin: "400px 0px 0px 0px" },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [scroller, following, start, hasOlder, entries.length, showEarlier]);

  return (
    <div className="transcript" data-testid="transcript" ref={body}>
      {(start > 0 || hasOlder) && (
        <button type="button" ref={sentinel} className="transcript__earlier" onClick={showEarlier} data-testid="show-earlier">
          {start > 0 ? `Show earlier messages (${start} more)` : "Show earlier messages"}
        </button>
      )}
      {entries.slice(start, end).map((entry) =>
        entry.kind === "turn" ? (
          <TurnBlock
            key={entry.key}
            turn={entry}
            onResolve={onResolve}
            onRewind={onRewind}
            rewindDisabled={rewindDisabled}
            onRetry={onRetry}
          />
        ) : entry.kind === "info" ? (
          <InfoNotice key={entry.key} title={entry.title} body={entry.body} ok={entry.ok} />
        ) : entry.kind === "elicitation" ? (
          <ElicitationCard key={entry.key} view={entry} onAnswer={onElicit} />
        ) : (
          <ErrorNotice key={entry.key} kind={entry.errorKind} message={entry.message} />
        ),
      )}
      {end < entries.length && (
        <button type="button" className="transcript__earlier" onClick={showLater} data-testid="show-later">
          Show later messages ({entries.length - end} more)
        </button>
      )}
    </div>
  );
}
