// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import type { ToolItem } from "../../../state/transcript";
import { formatProgress, ToolCard } from "./ToolCard";

afterEach(cleanup);

const RUNNING: ToolItem = {
  kind: "tool",
  key: "a",
  callId: "c1",
  name: "everything__trigger-long-running-operation",
  args: '{"duration":5}',
  status: "running",
  errorKind: null,
  output: null,
  provisional: false,
};

describe("ToolCard progress", () => {
  it("shows a running call's progress and hides it once the call ends", () => {
    const withProgress = { ...RUNNING, progress: { progress: 2, total: 5, message: "step 2" } };
    const { rerender } = render(<ToolCard tool={withProgress} />);
    expect(screen.getByTestId("tool-progress").textContent).toBe("2/5 · step 2");
    rerender(<ToolCard tool={{ ...withProgress, status: "ok", output: "done" }} />);
    expect(screen.queryByTestId("tool-progress")).toBeNull();
  });

  it("formats counts, fractions and unknown totals", () => {
    expect(formatProgress({ progress: 3, total: 10, message: null })).toBe("3/10");
    expect(formatProgress({ progress: 0.25, total: 1, message: null })).toBe("25%");
    expect(formatProgress({ progress: 7, total: null, message: "files" })).toBe("7 · files");
  });
});

describe("ToolCard live output", () => {
  const EXEC: ToolItem = { ...RUNNING, name: "exec_command", args: '{"cmd":"cargo build"}' };

  it("unfolds to show what a running command prints, then folds on its result", () => {
    const { rerender, container } = render(<ToolCard tool={EXEC} />);
    const details = () => container.querySelector("details");
    expect(details()?.open).toBe(false);
    expect(screen.queryByTestId("tool-live-output")).toBeNull();

    rerender(<ToolCard tool={{ ...EXEC, liveOutput: "Compiling a\nCompiling b\n" }} />);
    expect(details()?.open).toBe(true);
    expect(screen.getByTestId("tool-live-output").textContent).toBe("Compiling a\nCompiling b\n");
    expect(screen.queryByText("Waiting for the result…")).toBeNull();

    rerender(<ToolCard tool={{ ...EXEC, liveOutput: "Compiling a\n", status: "ok", output: "Finished" }} />);
    expect(details()?.open).toBe(false);
    expect(screen.queryByTestId("tool-live-output")).toBeNull();
    expect(screen.getByTestId("tool-output").textContent).toBe("Finished");
  });
});

describe("ToolCard for a shell command", () => {
  const EXEC: ToolItem = { ...RUNNING, name: "exec_command", args: '{"cmd":"cargo test","yield_time_ms":10000}' };

  it("shows the command once, what it printed, its exit code and duration", () => {
    const output =
      "Chunk ID: 9c1d\nWall time: 2.5000 seconds\nProcess exited with code 101\nOriginal token count: 3\nOutput:\ntest failed\n";
    render(<ToolCard tool={{ ...EXEC, status: "ok", output }} />);
    expect(screen.getByTestId("tool-command").textContent).toBe("$cargo test");
    expect(screen.getByTestId("tool-status").textContent).toBe("exit 101 · 2.5 s");
    expect(screen.getByTestId("tool-output").textContent).toBe("test failed\n");
    expect(screen.queryByText(/Chunk ID|Original token count/)).toBeNull();
    expect(screen.queryByText("Arguments")).toBeNull();
    expect(screen.getByTestId("tool-card").className).toContain("tool--error");
  });

  it("keeps an engine error (a denied command) as it is", () => {
    render(<ToolCard tool={{ ...EXEC, status: "error", errorKind: "approval_denied", output: "the user denied this command" }} />);
    expect(screen.getByTestId("tool-status").textContent).toBe("approval denied");
    expect(screen.getByTestId("tool-output").textContent).toBe("the user denied this command");
  });
});
