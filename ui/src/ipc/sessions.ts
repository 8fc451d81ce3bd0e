// Conveniences over the generated session calls: the event channel, and the ops the
// chat sends. Everything else is called as `ipc.*` directly.
import { Channel } from "@tauri-apps/api/core";

import type { EventEnvelope, ImageInput, Op, ReviewDecision } from "../gen/protocol";
import { ipc } from "./invoke";

/**
 * Streams the session's events with `seq > afterSeq` to `onEvents` in batches, stored
 * ones first. A new subscription to the same session replaces the previous one.
 */
export async function subscribeSession(
  sessionId: string,
  afterSeq: number,
  onEvents: (batch: EventEnvelope[]) => void,
): Promise<void> {
  // The handler is set before the channel crosses IPC: batches that arrive before a
  // handler exists are dropped. The stored history comes first, in one or more batches.
  const channel = new Channel<EventEnvelope[]>(onEvents);
  await ipc.subscribeSession({ sessionId, afterSeq, onEvents: channel });
}

export function submitOp(sessionId: string, op: Op): Promise<void> {
  return ipc.submitOp({ sessionId, op });
}

export function sendUserTurn(sessionId: string, text: string, images: ImageInput[] = []): Promise<void> {
  return submitOp(sessionId, { type: "user_turn", input: images.length > 0 ? { text, images } : { text } });
}

export function interruptTurn(sessionId: string): Promise<void> {
  return submitOp(sessionId, { type: "interrupt" });
}

export function resolveApproval(sessionId: string, requestId: string, decision: ReviewDecision): Promise<void> {
  return submitOp(sessionId, { type: "resolve_approval", request_id: requestId, decision });
}
