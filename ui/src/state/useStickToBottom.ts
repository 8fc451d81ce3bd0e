import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";

/** How close to the bottom still counts as "at the bottom" (a line or so of slack). */
const SLACK_PX = 48;

/**
 * Keeps a scroll container pinned to its end while `content` changes (streaming), unless
 * the user scrolled up to read; scrolling back down re-pins it. Returns a callback ref,
 * because the container may mount after the component that owns the hook.
 */
export function useStickToBottom(content: unknown): {
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

  // Before paint, so a new chunk never flashes below the fold first.
  useLayoutEffect(() => {
    if (element && pinnedRef.current) {
      element.scrollTop = element.scrollHeight;
    }
  }, [element, content]);

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
