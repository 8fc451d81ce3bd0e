import { describe, expect, it } from "vitest";

import { formatDelay, formatUsage, prettyArgs, summarizeArgs } from "./format";

describe("summarizeArgs", () => {
  it("leads with the subject of the call", () => {
    expect(summarizeArgs('{"file_path":"src/main.rs","offset":10}')).toBe("src/main.rs · offset: 10");
    expect(summarizeArgs({ command: "cargo test", timeout: 60 })).toBe("cargo test · timeout: 60");
  });

  it("lists plain pairs when there is no subject", () => {
    expect(summarizeArgs('{"a":1,"b":[1,2],"c":{"d":1}}')).toBe("a: 1, b: [2], c: {…}");
  });

  it("shows unparseable or partial arguments as text, clipped", () => {
    expect(summarizeArgs('{"file_path":"sr')).toBe('{"file_path":"sr');
    expect(summarizeArgs("x".repeat(200)).length).toBe(90);
    expect(summarizeArgs("")).toBe("");
  });
});

describe("formatters", () => {
  it("pretty-prints JSON arguments", () => {
    expect(prettyArgs('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyArgs("not json")).toBe("not json");
  });

  it("formats usage and delays", () => {
    expect(
      formatUsage({ input_tokens: 12345, output_tokens: 67, cached_input_tokens: 0, reasoning_tokens: 5 }),
    ).toBe("12,345 in · 67 out · 5 reasoning tokens");
    expect(formatDelay(2000)).toBe("2 s");
    expect(formatDelay(1500)).toBe("1.5 s");
    expect(formatDelay(250)).toBe("250 ms");
  });
});
