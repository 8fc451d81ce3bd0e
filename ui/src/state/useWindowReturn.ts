import { useEffect } from "react";

/**
 * Calls `onReturn` when the person comes back to the window: it gets the focus again, or
 * shows again after being minimized or hidden (which not every web view reports as a
 * focus). Files edited outside the app, config.toml first, are read again then.
 */
export function useWindowReturn(onReturn: () => void): void {
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === "visible") onReturn();
    };
    window.addEventListener("focus", onReturn);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      window.removeEventListener("focus", onReturn);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [onReturn]);
}
