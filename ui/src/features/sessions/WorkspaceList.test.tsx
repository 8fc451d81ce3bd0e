// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { WorkspaceList } from "./WorkspaceList";

afterEach(cleanup);

describe("WorkspaceList", () => {
  it("adds a second folder by its typed path, or by the picker", () => {
    const onOpen = vi.fn();
    const onPick = vi.fn();
    render(
      <WorkspaceList workspaces={[{ path: "/work/a", openedMs: 1 }]} current="/work/a" onPick={onPick} onOpen={onOpen} onClose={vi.fn()} />,
    );
    fireEvent.click(screen.getByTestId("workspace-add"));
    fireEvent.change(screen.getByTestId("workspace-path-input"), { target: { value: "/work/b/" } });
    fireEvent.click(screen.getByTestId("workspace-path-open"));
    expect(onOpen).toHaveBeenCalledWith("/work/b");
    expect(screen.queryByTestId("workspace-add-form")).toBeNull();

    fireEvent.click(screen.getByTestId("workspace-add"));
    fireEvent.change(screen.getByTestId("workspace-path-input"), { target: { value: "relative/dir" } });
    fireEvent.click(screen.getByTestId("workspace-path-open"));
    expect(screen.getByRole("alert").textContent).toBeTruthy();
    expect(onOpen).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByTestId("workspace-browse"));
    expect(onPick).toHaveBeenCalledTimes(1);
  });
});
