import { useCallback, useEffect, useState } from "react";

import type { EditableFile, EditableFileKind } from "../../gen/protocol";
import { IpcError, ipc, toIpcError } from "../../ipc";

export type EditableState =
  | { status: "loading" }
  | { status: "error"; error: IpcError }
  | {
      status: "ready";
      file: EditableFile;
      draft: string;
      saving: boolean;
      /** The file changed on disk since it was opened; the draft is kept. */
      conflict: boolean;
      error: string | null;
      /** Bumped when the document is replaced from disk (the editor then resets). */
      loadCount: number;
    };

export interface EditableController {
  state: EditableState;
  dirty: boolean;
  edit: (text: string) => void;
  save: () => Promise<void>;
  /** Drops the draft and shows the file as it is on disk. */
  reload: () => void;
  /** After a conflict: writes the draft over the newer file (the person chose to). */
  overwrite: () => Promise<void>;
}

interface Target {
  kind: EditableFileKind;
  cwd: string | null;
  path: string | null;
}

/** A text file open in an editor: its draft, and saves that never overwrite unseen changes. */
export function useEditableFile({ kind, cwd, path }: Target): EditableController {
  const [state, setState] = useState<EditableState>({ status: "loading" });
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let live = true;
    setState({ status: "loading" });
    ipc.readEditableFile({ kind, cwd, path }).then(
      (file) =>
        live &&
        setState({ status: "ready", file, draft: file.content, saving: false, conflict: false, error: null, loadCount: generation }),
      (raised: unknown) => live && setState({ status: "error", error: toIpcError("readEditableFile", raised) }),
    );
    return () => {
      live = false;
    };
  }, [kind, cwd, path, generation]);

  const edit = useCallback((text: string) => {
    setState((current) => (current.status === "ready" ? { ...current, draft: text } : current));
  }, []);

  const write = useCallback(
    async (revision: string) => {
      if (state.status !== "ready") return;
      const draft = state.draft;
      setState({ ...state, saving: true, error: null });
      try {
        const file = await ipc.writeEditableFile({ kind, cwd, path: state.file.path, content: draft, revision });
        // Keep typing that happened during the save: only the saved text becomes the file.
        setState((current) =>
          current.status === "ready"
            ? { ...current, file, saving: false, conflict: false, error: null }
            : current,
        );
      } catch (raised) {
        const failure = toIpcError("writeEditableFile", raised);
        setState((current) =>
          current.status === "ready"
            ? {
                ...current,
                saving: false,
                conflict: failure.code === "conflict",
                error: failure.code === "conflict" ? null : failure.message,
              }
            : current,
        );
      }
    },
    [state, kind, cwd, path],
  );

  const save = useCallback(async () => {
    if (state.status === "ready") await write(state.file.revision);
  }, [state, write]);

  const overwrite = useCallback(async () => {
    if (state.status !== "ready") return;
    try {
      const onDisk = await ipc.readEditableFile({ kind, cwd, path: state.file.path });
      await write(onDisk.revision);
    } catch (raised) {
      setState({ ...state, error: toIpcError("readEditableFile", raised).message });
    }
  }, [state, kind, cwd, write]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const dirty = state.status === "ready" && state.draft !== state.file.content;
  return { state, dirty, edit, save, reload, overwrite };
}
