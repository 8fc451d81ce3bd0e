// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";

import { placeCaretAgain } from "./caret";

describe("placeCaretAgain", () => {
  afterEach(() => document.body.replaceChildren());

  it("moves the focused box's caret away and back, leaving value and selection as they were", () => {
    const box = document.createElement("textarea");
    box.value = "hello world";
    document.body.append(box);
    box.focus();
    box.setSelectionRange(3, 7, "backward");
    const moves = vi.spyOn(box, "setSelectionRange");
    placeCaretAgain();
    expect(moves.mock.calls).toEqual([
      [0, 0],
      [3, 7, "backward"],
    ]);
    expect([box.value, box.selectionStart, box.selectionEnd, box.selectionDirection]).toEqual(["hello world", 3, 7, "backward"]);
  });

  it("moves a caret at the start to the next place first", () => {
    const box = document.createElement("input");
    box.value = "ab";
    document.body.append(box);
    box.focus();
    box.setSelectionRange(0, 0);
    const moves = vi.spyOn(box, "setSelectionRange");
    placeCaretAgain();
    expect(moves.mock.calls[0]).toEqual([1, 1]);
    expect(box.selectionStart).toBe(0);
  });

  it("leaves the page alone when no text box has focus", () => {
    const button = document.createElement("button");
    document.body.append(button);
    button.focus();
    expect(() => placeCaretAgain()).not.toThrow();
  });
});
