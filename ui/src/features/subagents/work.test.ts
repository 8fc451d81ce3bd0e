import { describe, expect, it } from "vitest";

import type { AgentEvent, EventEnvelope, ToolView } from "../../gen/protocol";
import { applyBatch, emptyTranscript } from "../../state/transcript";
import { commandView, readView } from "../../test/fixtures";
import { summarizeWork } from "./work";

function events(list: [string, AgentEvent][]): EventEnvelope[] {
  return list.map(([turn, event], index) => ({ session_id: "child", turn_id: turn, seq: index + 1, timestamp_ms: index, event }));
}

const USAGE = { input_tokens: 1, output_tokens: 1, cached_input_tokens: 0, reasoning_tokens: 0 };

/** A step calling one tool, then the engine's view of the call. */
function called(turn: string, id: string, name: string, view: ToolView): [string, AgentEvent][] {
  return [
    [turn, { type: "assistant_message", text: "", tool_calls: [{ call_id: id, name, arguments: "{}" }] }],
    [turn, { type: "tool_call_view", call_id: id, view }],
  ];
}

const read = (id: string, path: string) => called("t1", id, "read_file", readView(path));

describe("summarizeWork", () => {
  it("keeps the newest steps, counts the earlier ones, and shows later input", () => {
    const transcript = applyBatch(
      emptyTranscript,
      events([
        ["t1", { type: "turn_started", input: { text: "the task" } }],
        ...read("a", "one.rs"),
        ...read("b", "two.rs"),
        ...read("c", "three.rs"),
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

  it("says what each call is from its view, and a call is its name alone until the view comes", () => {
    const transcript = applyBatch(
      emptyTranscript,
      events([
        ["t1", { type: "turn_started", input: { text: "the task" } }],
        // The arguments would say otherwise: the subject is the view's, not read out of them.
        ["t1", { type: "assistant_message", text: "", tool_calls: [{ call_id: "x", name: "exec_command", arguments: '{"cmd":"rm -rf /"}' }] }],
        ["t1", { type: "tool_call_view", call_id: "x", view: commandView({ command: "cargo test -p app" }) }],
        ...called("t1", "m", "github__create_issue", {
          type: "mcp_call",
          server: "github",
          tool: "create_issue",
          arguments: '{"title":"Crash on start"}',
          content: [],
        }),
        ["t1", { type: "tool_call_begin", call_id: "s", name: "read_file" }],
        ["t1", { type: "tool_call_args_delta", call_id: "s", delta: '{"file_path":"src/a' }],
      ]),
    );
    expect(summarizeWork(transcript).steps).toMatchObject([
      { kind: "tool", name: "exec_command", subject: "$ cargo test -p app" },
      { kind: "tool", name: "github · create_issue", subject: "title: Crash on start" },
      { kind: "tool", name: "read_file", subject: "", status: "running" },
    ]);
  });

  it("marks a call that waits for an approval, and takes the view its end brings", () => {
    const request = {
      request_id: "r1",
      call_id: "x",
      tool_name: "exec_command",
      risk: "execute" as const,
      reason: "runs a command",
      fingerprint: "exec:make",
      arguments: {},
    };
    const waiting: [string, AgentEvent][] = [
      ["t1", { type: "turn_started", input: { text: "the task" } }],
      ...called("t1", "x", "exec_command", commandView({ command: "make" })),
      ["t1", { type: "approval_requested", request }],
    ];
    expect(summarizeWork(applyBatch(emptyTranscript, events(waiting))).steps).toMatchObject([{ subject: "$ make", status: "waiting" }]);

    const ended = applyBatch(
      emptyTranscript,
      events([
        ...waiting,
        ["t1", { type: "approval_resolved", request_id: "r1", decision: { type: "approve_once" } }],
        [
          "t1",
          {
            type: "tool_call_end",
            call_id: "x",
            name: "exec_command",
            status: "ok",
            output: "",
            view: commandView({ command: "make all", state: { state: "exited", code: 0 } }),
          },
        ],
      ]),
    );
    expect(summarizeWork(ended).steps).toMatchObject([{ subject: "$ make all", status: "ok" }]);
  });
});
