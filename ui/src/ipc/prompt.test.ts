import { beforeEach, describe, expect, it, vi } from "vitest";

import { CommandError } from "./errors";
import { promptLayers } from "./prompt";

const { invoke } = vi.hoisted(() => ({ invoke: vi.fn() }));
vi.mock("@tauri-apps/api/core", () => ({ invoke }));

const layer = (kind: string) => ({ kind, title: kind, sources: [], content: "", chars: 0, tokens: 0 });
const REPORT = {
  cwd: "/repo",
  workspace_root: "/repo",
  model: "m1",
  token_counter: "estimate:bytes",
  layers: ["base", "soul", "project_context", "skills", "tool_descriptions", "tool_definitions"].map(layer),
  system_chars: 10,
  system_tokens: 3,
  total_tokens: 5,
  problems: [],
};

beforeEach(() => {
  invoke.mockReset();
});

describe("promptLayers", () => {
  it("asks for a folder's or a session's layers with camelCase ids", async () => {
    invoke.mockResolvedValue(REPORT);
    await expect(promptLayers({ cwd: "/repo" })).resolves.toEqual(REPORT);
    expect(invoke).toHaveBeenLastCalledWith("prompt_layers", { cwd: "/repo" });
    await promptLayers({ sessionId: "s1" });
    expect(invoke).toHaveBeenLastCalledWith("prompt_layers", { sessionId: "s1" });
  });

  it("rejects a report of the wrong shape", async () => {
    invoke.mockResolvedValue({ layers: [] });
    const failure = await promptLayers({ cwd: "/repo" }).catch((raised: unknown) => raised);
    expect(failure).toBeInstanceOf(CommandError);
    expect((failure as CommandError).code).toBe("internal");
  });
});
