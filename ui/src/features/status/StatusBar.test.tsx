// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { IpcError } from "../../ipc";
import { StatusBar } from "./StatusBar";

afterEach(cleanup);

describe("StatusBar", () => {
  it("shows version, memo home, engine and platform", () => {
    const info = {
      version: "0.1.0",
      memo_home: "/tmp/memo-home",
      platform: "linux-x86_64",
      engine: "memo-engine 0.1.0",
      time_zone: null,
      languages: [],
    };
    render(<StatusBar state={{ status: "ready", info }} onRetry={() => {}} />);
    expect(screen.getByTestId("status-version").textContent).toBe("v0.1.0");
    expect(screen.getByTestId("status-memo-home").textContent).toBe("/tmp/memo-home");
    expect(screen.getByTestId("status-engine").textContent).toBe("memo-engine 0.1.0");
    expect(screen.getByTestId("status-platform").textContent).toBe("linux-x86_64");
  });

  it("offers a retry only for retryable errors", () => {
    const onRetry = vi.fn();
    const retryable = new IpcError("app_info", "unavailable", "starting up", true);
    const { rerender } = render(<StatusBar state={{ status: "error", error: retryable }} onRetry={onRetry} />);
    expect(screen.getByTestId("status-error").textContent).toContain("starting up");
    fireEvent.click(screen.getByRole("button", { name: "Retry" }));
    expect(onRetry).toHaveBeenCalledTimes(1);

    const permanent = new IpcError("app_info", "config", "no home directory", false);
    rerender(<StatusBar state={{ status: "error", error: permanent }} onRetry={onRetry} />);
    expect(screen.queryByRole("button", { name: "Retry" })).toBeNull();
  });

  it("shows a loading state before the info arrives", () => {
    render(<StatusBar state={{ status: "loading" }} onRetry={() => {}} />);
    expect(screen.getByTestId("status-loading")).toBeTruthy();
  });
});
