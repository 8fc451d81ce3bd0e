import { describe, expect, it } from "vitest";

import { isImeComposing } from "./ime";

const key = (init: Partial<KeyboardEvent>) => ({ isComposing: false, keyCode: 13, key: "Enter", ...init }) as KeyboardEvent;

describe("isImeComposing", () => {
  it("says a key belongs to the input method while it composes, or when it sends keyCode 229", () => {
    expect(isImeComposing(key({ isComposing: true }))).toBe(true);
    expect(isImeComposing(key({ keyCode: 229 }))).toBe(true);
    expect(isImeComposing(key({}))).toBe(false);
  });

  it("reads a React event's native event", () => {
    const native = key({ isComposing: true });
    expect(isImeComposing({ nativeEvent: native } as never)).toBe(true);
  });
});
