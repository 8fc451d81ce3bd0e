// Typed wrapper of src-tauri/src/commands/prompt.rs: the assembled system prompt as the six
// layers the model receives, each with its sources, size and token estimate.
import type { PromptReport } from "../gen/protocol";
import { CommandError } from "./errors";
import { invokeCommand } from "./invoke";

export interface PromptLayersArgs {
  /** An open session: its own prompt (as it started). */
  sessionId?: string;
  /** Otherwise the folder a new session would start in. */
  cwd?: string;
  provider?: string;
  model?: string;
}

function isPromptReport(value: unknown): value is PromptReport {
  if (typeof value !== "object" || value === null) {
    return false;
  }
  const record = value as Record<string, unknown>;
  return (
    Array.isArray(record.layers) &&
    record.layers.length === 6 &&
    typeof record.total_tokens === "number" &&
    Array.isArray(record.problems)
  );
}

/** What the model sees, layer by layer. Needs `sessionId` or `cwd`. */
export async function promptLayers(args: PromptLayersArgs): Promise<PromptReport> {
  const payload = await invokeCommand<unknown>("prompt_layers", { ...args });
  if (!isPromptReport(payload)) {
    throw new CommandError("prompt_layers", "internal", "prompt_layers returned an unexpected payload", false);
  }
  return payload;
}
