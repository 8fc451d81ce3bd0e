// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import type { FileDiff } from "../../gen/protocol";
import { DiffView } from "./DiffView";
import { resetDiffViewMode } from "./viewMode";

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  resetDiffViewMode();
});

const TWO_HUNKS: FileDiff = {
  path: "src/lib/greet.txt",
  unified: "",
  hunks: [
    { index: 0, header: "@@ -1,4 +1,4 @@", text: " one\n-two\n+TWO\n three\n four\n" },
    { index: 1, header: "@@ -40,3 +40,4 @@", text: " forty\n-forty-one\n+41\n+41b\n forty-two\n" },
  ],
};

const lines = () => screen.getAllByTestId("diff-line");

describe("DiffView", () => {
  it("shows each hunk with old and new line numbers and the change counts", () => {
    render(<DiffView diff={TWO_HUNKS} />);
    const root = screen.getByTestId("diff");
    expect(root.getAttribute("data-mode")).toBe("unified");
    expect(root.textContent).toContain("greet.txt");
    expect(root.querySelector(".diff__stats")?.textContent).toBe("+3−2");
    expect(screen.getAllByTestId("diff-hunk")).toHaveLength(2);

    const rows = lines().map((row) => [
      row.getAttribute("data-kind"),
      row.querySelector(".diff__num--old")?.textContent,
      row.querySelector(".diff__num--new")?.textContent,
      row.querySelector(".diff__sign")?.textContent,
      row.querySelector(".diff__code")?.textContent,
    ]);
    expect(rows.slice(0, 4)).toEqual([
      ["context", "1", "1", " ", "one"],
      ["del", "2", "", "-", "two"],
      ["add", "", "2", "+", "TWO"],
      ["context", "3", "3", " ", "three"],
    ]);
    expect(rows.slice(5)).toEqual([
      ["context", "40", "40", " ", "forty"],
      ["del", "41", "", "-", "forty-one"],
      ["add", "", "41", "+", "41"],
      ["add", "", "42", "+", "41b"],
      ["context", "42", "43", " ", "forty-two"],
    ]);
  });

  it("switches to side by side, pairing each removed line with its replacement, and remembers it", () => {
    const { unmount } = render(<DiffView diff={TWO_HUNKS} />);
    fireEvent.click(within(screen.getByTestId("diff-mode-toggle")).getByRole("button", { name: "Split" }));
    expect(screen.getByTestId("diff").getAttribute("data-mode")).toBe("split");
    const changed = lines().filter((row) => row.getAttribute("data-kind") === "change");
    expect(changed.map((row) => row.textContent)).toEqual(["2-two2+TWO", "41-forty-one41+41", "42+41b"]);
    expect(changed[2]?.querySelector(".diff__half--empty")).not.toBeNull();
    expect(window.localStorage.getItem("memo.diff.view")).toBe("split");

    unmount();
    resetDiffViewMode();
    render(<DiffView diff={TWO_HUNKS} />);
    expect(screen.getByTestId("diff").getAttribute("data-mode")).toBe("split");
    fireEvent.click(screen.getByRole("button", { name: "Unified" }));
    expect(window.localStorage.getItem("memo.diff.view")).toBe("unified");
  });

  it("keeps every diff on screen in the same layout", () => {
    render(
      <>
        <DiffView diff={TWO_HUNKS} testId="first" />
        <DiffView diff={TWO_HUNKS} testId="second" />
      </>,
    );
    fireEvent.click(within(screen.getByTestId("first")).getByRole("button", { name: "Split" }));
    expect(screen.getByTestId("second").getAttribute("data-mode")).toBe("split");
  });

  it("shows what became of each hunk and renders the caller's hunk actions", () => {
    const states = ["applied", "rejected"] as const;
    render(
      <DiffView
        diff={TWO_HUNKS}
        hunkState={(index) => states[index] ?? null}
        renderHunkActions={(hunk) => <button type="button">Revert {hunk.index + 1}</button>}
      />,
    );
    const [first, second] = screen.getAllByTestId("diff-hunk");
    expect(within(first as HTMLElement).getByTestId("hunk-state").textContent).toBe("Applied");
    expect(within(second as HTMLElement).getByTestId("hunk-state").textContent).toBe("Not applied");
    expect(second?.getAttribute("data-state")).toBe("rejected");
    expect(second?.className).toContain("diff__hunk--rejected");
    expect(within(second as HTMLElement).getByRole("button", { name: "Revert 2" })).toBeTruthy();
  });

  it("shows unified text when the diff came without a hunk list", () => {
    render(<DiffView diff={{ path: "a.txt", unified: "--- a/a.txt\n+++ b/a.txt\n@@ -3 +3 @@\n-x\n+y\n", hunks: [] }} />);
    expect(lines().map((row) => row.getAttribute("data-kind"))).toEqual(["del", "add"]);
  });

  it("says so when there are no line changes", () => {
    render(<DiffView diff={{ path: "empty.txt", unified: "", hunks: [] }} />);
    expect(screen.getByTestId("diff").textContent).toContain("No line changes.");
  });
});

