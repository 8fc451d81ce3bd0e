import { useEffect, useState } from "react";

import { ipc } from "../ipc";
import type { Workspace } from "./workspaces";

const NONE: ReadonlySet<string> = new Set();

/**
 * Remembered folders that are no longer there (deleted, an unplugged disk), checked when
 * the list changes and when the window gets the focus back. They are shown as missing
 * instead of being opened into an error.
 */
export function useMissingFolders(workspaces: Workspace[]): ReadonlySet<string> {
  const [missing, setMissing] = useState<ReadonlySet<string>>(NONE);
  const paths = workspaces.map((w) => w.path).join("\n");

  useEffect(() => {
    const list = paths === "" ? [] : paths.split("\n");
    let live = true;
    const check = () => {
      if (list.length === 0) {
        setMissing(NONE);
        return;
      }
      ipc.foldersExist({ paths: list }).then(
        (exists) => {
          if (!live) return;
          const gone = list.filter((_, i) => exists[i] === false);
          setMissing((before) =>
            before.size === gone.length && gone.every((p) => before.has(p)) ? before : new Set(gone),
          );
        },
        () => undefined,
      );
    };
    check();
    window.addEventListener("focus", check);
    return () => {
      live = false;
      window.removeEventListener("focus", check);
    };
  }, [paths]);

  return missing;
}
