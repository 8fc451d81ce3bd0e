// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import { ChatHeader } from "./ChatHeader";

afterEach(cleanup);

describe("ChatHeader MCP servers", () => {
  it("shows each server with its state", () => {
    render(
      <ChatHeader
        cwd="/repo"
        session={null}
        providers={{ status: "loading" }}
        mcp={[
          { name: "everything", status: "ready", tools: 13, message: null },
          { name: "broken", status: "failed", tools: 0, message: "the server exited with code 3" },
        ]}
      />,
    );
    const [ready, failed] = screen.getAllByTestId("mcp-server");
    expect(ready?.textContent).toBe("everything13 tools");
    expect(failed?.getAttribute("data-status")).toBe("failed");
    expect(failed?.getAttribute("title")).toBe("the server exited with code 3");
  });

  it("shows nothing without servers", () => {
    render(<ChatHeader cwd="/repo" session={null} providers={{ status: "loading" }} />);
    expect(screen.queryByTestId("mcp-server")).toBeNull();
  });
});
