// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import type { SessionSummary } from "../../gen/protocol";
import { SessionList } from "./SessionList";
import { sessionSummary } from "../../test/fixtures";

afterEach(cleanup);

const SESSIONS: SessionSummary[] = [
  sessionSummary({ id: "s1", title: "Fix the parser", cwd: "/w", updated_ms: 2, last_seq: 9 }),
  sessionSummary({ id: "s2", title: "Write docs", cwd: "/w", last_seq: 4 }),
];

function setup(overrides: Partial<Parameters<typeof SessionList>[0]> = {}) {
  const props = {
    folderOpen: true,
    sessions: { status: "ready" as const, value: SESSIONS },
    activeId: "s1",
    onOpen: vi.fn(),
    onNew: vi.fn(),
    onRename: vi.fn(async () => undefined),
    onDelete: vi.fn(async () => undefined),
    ...overrides,
  };
  render(<SessionList {...props} />);
  return props;
}

describe("SessionList rename", () => {
  it("edits the title in place and saves on Enter", async () => {
    const props = setup();
    fireEvent.click(screen.getAllByTestId("session-rename")[1] as HTMLElement);
    const input = screen.getByTestId("session-rename-input") as HTMLInputElement;
    expect(input.value).toBe("Write docs");
    fireEvent.change(input, { target: { value: "Write the README" } });
    fireEvent.submit(input);
    await waitFor(() => expect(screen.queryByTestId("session-rename-input")).toBeNull());
    expect(props.onRename).toHaveBeenCalledWith(SESSIONS[1], "Write the README");
  });

  it("keeps the field and shows why when the rename is refused; Esc cancels", async () => {
    const props = setup({ onRename: vi.fn(async () => Promise.reject(new Error("a session title cannot be empty"))) });
    fireEvent.click(screen.getAllByTestId("session-rename")[0] as HTMLElement);
    const input = screen.getByTestId("session-rename-input") as HTMLInputElement;
    fireEvent.change(input, { target: { value: "   " } });
    fireEvent.submit(input);
    await screen.findByText("a session title cannot be empty");
    expect(screen.getByTestId("session-rename-input")).toBeTruthy();
    fireEvent.keyDown(input, { key: "Escape" });
    expect(screen.queryByTestId("session-rename-input")).toBeNull();
    expect(screen.queryByTestId("session-action-error")).toBeNull();
    expect(props.onOpen).not.toHaveBeenCalled();
  });

  it("does not call the backend when the title did not change", () => {
    const props = setup();
    fireEvent.click(screen.getAllByTestId("session-rename")[0] as HTMLElement);
    fireEvent.submit(screen.getByTestId("session-rename-input"));
    expect(props.onRename).not.toHaveBeenCalled();
    expect(screen.queryByTestId("session-rename-input")).toBeNull();
  });
});

describe("SessionList delete", () => {
  it("asks first, and deletes only on confirmation", async () => {
    const props = setup();
    fireEvent.click(screen.getAllByTestId("session-delete")[0] as HTMLElement);
    const confirm = screen.getByTestId("session-delete-confirm");
    expect(confirm.textContent).toContain("Fix the parser");
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(props.onDelete).not.toHaveBeenCalled();
    expect(screen.queryByTestId("session-delete-confirm")).toBeNull();

    fireEvent.click(screen.getAllByTestId("session-delete")[0] as HTMLElement);
    fireEvent.click(screen.getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(props.onDelete).toHaveBeenCalledWith(SESSIONS[0]));
    await waitFor(() => expect(screen.queryByTestId("session-delete-confirm")).toBeNull());
  });
});
