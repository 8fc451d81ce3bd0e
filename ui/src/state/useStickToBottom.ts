import { useCallback, useEffect, useRef, useState } from "react";

/** How close to the bottom still counts as "at the bottom" (a line or so of slack). */
const SLACK_PX = 48;

/**
 * Whether a scroll container is pinned to its end: it is until the user scrolls up to
 * read; scrolling back down re-pins it. The transcript keeps a pinned container at its
 * end as it grows (it knows when its entries change size). Returns a callback ref, because
 * the container may mount after the component that owns the hook.
 */
export function useStickToBottom(): {
  ref: (element: HTMLElement | null) => void;
  /** The container, once mounted. */
  element: HTMLElement | null;
  pinned: boolean;
  scrollToBottom: () => void;
  /** Stops following the end (the view was moved to something above it). */
  unpin: () => void;
} {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [pinned, setPinned] = useState(true);
  const pinnedRef = useRef(true);

  const setPinnedBoth = useCallback((value: boolean) => {
    if (value !== pinnedRef.current) {
      pinnedRef.current = value;
      setPinned(value);
    }
  }, []);

  useEffect(() => {
    if (!element) return;
    const onScroll = () => {
      setPinnedBoth(element.scrollHeight - element.scrollTop - element.clientHeight <= SLACK_PX);
    };
    element.addEventListener("scroll", onScroll, { passive: true });
    return () => element.removeEventListener("scroll", onScroll);
  }, [element, setPinnedBoth]);

  const scrollToBottom = useCallback(() => {
    if (!element) return;
    setPinnedBoth(true);
    element.scrollTop = element.scrollHeight;
  }, [element, setPinnedBoth]);

  // Said at once, not left to the scroll event: an event arriving before that fires would
  // otherwise pull the view back to the end.
  const unpin = useCallback(() => setPinnedBoth(false), [setPinnedBoth]);

  return { ref: setElement, element, pinned, scrollToBottom, unpin };
}
