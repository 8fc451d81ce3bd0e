import { describe, expect, it } from "vitest";

import { applyCompletion, completionTrigger } from "./completion";

describe("composer completion", () => {
  it("finds the word to complete after /, @ and $", () => {
    expect(completionTrigger("/rev", 4)).toEqual({ kind: "command", typed: "rev", start: 0 });
    expect(completionTrigger("please /rev", 11)).toBeNull();
    expect(completionTrigger("look at @src/ma", 15)).toEqual({ kind: "path", typed: "src/ma", start: 8 });
    expect(completionTrigger("use $release", 12)).toEqual({ kind: "skill", typed: "release", start: 4 });
    expect(completionTrigger("costs $5.00", 6)).toBeNull();
    expect(completionTrigger("mail me@host", 12)).toBeNull();
    expect(completionTrigger("@", 1)).toEqual({ kind: "path", typed: "", start: 0 });
  });

  it("takes the full-width sigils an input method types (／, ＠, ＄) as /, @ and $", () => {
    expect(completionTrigger("／rev", 4)).toEqual({ kind: "command", typed: "rev", start: 0 });
    expect(completionTrigger("看一下 ＠src/ma", 11)).toEqual({ kind: "path", typed: "src/ma", start: 4 });
    expect(completionTrigger("用\u3000＄release", 10)).toEqual({ kind: "skill", typed: "release", start: 2 });
    expect(completionTrigger("＠", 1)).toEqual({ kind: "path", typed: "", start: 0 });
    expect(completionTrigger("请 ／rev", 6)).toBeNull();
    expect(completionTrigger("mail me＠host", 12)).toBeNull();
    // A Chinese punctuation mode: `/` is typed as 、 and `$` as ￥.
    expect(completionTrigger("、rev", 4)).toEqual({ kind: "command", typed: "rev", start: 0 });
    expect(completionTrigger("用 ￥周报", 5)).toEqual({ kind: "skill", typed: "周报", start: 2 });
    expect(completionTrigger("列表、rev", 6)).toBeNull();
    // Chinese runs words together: a sigil right after a CJK character or mark starts one.
    expect(completionTrigger("看看@src/ma", 9)).toEqual({ kind: "path", typed: "src/ma", start: 2 });
    expect(completionTrigger("看看＠文档/会议", 9)).toEqual({ kind: "path", typed: "文档/会议", start: 2 });
    expect(completionTrigger("用$周报", 4)).toEqual({ kind: "skill", typed: "周报", start: 1 });
    expect(completionTrigger("（@src", 5)).toEqual({ kind: "path", typed: "src", start: 1 });
    expect(completionTrigger("mail me@host", 12)).toBeNull();
    // Completed, the ASCII sigil takes the full-width one's place.
    expect(applyCompletion("／he", 3, { kind: "command", typed: "he", start: 0 }, "/help")).toEqual({ text: "/help ", caret: 6 });
  });

  it("replaces the word, adds a space after a finished one and keeps folders open", () => {
    const trigger = { kind: "path" as const, typed: "src/ma", start: 8 };
    expect(applyCompletion("look at @src/ma", 15, trigger, "@src/main.rs")).toEqual({
      text: "look at @src/main.rs ",
      caret: 21,
    });
    expect(applyCompletion("look at @sr please", 11, { kind: "path", typed: "sr", start: 8 }, "@src/")).toEqual({
      text: "look at @src/ please",
      caret: 13,
    });
    expect(applyCompletion("/he", 3, { kind: "command", typed: "he", start: 0 }, "/help")).toEqual({ text: "/help ", caret: 6 });
  });
});
