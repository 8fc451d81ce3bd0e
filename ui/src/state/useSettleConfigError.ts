import { useEffect, useRef } from "react";

import type { ProviderSummary } from "../gen/protocol";
import type { IpcError } from "../ipc";
import type { Loadable } from "./useLoadable";

/** What a read of the providers says about config.toml: broken, fine, or nothing yet. */
function verdict(providers: Loadable<ProviderSummary[]>): "broken" | "fine" | null {
  if (providers.status === "error") return providers.error.code === "config" ? "broken" : null;
  if (providers.status === "ready" && providers.value.some((p) => p.is_current)) return "fine";
  return null;
}

/**
 * A failure about config.toml (a send that could not start a session) checks the file
 * again at once, so the banner shows what is wrong too; and once a later check finds the
 * file broken and then fine (fixed in an editor and the window focused again, or fixed in
 * Settings), the failure is dismissed: it no longer holds. A config failure the providers
 * check cannot see (a key, a setting only a session reads) is left for the person.
 */
export function useSettleConfigError(
  error: IpcError | null,
  providers: Loadable<ProviderSummary[]>,
  recheck: () => void,
  dismiss: () => void,
): void {
  const configError = error?.code === "config" ? error : null;
  // The failure being watched, the providers answer it arrived with (older answers do not
  // count: the send read the file after them), and whether a later answer said "broken".
  const watched = useRef<{ error: IpcError; answer: Loadable<ProviderSummary[]>; broken: boolean } | null>(null);

  useEffect(() => {
    if (configError === null) {
      watched.current = null;
      return;
    }
    const seen = watched.current;
    if (seen === null || seen.error !== configError) {
      watched.current = { error: configError, answer: providers, broken: false };
      recheck();
      return;
    }
    if (providers === seen.answer) return;
    seen.answer = providers;
    const now = verdict(providers);
    if (now === "broken") seen.broken = true;
    else if (now === "fine" && seen.broken) dismiss();
  }, [configError, providers, recheck, dismiss]);
}
