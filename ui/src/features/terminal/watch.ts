// Watching an agent's running command in the terminal panel: the command cards offer it
// through this context; the app shows the call's live output read-only in the panel.
import { createContext, useContext } from "react";

import type { TranscriptState } from "../../state/transcript";
import type { ToolItem } from "../../state/transcript/types";

export interface WatchedCommand {
  sessionId: string;
  callId: string;
  command: string;
}

/** Opens a running call's output in the terminal panel; null where none is offered. */
export const WatchCommandContext = createContext<((callId: string, command: string) => void) | null>(null);

export function useWatchCommand(): ((callId: string, command: string) => void) | null {
  return useContext(WatchCommandContext);
}

/** The call `callId` of the transcript, newest turn first (where a running call is). */
export function findToolCall(transcript: TranscriptState, callId: string): ToolItem | null {
  for (let i = transcript.entries.length - 1; i >= 0; i--) {
    const entry = transcript.entries[i];
    if (entry?.kind !== "turn") continue;
    for (const item of entry.items) if (item.kind === "tool" && item.callId === callId) return item;
  }
  return null;
}

/** What the watched call printed, and whether it still runs. */
export function watchedOutput(tool: ToolItem | null): { text: string; running: boolean } {
  if (tool === null) return { text: "", running: false };
  const running = tool.status === "running";
  return { text: running ? (tool.liveOutput ?? "") : (tool.liveOutput ?? tool.output ?? ""), running };
}
