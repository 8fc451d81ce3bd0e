import { useCallback, useEffect, useState } from "react";

import { isImeComposing } from "../../components/ime";
import { ipc } from "../../ipc";
import { isToggleTerminalShortcut } from "./keys";
import type { WatchedCommand } from "./watch";

export interface TerminalDockController {
  open: boolean;
  toggle: () => void;
  hide: () => void;
  /** Folders whose terminals exist: shown at least once, not closed since. */
  folders: string[];
  watching: WatchedCommand | null;
  watch: (command: WatchedCommand) => void;
  stopWatching: () => void;
  /** Ends a folder's terminals (its workspace was closed). */
  closeFolder: (folder: string) => void;
}

/**
 * The bottom panel's state: shown or not (Ctrl+` toggles), which folders have terminals,
 * and the agent command being watched. `folder` is where a new terminal starts: the
 * folder in front (a worktree session's own checkout when it is one).
 */
export function useTerminalDock(folder: string | null): TerminalDockController {
  const [open, setOpen] = useState(false);
  const [folders, setFolders] = useState<string[]>([]);
  const [watching, setWatching] = useState<WatchedCommand | null>(null);

  // Shown for a folder: its terminals come into being (and then stay).
  useEffect(() => {
    if (open && folder !== null) setFolders((known) => (known.includes(folder) ? known : [...known, folder]));
  }, [open, folder]);

  const toggle = useCallback(() => {
    setWatching(null);
    setOpen((was) => !was);
  }, []);
  const hide = useCallback(() => setOpen(false), []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // A key of an input method's composition (in any field) is the input method's.
      if (isImeComposing(event) || !isToggleTerminalShortcut(event)) return;
      event.preventDefault();
      toggle();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [toggle]);

  const closeFolder = useCallback((closed: string) => {
    setFolders((known) => known.filter((f) => f !== closed && !f.startsWith(`${closed}/`)));
    // The panel unmounting closes its shells; this also ends any the window lost track of.
    ipc.terminalCloseGroup({ cwd: closed }).catch(() => undefined);
  }, []);

  return {
    open,
    toggle,
    hide,
    folders,
    watching,
    watch: setWatching,
    stopWatching: useCallback(() => setWatching(null), []),
    closeFolder,
  };
}
