import { describe, expect, it } from "vitest";

import { rememberSessionTitle, sessionTitle, titleFromMessage } from "./sessionTitles";
import type { KeyValueStore } from "./workspaces";

function memoryStore(): KeyValueStore {
  const data: Record<string, string> = {};
  return { getItem: (key) => data[key] ?? null, setItem: (key, value) => void (data[key] = value) };
}

describe("session titles", () => {
  it("makes one short line of the first message", () => {
    expect(titleFromMessage("  what does\nhello.txt say?  ")).toBe("what does hello.txt say?");
    const long = titleFromMessage("word ".repeat(40));
    expect(long.length).toBeLessThanOrEqual(81);
    expect(long.endsWith("…")).toBe(true);
  });

  it("remembers a title per session", () => {
    const storage = memoryStore();
    expect(sessionTitle(storage, "s1")).toBeNull();
    expect(rememberSessionTitle(storage, "s1", "fix the build")).toBe(true);
    expect(rememberSessionTitle(storage, "s1", "fix the build")).toBe(false);
    expect(sessionTitle(storage, "s1")).toBe("fix the build");
  });
});
