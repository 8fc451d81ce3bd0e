import { describe, expect, it } from "vitest";

import { isToggleTerminalShortcut, keyAction, type KeyLike } from "./keys";
import { textDelta } from "./textDelta";
import { isDarkColor, terminalTheme } from "./theme";

function key(k: string, mods: Partial<KeyLike> = {}): KeyLike {
  return { type: "keydown", key: k, ctrlKey: false, shiftKey: false, altKey: false, metaKey: false, ...mods };
}

describe("terminal keys", () => {
  it("copies and pastes with Ctrl+Shift, leaving plain Ctrl+C and Ctrl+V to the shell", () => {
    expect(keyAction(key("C", { ctrlKey: true, shiftKey: true }))).toBe("copy");
    expect(keyAction(key("V", { ctrlKey: true, shiftKey: true }))).toBe("paste");
    expect(keyAction(key("c", { ctrlKey: true }))).toBeNull();
    expect(keyAction(key("v", { ctrlKey: true }))).toBeNull();
    expect(keyAction(key("c", { metaKey: true }))).toBe("copy");
    expect(keyAction(key("Insert", { shiftKey: true }))).toBe("paste");
    expect(keyAction(key("Insert", { ctrlKey: true }))).toBe("copy");
  });

  it("only acts on key presses", () => {
    expect(keyAction({ ...key("C", { ctrlKey: true, shiftKey: true }), type: "keyup" })).toBeNull();
    expect(keyAction(key("a"))).toBeNull();
  });

  it("opens and switches tabs", () => {
    expect(keyAction(key("~", { ctrlKey: true, shiftKey: true, code: "Backquote" }))).toBe("new-tab");
    expect(keyAction(key("PageDown", { ctrlKey: true }))).toBe("next-tab");
    expect(keyAction(key("PageUp", { ctrlKey: true }))).toBe("previous-tab");
  });
});

describe("panel toggle shortcut", () => {
  it("is Ctrl+` and nothing else", () => {
    expect(isToggleTerminalShortcut(key("`", { ctrlKey: true, code: "Backquote" }))).toBe(true);
    expect(isToggleTerminalShortcut(key("~", { ctrlKey: true, shiftKey: true, code: "Backquote" }))).toBe(false);
    expect(isToggleTerminalShortcut(key("`", { code: "Backquote" }))).toBe(false);
  });
});

describe("textDelta", () => {
  it("appends what was added", () => {
    expect(textDelta("", "a\n")).toEqual({ reset: false, append: "a\n" });
    expect(textDelta("a\n", "a\nb\n")).toEqual({ reset: false, append: "b\n" });
    expect(textDelta("a\n", "a\n")).toEqual({ reset: false, append: "" });
  });

  it("appends only the new part when the front of the text was cut", () => {
    const previous = "line 1\nline 2\nline 3\n";
    expect(textDelta(previous, "line 2\nline 3\nline 4\n")).toEqual({ reset: false, append: "line 4\n" });
    expect(textDelta(previous, "line 3\n")).toEqual({ reset: false, append: "" });
  });

  it("starts over when the text is something else", () => {
    expect(textDelta("old output\n", "new run\n")).toEqual({ reset: true, text: "new run\n" });
    expect(textDelta("abc", "")).toEqual({ reset: true, text: "" });
  });
});

describe("terminalTheme", () => {
  const vars: Record<string, string> = { "--bg": "#101010", "--text": "#eeeeee" };
  it("takes the app's background and text colours, and a palette for the scheme", () => {
    const dark = terminalTheme((name) => vars[name] ?? "", true);
    expect(dark).toMatchObject({ background: "#101010", foreground: "#eeeeee", cursor: "#eeeeee" });
    const light = terminalTheme(() => "", false);
    expect(light.background).toBe("#ffffff");
    expect(light.red).not.toBe(dark.red);
  });

  it("prefers a terminal-specific background when the app defines one", () => {
    const theme = terminalTheme((name) => ({ ...vars, "--terminal-bg": "#000000" })[name] ?? "", true);
    expect(theme.background).toBe("#000000");
  });
});

describe("isDarkColor", () => {
  it("tells the app's light and dark backgrounds apart", () => {
    expect(isDarkColor("#ffffff")).toBe(false);
    expect(isDarkColor("#15171c")).toBe(true);
    expect(isDarkColor("#fff")).toBe(false);
    expect(isDarkColor("rgb(0, 0, 0)")).toBeNull();
  });
});
