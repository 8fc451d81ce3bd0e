import { describe, expect, it } from "vitest";

import { mcpRuleLabel, mcpToolParts, toolCalledAs, toolLabel } from "./toolNames";

describe("tool names as people read them", () => {
  it("spells an MCP tool server · tool, and leaves Memo's own tools alone", () => {
    expect(toolLabel("github__create_issue")).toBe("github · create_issue");
    // A tool's own name may hold the separator; the server's never does.
    expect(toolLabel("fs__read__all")).toBe("fs · read__all");
    expect(toolLabel("exec_command")).toBe("exec_command");
    expect(mcpToolParts("read_file")).toBeNull();
    expect(mcpToolParts("__x")).toBeNull();
    expect(toolCalledAs("github__create_issue")).toBe("called as github__create_issue");
    expect(toolCalledAs("read_file")).toBeUndefined();
  });

  it("labels an MCP rule's pattern the same way, keeping its argument matches", () => {
    expect(mcpRuleLabel("github:create_issue")).toBe("github · create_issue");
    expect(mcpRuleLabel("github:*")).toBe("github · *");
    expect(mcpRuleLabel("github:create_issue repo=memo-*")).toBe("github · create_issue repo=memo-*");
    expect(mcpRuleLabel("odd")).toBe("odd");
  });
});
