import { useEffect, useRef } from "react";

import { listen } from "@tauri-apps/api/event";

import { commands } from "../ipc";

/** The event the shell sends when a folder was asked for from outside (see launch.rs). */
const OPEN_REQUESTS_EVENT = "memo://open-requests";

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
      commands.takeOpenRequests().then(
        (folders) => {
          if (live) for (const folder of folders) openRef.current?.(folder);
        },
        () => undefined,
      );
    };
    take();
    const unlisten = listen(OPEN_REQUESTS_EVENT, take).catch(() => () => undefined);
    return () => {
      live = false;
      void unlisten.then((stop) => stop());
    };
  }, [ready]);
}
