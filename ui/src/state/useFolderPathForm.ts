import { useState, type FormEvent } from "react";

import { normalizeFolderPath } from "./workspaces";

/**
 * A typed folder path: checked on submit (absolute, `~` expanded rules of
 * `normalizeFolderPath`), handed to `onOpen` when usable, otherwise the reason is kept.
 */
export function useFolderPathForm(onOpen: (path: string) => void) {
  const [path, setPath] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = normalizeFolderPath(path);
    if (!checked.ok) {
      setProblem(checked.error);
      return;
    }
    setProblem(null);
    onOpen(checked.path);
  };
  return { path, setPath, problem, submit };
}
