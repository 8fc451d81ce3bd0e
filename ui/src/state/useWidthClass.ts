import { useEffect, useState, type RefObject } from "react";

/**
 * A class for how wide an element is now: the first of `steps` ([max width, class]) whose
 * width it fits, else "". Follows resizes (a drawer opening beside it, the window).
 */
export function useWidthClass(ref: RefObject<HTMLElement | null>, steps: readonly [number, string][]): string {
  const [name, setName] = useState("");
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const pick = (width: number) => steps.find(([max]) => width <= max)?.[1] ?? "";
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setName(pick(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
    // `steps` is a module constant at every call site, so it is not a dependency.
  }, [ref]);
  return name;
}
