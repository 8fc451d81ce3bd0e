import { useEffect, useState } from "react";

import type { ApprovalMode } from "../../gen/protocol";
import { commands } from "../../ipc";

/**
 * config.toml's `approval_mode`: what a new session starts in. Read again when the window
 * regains focus (settings or a hand edit may have changed it); null while unknown.
 */
export function useDefaultApprovalMode(refreshKey: unknown): ApprovalMode | null {
  const [mode, setMode] = useState<ApprovalMode | null>(null);
  useEffect(() => {
    let live = true;
    const load = () =>
      commands.approvalSettings({ cwd: null }).then(
        (settings) => live && setMode(settings.default_mode),
        // Unreadable config: the header shows nothing rather than a guess.
        () => live && setMode(null),
      );
    void load();
    window.addEventListener("focus", load);
    return () => {
      live = false;
      window.removeEventListener("focus", load);
    };
  }, [refreshKey]);
  return mode;
}
