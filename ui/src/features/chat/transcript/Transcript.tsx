import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";

import type { TranscriptState, TurnView } from "../../../state/transcript";
import type { ResolveApproval } from "./ApprovalCard";
import { type AnswerElicitation, ElicitationCard } from "./ElicitationCard";
import { ErrorNotice, InfoNotice } from "./Notices";
import { TurnBlock } from "./TurnBlock";
import { WINDOW, focusIndex, windowStart } from "./window";

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
}

const NO_ANSWER: AnswerElicitation = () => Promise.resolve();

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
}: TranscriptProps) {
  const { entries } = transcript;
  // Null while following the newest entries; the user's own start once they read back.
  const [from, setFrom] = useState<number | null>(null);
  const start = windowStart(entries, from, focusSeq);

  // Reading above the bottom: freeze the start so new entries never shift the page.
  // Back at the bottom: follow again (the older entries leave the DOM).
  const current = useRef(start);
  current.current = start;
  useEffect(() => {
    setFrom(pinned ? null : current.current);
  }, [pinned]);

  // A search hit far back: keep its turn in once the focus is cleared.
  useEffect(() => {
    if (focusSeq === null) return;
    const index = focusIndex(entries, focusSeq);
    if (index !== null && index < current.current + 1) setFrom(index);
  }, [focusSeq, entries]);

  // Earlier entries are added above: keep the distance from the bottom, so the page stays.
  const keepFromBottom = useRef<number | null>(null);
  const showEarlier = useCallback(() => {
    if (current.current === 0) return;
    if (scroller) keepFromBottom.current = scroller.scrollHeight - scroller.scrollTop;
    setFrom(Math.max(0, current.current - WINDOW));
  }, [scroller]);
  useLayoutEffect(() => {
    if (keepFromBottom.current === null || !scroller) return;
    scroller.scrollTop = scroller.scrollHeight - keepFromBottom.current;
    keepFromBottom.current = null;
  }, [start, scroller]);

  const sentinel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const target = sentinel.current;
    if (!target || !scroller || start === 0) return;
    const observer = new IntersectionObserver(
      (seen) => {
        if (seen.some((e) => e.isIntersecting)) showEarlier();
      },
      { root: scroller, rootMargin: "400px 0px 0px 0px" },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [scroller, start, showEarlier]);

  return (
    <div className="transcript" data-testid="transcript">
      {start > 0 && (
        <button type="button" ref={sentinel} className="transcript__earlier" onClick={showEarlier} data-testid="show-earlier">
          Show earlier messages ({start} more)
        </button>
      )}
      {entries.slice(start).map((entry) =>
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
    </div>
  );
}
