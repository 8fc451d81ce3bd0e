import { useEffect, useState } from "react";

import type { ApprovalMode } from "../../gen/protocol";
import { ipc, toIpcError } from "../../ipc";

/** The engine's own default, used when config.toml cannot be read (ApprovalMode's #[default]). */
export const BUILT_IN_MODE: ApprovalMode = "auto";

export interface DefaultApprovalMode {
  /** What a new session starts in; null only while it is being read the first time. */
  mode: ApprovalMode | null;
  /** Why config.toml's choice is not known (it could not be read); null when it was read. */
  problem: string | null;
}

/**
 * config.toml's `approval_mode`: what a new session starts in. Read again when the window
 * regains focus (settings or a hand edit may have changed it). An unreadable config gives
 * the built-in default with the reason, so the header still shows a mode (the pill went
 * missing, which hid that new sessions ask as Auto does).
 */
export function useDefaultApprovalMode(refreshKey: unknown): DefaultApprovalMode {
  const [state, setState] = useState<DefaultApprovalMode>({ mode: null, problem: null });
  useEffect(() => {
    let live = true;
    const load = () =>
      ipc.approvalSettings({ cwd: null }).then(
        (settings) => live && setState({ mode: settings.default_mode, problem: null }),
        (raised: unknown) =>
          live && setState({ mode: BUILT_IN_MODE, problem: toIpcError("approval_settings", raised).message }),
      );
    void load();
    window.addEventListener("focus", load);
    return () => {
      live = false;
      window.removeEventListener("focus", load);
    };
  }, [refreshKey]);
  return state;
}
