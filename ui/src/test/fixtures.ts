// Test data shaped like what Rust sends, so every test builds a complete value and a new
// field in the protocol is added here once.
import type { SessionSummary } from "../gen/protocol";

export function sessionSummary(overrides: Partial<SessionSummary> = {}): SessionSummary {
  return {
    id: "s1",
    title: null,
    cwd: "/repo",
    provider: "mock",
    model: "m1",
    created_ms: 1,
    updated_ms: 1,
    last_seq: 0,
    preview: null,
    parent_session_id: null,
    fork_seq: null,
    read_only: false,
    origin: null,
    origin_id: null,
    ...overrides,
  };
}
