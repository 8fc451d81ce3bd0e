import { useEffect, useState } from "react";

import type { SessionStatus } from "../../gen/protocol";
import { ipc } from "../../ipc";

/**
 * The open session's context fill and cost, read again whenever `stepKey` changes (after
 * each model call, a compaction, a model switch). `null` before a session exists or when
 * it cannot be read: the meter then stays hidden rather than showing a wrong number.
 */
export function useSessionStatus(sessionId: string | null, stepKey: string): SessionStatus | null {
  const [status, setStatus] = useState<SessionStatus | null>(null);

  useEffect(() => {
    if (sessionId === null) {
      setStatus(null);
      return;
    }
    let live = true;
    ipc.sessionStatus({ sessionId }).then(
      (next) => live && setStatus(next),
      () => live && setStatus(null),
    );
    return () => {
      live = false;
    };
  }, [sessionId, stepKey]);

  return status;
}

/** Changes once per model call, compaction or switch, not per streamed token. */
export function stepKeyOf(entries: readonly { kind: string }[], model: string | null): string {
  let turns = 0;
  let last = "";
  for (const entry of entries) {
    if (entry.kind === "turn") {
      turns++;
      const turn = entry as unknown as { status: string; usage: { input_tokens: number; output_tokens: number } | null };
      last = `${turn.status}:${turn.usage?.input_tokens ?? 0}:${turn.usage?.output_tokens ?? 0}`;
    }
  }
  return `${entries.length}:${turns}:${last}:${model ?? ""}`;
}
