import { useCallback, useEffect, useRef, useState } from "react";

import { toIpcError, type IpcError } from "../ipc";

export type Loadable<T> =
  | { status: "idle" }
  | { status: "loading" }
  | { status: "ready"; value: T }
  | { status: "error"; error: IpcError };

/**
 * Runs `load` whenever `key` changes (null = nothing to load) and on `reload()`. A reload
 * keeps showing the last value until the new one arrives, so lists do not flicker; a new
 * key starts from `loading`, so one folder's sessions never show under another.
 */
export function useLoadable<T>(
  command: string,
  key: string | null,
  load: () => Promise<T>,
): { state: Loadable<T>; reload: () => void } {
  const [state, setState] = useState<Loadable<T>>(key === null ? { status: "idle" } : { status: "loading" });
  const loadRef = useRef(load);
  loadRef.current = load;
  // Answers to superseded requests (an older key, a faster later reload) are dropped.
  const latest = useRef(0);

  const run = useCallback(
    (fresh: boolean) => {
      const request = ++latest.current;
      if (fresh) {
        setState({ status: "loading" });
      }
      loadRef.current().then(
        (value) => {
          if (request === latest.current) setState({ status: "ready", value });
        },
        (raised: unknown) => {
          if (request === latest.current) setState({ status: "error", error: toIpcError(command, raised) });
        },
      );
    },
    [command],
  );

  useEffect(() => {
    if (key === null) {
      latest.current++;
      setState({ status: "idle" });
      return;
    }
    run(true);
  }, [key, run]);

  const reload = useCallback(() => {
    if (key !== null) run(false);
  }, [key, run]);

  return { state, reload };
}
