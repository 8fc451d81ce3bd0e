import { describe, expect, it } from "vitest";

import type { AgentEvent, EventEnvelope, HookRunSummary } from "../../gen/protocol";
import { hookHeadline, hookItem, hookTone } from "./hooks";
import { applyBatch, emptyTranscript } from "./reducer";
import type { InfoView, ToolItem, TurnView } from "./types";
import { shown } from "../../test/fixtures";

function stream(turnId: string | null = "t1") {
  let seq = 1;
  return (event: AgentEvent, options: { turn?: string | null } = {}): EventEnvelope => ({
    session_id: "s1",
    turn_id: options.turn === undefined ? turnId : options.turn,
    seq: seq++,
    timestamp_ms: 1_000 + seq,
    event,
  });
}

function run(over: Partial<HookRunSummary> = {}): HookRunSummary {
  return { command: "./guard.sh", source: "/home/u/.claude/settings.json", status: "ok", exit_code: 0, duration_ms: 12, ...over };
}

const BLOCKED: AgentEvent = {
  type: "hook_ran",
  event: "PreToolUse",
  call_id: "c1",
  hooks: [run({ status: "blocked", exit_code: 2, decision: "block", message: "no rm here" })],
  decision: "block",
  reason: "no rm here",
  stopped: false,
};

describe("hooks in the transcript", () => {
  it("attaches a tool's hooks to its card and keeps the others as lines of the turn", () => {
    const e = stream();
    const state = applyBatch(emptyTranscript, [
      e({ type: "turn_started", input: { text: "go" } }),
      e({
        type: "assistant_message",
        text: "",
        tool_calls: [{ call_id: "c1", name: "exec_command", arguments: '{"cmd":"rm -rf x"}' }],
      }),
      e(BLOCKED),
      e({
        type: "tool_call_end",
        call_id: "c1",
        name: "exec_command",
        status: "error",
        error_kind: "policy_denied",
        output: "Error (policy_denied): a PreToolUse hook blocked this call: no rm here",
      }),
      e({ type: "assistant_message", text: "Understood.", tool_calls: [] }),
      e({ type: "hook_ran", event: "Stop", hooks: [run()], stopped: false }),
    ]);
    const turn = state.entries[0] as TurnView;
    expect(turn.items.map((item) => item.kind)).toEqual(["tool", "text", "hook"]);
    const tool = turn.items[0] as ToolItem;
    expect(tool.hooks).toHaveLength(1);
    expect(tool.hooks?.[0]).toMatchObject({ event: "PreToolUse", decision: "block", reason: "no rm here" });
    expect(turn.items[2]).toMatchObject({ kind: "hook", event: "Stop", callId: null, decision: null });
  });

  it("says which hook blocked and why, loudly, and a plain success quietly", () => {
    const blocked = hookItem(BLOCKED as Extract<AgentEvent, { type: "hook_ran" }>, "k");
    expect(hookTone(blocked)).toBe("blocked");
    // The reason is what matters; the command is in the details.
    expect(hookHeadline(blocked)).toBe("PreToolUse hook blocked: no rm here");

    const quiet = hookItem({ type: "hook_ran", event: "PostToolUse", hooks: [run()], stopped: false }, "k");
    expect(hookTone(quiet)).toBe("quiet");
    expect(hookHeadline(quiet)).toBe("Hook PostToolUse · ./guard.sh ok");

    const timedOut = hookItem(
      { type: "hook_ran", event: "PreToolUse", hooks: [{ command: "./guard.sh", source: "/s.json", status: "timed_out", duration_ms: 1_000, message: "timed out after 1 s and was stopped" }], stopped: false },
      "k",
    );
    expect(hookTone(timedOut)).toBe("failed");
    expect(hookHeadline(timedOut)).toBe("Hook PreToolUse · ./guard.sh timed out: timed out after 1 s and was stopped");

    const two = hookItem(
      { type: "hook_ran", event: "PreToolUse", hooks: [run(), run({ command: "./b.sh", decision: "allow" })], decision: "allow", stopped: false },
      "k",
    );
    expect(hookHeadline(two)).toBe("2 PreToolUse hooks allowed");
  });

  it("shows a blocked prompt once, as not sent, and skipped project hooks as a note", () => {
    const e = stream(null);
    const state = applyBatch(emptyTranscript, [
      e({ type: "hooks_skipped", count: 2, files: ["/repo/.claude/settings.json"], message: "2 project hooks not run: folder not trusted" }),
      e({ type: "hook_ran", event: "SessionStart", hooks: [run()], stopped: false }),
      e({
        type: "hook_ran",
        event: "UserPromptSubmit",
        hooks: [run({ status: "blocked", exit_code: 2, decision: "block", message: "no secrets" })],
        decision: "block",
        reason: "no secrets",
        stopped: false,
      }),
      e({ type: "command_result", command: "UserPromptSubmit", ok: false, output: "The message was not sent: …" }),
    ]);
    const infos = shown(state.entries) as InfoView[];
    // The quiet SessionStart and the command result add nothing.
    expect(infos).toHaveLength(2);
    expect(infos[0]).toMatchObject({ title: "Project hooks not run", ok: true });
    expect(infos[0]?.body).toContain("2 project hooks not run: folder not trusted\n/repo/.claude/settings.json");
    expect(infos[1]).toMatchObject({ title: "Message not sent", ok: false });
    expect(infos[1]?.body).toContain("UserPromptSubmit hook blocked: no secrets");
    expect(infos[1]?.body).toContain("./guard.sh");
  });
});
