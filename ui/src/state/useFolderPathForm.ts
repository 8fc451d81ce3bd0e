import { useState, type FormEvent } from "react";

import { ipc, toIpcError } from "../ipc";
import { normalizeFolderPath } from "./workspaces";

/**
 * A typed folder path: checked on submit (absolute, `~` expanded rules of
 * `normalizeFolderPath`), then by the backend (it exists, is a folder, can be read);
 * handed to `onOpen` only when usable, so a typo opens, closes and remembers nothing.
 * Otherwise the reason is kept for the field to show.
 */
export function useFolderPathForm(onOpen: (path: string) => void) {
  const [path, setPath] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = normalizeFolderPath(path);
    if (!checked.ok) {
      setProblem(checked.error);
      return;
    }
    setChecking(true);
    void (async () => {
      try {
        await ipc.checkFolder({ path: checked.path });
        setProblem(null);
        onOpen(checked.path);
      } catch (raised) {
        setProblem(toIpcError("check_folder", raised).message);
      } finally {
        setChecking(false);
      }
    })();
  };
  return { path, setPath, problem, submit, checking };
}
