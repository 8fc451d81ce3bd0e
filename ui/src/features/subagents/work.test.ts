import { describe, expect, it } from "vitest";

import type { AgentEvent, EventEnvelope } from "../../gen/protocol";
import { applyBatch, emptyTranscript } from "../../state/transcript";
import { summarizeWork } from "./work";

function events(list: [string, AgentEvent][]): EventEnvelope[] {
  return list.map(([turn, event], index) => ({ session_id: "child", turn_id: turn, seq: index + 1, timestamp_ms: index, event }));
}

const USAGE = { input_tokens: 1, output_tokens: 1, cached_input_tokens: 0, reasoning_tokens: 0 };
const read = (id: string, path: string): AgentEvent => ({
  type: "assistant_message",
  text: "",
  tool_calls: [{ call_id: id, name: "read_file", arguments: JSON.stringify({ file_path: path }) }],
});

describe("summarizeWork", () => {
  it("keeps the newest steps, counts the earlier ones, and shows later input", () => {
    const transcript = applyBatch(
      emptyTranscript,
      events([
        ["t1", { type: "turn_started", input: { text: "the task" } }],
        ["t1", read("a", "one.rs")],
        ["t1", read("b", "two.rs")],
        ["t1", read("c", "three.rs")],
        ["t1", { type: "assistant_message", text: "Done reading.", tool_calls: [] }],
        ["t1", { type: "turn_ended", reason: "completed", usage: USAGE }],
        ["t2", { type: "turn_started", input: { text: "Now check the tests" } }],
        ["t2", { type: "error", kind: "network", message: "connection reset", retryable: false }],
      ]),
    );
    const work = summarizeWork(transcript, 4);
    expect(work.toolCalls).toBe(3);
    expect(work.earlier).toBe(2);
    expect(work.steps.map((step) => [step.kind, "text" in step ? step.text : step.kind === "tool" ? step.subject : ""])).toEqual([
      ["tool", "three.rs"],
      ["text", "Done reading."],
      ["input", "Now check the tests"],
      ["error", "connection reset"],
    ]);
  });

  it("says what a report says instead of its fields", () => {
    const transcript = applyBatch(
      emptyTranscript,
      events([
        ["t1", { type: "turn_started", input: { text: "the task" } }],
        [
          "t1",
          {
            type: "assistant_message",
            text: "",
            tool_calls: [{ call_id: "r", name: "complete_task", arguments: JSON.stringify({ summary: "It is in a.rs", exploration_trace: [] }) }],
          },
        ],
      ]),
    );
    expect(summarizeWork(transcript).steps).toMatchObject([{ kind: "tool", name: "complete_task", subject: "It is in a.rs" }]);
  });
});