describe("DiffView comments", () => {
  it("offers no line selection without onComment", () => {
    render(<DiffView diff={TWO_HUNKS} />);
    expect(screen.queryByRole("button", { name: "Comment on line 2" })).toBeNull();
  });

  it("selects a range with click and shift-click and sends the comment for it", () => {
    const onComment = vi.fn();
    render(<DiffView diff={TWO_HUNKS} onComment={onComment} />);
    fireEvent.click(screen.getByRole("button", { name: "Comment on line 2" }));
    fireEvent.click(screen.getByRole("button", { name: "Comment on line 4" }), { shiftKey: true });

    const selected = lines().filter((row) => row.className.includes("diff__line--selected"));
    expect(selected.map((row) => row.querySelector(".diff__num--new")?.textContent)).toEqual(["2", "3", "4"]);
    // The form sits right under the last selected line.
    const form = screen.getByTestId("comment-form");
    expect(form.previousElementSibling).toBe(selected[2]);
    expect(form.textContent).toContain("Comment on lines 2–4");
    expect(document.activeElement).toBe(within(form).getByRole("textbox"));

    const add = within(form).getByRole("button", { name: "Add comment" });
    expect((add as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(form).getByRole("textbox"), { target: { value: "  Keep this lowercase.  " } });
    fireEvent.click(add);
    expect(onComment).toHaveBeenCalledWith({
      path: "src/lib/greet.txt",
      side: "new",
      startLine: 2,
      endLine: 4,
      text: "Keep this lowercase.",
    });
    expect(screen.queryByTestId("comment-form")).toBeNull();
    expect(lines().some((row) => row.className.includes("diff__line--selected"))).toBe(false);
  });

  it("comments on the old side from its numbers, and Cancel or Escape drop the form", () => {
    const onComment = vi.fn();
    render(<DiffView diff={TWO_HUNKS} onComment={onComment} />);
    fireEvent.click(screen.getByRole("button", { name: "Comment on old line 41" }));
    expect(screen.getByTestId("comment-form").textContent).toContain("line 41 (before the change)");
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(screen.queryByTestId("comment-form")).toBeNull();

    fireEvent.click(screen.getByRole("button", { name: "Comment on line 1" }));
    const text = within(screen.getByTestId("comment-form")).getByRole("textbox");
    fireEvent.change(text, { target: { value: "why?" } });
    fireEvent.keyDown(text, { key: "Enter", ctrlKey: true });
    expect(onComment).toHaveBeenCalledWith({ path: "src/lib/greet.txt", side: "new", startLine: 1, endLine: 1, text: "why?" });

    fireEvent.click(screen.getByRole("button", { name: "Comment on line 3" }));
    fireEvent.keyDown(within(screen.getByTestId("comment-form")).getByRole("textbox"), { key: "Escape" });
    expect(screen.queryByTestId("comment-form")).toBeNull();
  });

  it("selects in the side-by-side view too", () => {
    const onComment = vi.fn();
    render(<DiffView diff={TWO_HUNKS} onComment={onComment} />);
    fireEvent.click(screen.getByRole("button", { name: "Split" }));
    fireEvent.click(screen.getByRole("button", { name: "Comment on line 41" }));
    fireEvent.click(screen.getByRole("button", { name: "Comment on line 42" }), { shiftKey: true });
    const form = screen.getByTestId("comment-form");
    fireEvent.change(within(form).getByRole("textbox"), { target: { value: "one line is enough" } });
    fireEvent.submit(form);
    expect(onComment).toHaveBeenCalledWith({
      path: "src/lib/greet.txt",
      side: "new",
      startLine: 41,
      endLine: 42,
      text: "one line is enough",
    });
  });
});

describe("DiffView on a large diff", () => {
  const huge: FileDiff = {
    path: "data.txt",
    unified: "",
    hunks: [
      {
        index: 0,
        header: "@@ -0,0 +1,20000 @@",
        text: Array.from({ length: 20_000 }, (_, i) => `+row ${i + 1}\n`).join(""),
      },
    ],
  };

  it("renders only the rows near the viewport, and follows the scroll", () => {
    render(<DiffView diff={huge} maxHeight={400} />);
    expect(screen.getByTestId("diff").className).toContain("diff--windowed");
    const first = lines();
    expect(first.length).toBeGreaterThan(10);
    expect(first.length).toBeLessThan(100);
    expect(first[0]?.textContent).toContain("row 1");

    const scroller = screen.getByTestId("diff").querySelector(".diff__scroll") as HTMLElement;
    act(() => {
      scroller.scrollTop = 10_000 * 20;
      fireEvent.scroll(scroller);
    });
    const later = lines();
    expect(later.length).toBeLessThan(100);
    const shown = later.map((row) => Number(row.querySelector(".diff__num--new")?.textContent));
    expect(shown).toContain(10_005);
    expect(shown).not.toContain(1);
  });
});

describe("DiffView highlighting", () => {
  it("colours code by the file's language once its grammar loads", async () => {
    const diff: FileDiff = {
      path: "src/main.ts",
      unified: "",
      hunks: [{ index: 0, header: "@@ -1 +1 @@", text: "-const a = 1;\n+const a = 2;\n" }],
    };
    render(<DiffView diff={diff} />);
    await waitFor(() => expect(screen.getByTestId("diff").querySelector(".hl-keyword")).not.toBeNull());
    expect(screen.getAllByText("const")).toHaveLength(2);
  });

  it("leaves unknown file types as plain text", () => {
    render(<DiffView diff={{ ...TWO_HUNKS, path: "notes.unknownext" }} />);
    expect(screen.getByTestId("diff").querySelector("[class^='hl-']")).toBeNull();
  });
});
