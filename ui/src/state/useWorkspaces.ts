import { useCallback, useEffect, useState } from "react";

import {
  closeWorkspace,
  loadWorkspaces,
  noWorkspaces,
  openWorkspace,
  saveWorkspaces,
  type WorkspacesState,
} from "./workspaces";

export interface WorkspacesController extends WorkspacesState {
  open: (path: string) => void;
  close: (path: string) => void;
}

/** `scope` is the Memo home; null until the app info says which one it is. */
export function useWorkspaces(scope: string | null): WorkspacesController {
  const [state, setState] = useState<WorkspacesState>(noWorkspaces);

  useEffect(() => {
    setState(scope === null ? noWorkspaces : loadWorkspaces(window.localStorage, scope));
  }, [scope]);

  const update = useCallback(
    (change: (state: WorkspacesState) => WorkspacesState) => {
      setState((previous) => {
        const next = change(previous);
        if (scope !== null) saveWorkspaces(window.localStorage, scope, next);
        return next;
      });
    },
    [scope],
  );

  const open = useCallback((path: string) => update((s) => openWorkspace(s, path, Date.now())), [update]);
  const close = useCallback((path: string) => update((s) => closeWorkspace(s, path)), [update]);
  return { ...state, open, close };
}
