// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { OpenFolder } from "../features/chat/OpenFolder";

/** What the backend answers `check_folder` with: the real path, or a refusal. */
const backend = vi.hoisted(() => ({ answer: (_path: string): Promise<string> => Promise.resolve(_path), calls: [] as string[] }));
vi.mock("../ipc", async (importOriginal) => ({
  ...(await importOriginal<object>()),
  ipc: {
    checkFolder: ({ path }: { path: string }) => {
      backend.calls.push(path);
      return backend.answer(path);
    },
  },
}));

afterEach(() => {
  cleanup();
  backend.calls.length = 0;
});

describe("a typed folder path", () => {
  it("opens nothing for a folder that does not exist, and says so under the field", async () => {
    backend.answer = async () => {
      throw { code: "invalid_input", message: "No such folder: /home/u/nope", retryable: false };
    };
    const onOpenPath = vi.fn();
    render(<OpenFolder onPick={vi.fn()} onOpenPath={onOpenPath} />);
    fireEvent.change(screen.getByTestId("folder-path-input"), { target: { value: "/home/u/nope" } });
    fireEvent.click(screen.getByTestId("folder-path-open"));
    expect((await screen.findByRole("alert")).textContent).toBe("No such folder: /home/u/nope");
    expect(onOpenPath).not.toHaveBeenCalled();
    expect(backend.calls).toEqual(["/home/u/nope"]);
  });

  it("opens a folder the backend found", async () => {
    backend.answer = async (path) => path;
    const onOpenPath = vi.fn();
    render(<OpenFolder onPick={vi.fn()} onOpenPath={onOpenPath} />);
    fireEvent.change(screen.getByTestId("folder-path-input"), { target: { value: "/home/u/shop/" } });
    fireEvent.click(screen.getByTestId("folder-path-open"));
    await waitFor(() => expect(onOpenPath).toHaveBeenCalledWith("/home/u/shop"));
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
