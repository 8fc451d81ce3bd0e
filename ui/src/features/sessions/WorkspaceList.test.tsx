// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { WorkspaceList } from "./WorkspaceList";

// The backend finds every typed folder (the refusals are useFolderPathForm's tests).
vi.mock("../../ipc", async (importOriginal) => ({
  ...(await importOriginal<object>()),
  ipc: { checkFolder: async ({ path }: { path: string }) => path },
}));

afterEach(cleanup);

describe("WorkspaceList", () => {
  it("adds a second folder by its typed path, or by the picker", async () => {
    const onOpen = vi.fn();
    const onPick = vi.fn();
    render(
      <WorkspaceList workspaces={[{ path: "/work/a", openedMs: 1 }]} current="/work/a" onPick={onPick} onOpen={onOpen} onClose={vi.fn()} />,
    );
    fireEvent.click(screen.getByTestId("workspace-add"));
    fireEvent.change(screen.getByTestId("workspace-path-input"), { target: { value: "/work/b/" } });
    fireEvent.click(screen.getByTestId("workspace-path-open"));
    await waitFor(() => expect(onOpen).toHaveBeenCalledWith("/work/b"));
    expect(screen.queryByTestId("workspace-add-form")).toBeNull();

    fireEvent.click(screen.getByTestId("workspace-add"));
    fireEvent.change(screen.getByTestId("workspace-path-input"), { target: { value: "relative/dir" } });
    fireEvent.click(screen.getByTestId("workspace-path-open"));
    expect(screen.getByRole("alert").textContent).toBeTruthy();
    expect(onOpen).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByTestId("workspace-browse"));
    expect(onPick).toHaveBeenCalledTimes(1);
  });

  it("closes the path field on Esc, but not on the Esc that ends an input method's composition", () => {
    render(<WorkspaceList workspaces={[]} current={null} onPick={vi.fn()} onOpen={vi.fn()} onClose={vi.fn()} />);
    fireEvent.click(screen.getByTestId("workspace-add"));
    const input = screen.getByTestId("workspace-path-input");
    fireEvent.keyDown(input, { key: "Escape", isComposing: true });
    expect(screen.getByTestId("workspace-add-form")).toBeTruthy();
    fireEvent.keyDown(input, { key: "Escape" });
    expect(screen.queryByTestId("workspace-add-form")).toBeNull();
  });

  it("shows a folder that has gone as missing and never opens it; others carry their sessions' state", () => {
    const onOpen = vi.fn();
    const onClose = vi.fn();
    render(
      <WorkspaceList
        workspaces={[
          { path: "/work/gone", openedMs: 2 },
          { path: "/work/busy", openedMs: 1 },
        ]}
        current={null}
        onPick={vi.fn()}
        onOpen={onOpen}
        onClose={onClose}
        missing={new Set(["/work/gone"])}
        statusOf={(path) => (path === "/work/busy" ? { badge: "waiting", count: 2 } : { badge: null, count: 0 })}
      />,
    );
    const [gone, busy] = screen.getAllByTestId("workspace-row");
    expect(gone?.dataset.missing).toBe("true");
    expect(gone?.textContent).toContain("Missing");
    fireEvent.click(screen.getAllByTestId("workspace-item")[0] as HTMLElement);
    expect(onOpen).not.toHaveBeenCalled();
    // It can still be taken off the list.
    fireEvent.click(screen.getByLabelText("Remove gone from the list"));
    expect(onClose).toHaveBeenCalledWith("/work/gone");
    const dot = busy?.querySelector("[data-testid=session-status]") as HTMLElement;
    expect(dot.dataset.state).toBe("waiting");
    expect(dot.textContent).toBe("2");
    fireEvent.click(screen.getAllByTestId("workspace-item")[1] as HTMLElement);
    expect(onOpen).toHaveBeenCalledWith("/work/busy");
  });
});
