import { useEffect, useRef } from "react";

import { ipc } from "../ipc";
import { onWindowSignal } from "./windowSignals";

/**
 * Opens the folders asked for from outside the window: on the command line at start-up
 * (`memo-desktop DIR`) and by a second launch, which hands its folder to this window.
 */
export function useOpenRequests(open: ((path: string) => void) | null): void {
  const openRef = useRef(open);
  openRef.current = open;
  // Only once the remembered folders are loaded: opening earlier would be overwritten.
  const ready = open !== null;

  useEffect(() => {
    if (!ready) return;
    let live = true;
    const take = () => {
      ipc.takeOpenRequests().then(
        (folders) => {
          if (live) for (const folder of folders) openRef.current?.(folder);
        },
        () => undefined,
      );
    };
    take();
    // A second launch handed over a folder.
    const stop = onWindowSignal("open_requests", take);
    return () => {
      live = false;
      stop();
    };
  }, [ready]);
}
