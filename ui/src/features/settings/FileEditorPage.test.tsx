// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { EditableFile } from "../../gen/protocol";
import { FileEditorPage } from "./FileEditorPage";

const { ipc } = vi.hoisted(() => ({ ipc: { readEditableFile: vi.fn(), writeEditableFile: vi.fn() } }));
vi.mock("../../ipc", async (importOriginal) => ({ ...(await importOriginal<object>()), ipc }));
// CodeMirror needs layout that jsdom does not have; a textarea plays the editor.
vi.mock("../../components/MarkdownEditor", () => ({
  MarkdownEditor: ({ value, onChange }: { value: string; onChange: (text: string) => void }) => (
    <textarea data-testid="fake-editor" defaultValue={value} onChange={(event) => onChange(event.target.value)} />
  ),
}));

afterEach(cleanup);
beforeEach(() => {
  ipc.readEditableFile.mockReset();
  ipc.writeEditableFile.mockReset();
});

const SOUL: EditableFile = { kind: "soul", path: "/home/u/.memo/SOUL.md", content: "Be brief.", revision: "9-aa", exists: true };

describe("FileEditorPage", () => {
  it("saves the draft with the revision it was read at and reports dirty state", async () => {
    ipc.readEditableFile.mockResolvedValue(SOUL);
    ipc.writeEditableFile.mockResolvedValue({ ...SOUL, content: "Be very brief.", revision: "14-bb" });
    const onDirty = vi.fn();
    render(<FileEditorPage kind="soul" cwd={null} title="SOUL.md" lead="" onDirtyChange={onDirty} />);
    fireEvent.change(await screen.findByTestId("fake-editor"), { target: { value: "Be very brief." } });
    expect(screen.getByTestId("editor-unsaved")).toBeTruthy();
    expect(onDirty).toHaveBeenLastCalledWith(true);
    fireEvent.click(screen.getByTestId("editor-save"));
    await waitFor(() => expect(onDirty).toHaveBeenLastCalledWith(false));
    expect(ipc.writeEditableFile).toHaveBeenCalledWith({
      kind: "soul",
      cwd: null,
      path: "/home/u/.memo/SOUL.md",
      content: "Be very brief.",
      revision: "9-aa",
    });
    expect(screen.queryByTestId("editor-unsaved")).toBeNull();
  });

  it("keeps the draft on a conflict and overwrites only when asked", async () => {
    ipc.readEditableFile
      .mockResolvedValueOnce(SOUL)
      .mockResolvedValueOnce({ ...SOUL, content: "theirs", revision: "6-cc" });
    ipc.writeEditableFile
      .mockRejectedValueOnce({ code: "conflict", message: "SOUL.md changed on disk", retryable: false })
      .mockResolvedValueOnce({ ...SOUL, content: "mine", revision: "4-dd" });
    render(<FileEditorPage kind="soul" cwd={null} title="SOUL.md" lead="" onDirtyChange={vi.fn()} />);
    fireEvent.change(await screen.findByTestId("fake-editor"), { target: { value: "mine" } });
    fireEvent.click(screen.getByTestId("editor-save"));
    expect(await screen.findByTestId("editor-conflict")).toBeTruthy();
    expect(screen.getByTestId("editor-unsaved")).toBeTruthy();
    fireEvent.click(screen.getByTestId("editor-overwrite"));
    await waitFor(() => expect(screen.queryByTestId("editor-conflict")).toBeNull());
    expect(ipc.writeEditableFile).toHaveBeenLastCalledWith(expect.objectContaining({ content: "mine", revision: "6-cc" }));
  });

  it("shows why a file cannot be opened", async () => {
    ipc.readEditableFile.mockRejectedValue({ code: "invalid_input", message: "SOUL.md is not UTF-8 text", retryable: false });
    render(<FileEditorPage kind="soul" cwd={null} title="SOUL.md" lead="" onDirtyChange={vi.fn()} />);
    expect((await screen.findByRole("alert")).textContent).toContain("not UTF-8");
  });
});
