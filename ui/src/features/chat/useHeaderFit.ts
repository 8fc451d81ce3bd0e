import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from "react";

/**
 * Whether a bar's controls must go icon-only so that its name (`title`) is not cut: true
 * once the full bar overflows, or squeezes the name, at its width. The width the full bar
 * needed is kept, and it comes back only when the bar is that wide again, so it never
 * flips to and fro at one width. `contentKey` names what is in the bar (pills come and go,
 * their words change): when it changes, the full bar is measured again.
 */
export function useHeaderFit(
  bar: RefObject<HTMLElement | null>,
  title: RefObject<HTMLElement | null>,
  contentKey: string,
): boolean {
  const [iconOnly, setIconOnly] = useState(false);
  const iconOnlyRef = useRef(iconOnly);
  iconOnlyRef.current = iconOnly;
  const needs = useRef<number | null>(null);

  const check = useCallback(() => {
    const element = bar.current;
    if (!element) return;
    const width = element.clientWidth;
    if (!iconOnlyRef.current) {
      const name = title.current;
      const over =
        Math.max(0, element.scrollWidth - width) + (name ? Math.max(0, name.scrollWidth - name.clientWidth) : 0);
      if (over > 0) {
        needs.current = width + over;
        iconOnlyRef.current = true;
        setIconOnly(true);
      }
    } else if (needs.current !== null && width >= needs.current) {
      needs.current = null;
      iconOnlyRef.current = false;
      setIconOnly(false);
    }
  }, [bar, title]);

  // Other pills (a second provider, an MCP server): measure the full bar again.
  useLayoutEffect(() => {
    needs.current = null;
    iconOnlyRef.current = false;
    setIconOnly(false);
  }, [contentKey]);
  // Before it is painted, once what the bar holds or how it is drawn changed; not on every
  // render (a streamed answer renders the header each frame, and this reads layout).
  useLayoutEffect(check, [check, contentKey, iconOnly]);
  useEffect(() => {
    const element = bar.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(check);
    observer.observe(element);
    // The name squeezed by something new beside it (a changes count, the context meter).
    if (title.current) observer.observe(title.current);
    return () => observer.disconnect();
  }, [bar, title, check]);
  return iconOnly;
}
