import { useEffect, useRef } from "react";

/**
 * Calls `onRise` when `count` grows while `key` stays the same. A view that shows one
 * conversation after another (ChatView is not remounted per session) counts each on its
 * own: switching to a session with a higher count (or a lower one, then a rise back to
 * where the other was) is not a rise.
 */
export function useRise(key: string | null, count: number, onRise: () => void): void {
  const seen = useRef({ key, count });
  const callback = useRef(onRise);
  callback.current = onRise;
  useEffect(() => {
    const before = seen.current;
    seen.current = { key, count };
    if (before.key === key && count > before.count) callback.current();
  }, [key, count]);
}
