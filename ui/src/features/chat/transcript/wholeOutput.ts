// A long tool output reaches the window cut to its start (the card's folded line needs no
// more); the whole is read from the store when someone opens the card, and let go when the
// card leaves the screen. A session's megabytes of build logs never sit in the window.
import { createContext, useCallback, useContext, useEffect, useState } from "react";

import { t } from "../../../i18n";
import { toIpcError } from "../../../ipc";
import type { ToolItem } from "../../../state/transcript";

/** Reads the whole output of the call whose end is event `seq` of the shown session. */
export type ReadOutput = (seq: number) => Promise<string>;

export const ReadOutputContext = createContext<ReadOutput | null>(null);

export interface ShownOutput {
  /** The whole output once read, else what the window was sent (null: no result yet). */
  text: string | null;
  /** Only the start is shown so far: the whole is `fullLength` bytes. */
  partial: boolean;
  fullLength: number | null;
  loading: boolean;
  error: string | null;
  retry: () => void;
}

/** The output a card shows: the whole one read while `open`, once the call was cut. */
export function useShownOutput(tool: ToolItem, open: boolean): ShownOutput {
  const read = useContext(ReadOutputContext);
  const seq = tool.outputSeq;
  const fullLength = tool.output !== null ? (tool.fullLength ?? null) : null;
  const [whole, setWhole] = useState<{ seq: number; text: string } | null>(null);
  const [failure, setFailure] = useState<{ seq: number; message: string } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const wanted = open && fullLength !== null && seq !== undefined && read !== null;
  const have = whole !== null && whole.seq === seq;
  const failed = failure !== null && failure.seq === seq;
  useEffect(() => {
    if (!wanted || have || failed || seq === undefined || read === null) return;
    let current = true;
    read(seq).then(
      (text) => {
        if (current) setWhole({ seq, text });
      },
      (raised: unknown) => {
        if (current) setFailure({ seq, message: toIpcError("tool_output", raised).message });
      },
    );
    return () => {
      current = false;
    };
  }, [wanted, have, failed, seq, read, attempt]);
  const retry = useCallback(() => {
    setFailure(null);
    setAttempt((n) => n + 1);
  }, []);
  return {
    text: have ? whole.text : tool.output,
    partial: fullLength !== null && !have,
    fullLength,
    loading: wanted && !have && !failed,
    error: failed ? failure.message : null,
    retry,
  };
}

/** "38 KB", "2.4 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return t("transcript:size.bytes", { n: bytes });
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
