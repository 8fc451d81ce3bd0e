import { useCallback, useEffect, useReducer } from "react";

import { setTimeZone } from "../format";
import { setSystemLanguages } from "../i18n";
import { ipc, toIpcError } from "../ipc";
import { appInfoReducer, initialAppInfoState, type AppInfoState } from "./appInfo";

export function useAppInfo(): { state: AppInfoState; reload: () => void } {
  const [state, dispatch] = useReducer(appInfoReducer, initialAppInfoState);

  const load = useCallback((isCurrent: () => boolean) => {
    dispatch({ type: "requested" });
    ipc.appInfo().then(
      (info) => {
        // Before any time is shown: the sidebar lists sessions only once the app info has
        // named the Memo home (workspaces wait for it).
        setTimeZone(info.time_zone);
        // The desktop's languages as the shell read them (the web engine may not know them).
        setSystemLanguages(info.languages);
        if (isCurrent()) dispatch({ type: "loaded", info });
      },
      (raised: unknown) => {
        if (isCurrent()) dispatch({ type: "failed", error: toIpcError("app_info", raised) });
      },
    );
  }, []);

  useEffect(() => {
    // StrictMode mounts twice in development; ignore the answer for the discarded mount.
    let current = true;
    load(() => current);
    return () => {
      current = false;
    };
  }, [load]);

  const reload = useCallback(() => load(() => true), [load]);
  return { state, reload };
}
