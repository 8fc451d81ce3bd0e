import { describe, expect, it } from "vitest";

import { commandLine, describeResult, parseCommandOutput } from "./commandOutput";

describe("command results", () => {
  it("separate the facts from what the command printed", () => {
    const text =
      "Chunk ID: 7f3a\nWall time: 1.2500 seconds\nProcess exited with code 3\nOriginal token count: 4\nOutput:\nhello\nworld\n";
    const result = parseCommandOutput(text);
    expect(result).toEqual({ exitCode: 3, signal: null, stillRunning: false, seconds: 1.25, output: "hello\nworld\n" });
    expect(describeResult(result!)).toBe("exit 3 · 1.3 s");
  });

  it("know a killed and a still-running process, and leave other text alone", () => {
    const killed = parseCommandOutput("Wall time: 0.0200 seconds\nProcess exited with code -1 (signal: SIGTERM)\nOutput:\n");
    expect(describeResult(killed!)).toBe("killed by SIGTERM · 20 ms");
    const running = parseCommandOutput("Chunk ID: a\nWall time: 10.0000 seconds\nProcess running with session ID 4\nOriginal token count: 0\nOutput:\n");
    expect(running?.stillRunning).toBe(true);
    expect(describeResult(running!)).toBe("still running · 10.0 s");
    expect(parseCommandOutput("error: the command was denied")).toBeNull();
  });

  it("read the command line from cmd, a command string or an argv list", () => {
    expect(commandLine('{"cmd":"cargo test","yield_time_ms":1000}')).toBe("cargo test");
    expect(commandLine('{"command":["git","commit","-m","two words"]}')).toBe("git commit -m 'two words'");
    expect(commandLine("not json")).toBeNull();
  });
});
