// @vitest-environment jsdom
import { renderHook } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";

import { useRise } from "./useRise";

describe("useRise", () => {
  it("fires when the count grows in one conversation, never for a switch to another", () => {
    const onRise = vi.fn();
    const { rerender } = renderHook(({ key, count }) => useRise(key, count, onRise), {
      initialProps: { key: "a" as string | null, count: 3 },
    });
    expect(onRise).not.toHaveBeenCalled();
    rerender({ key: "a", count: 4 });
    expect(onRise).toHaveBeenCalledTimes(1);
    // Another session with more questions asked (or more jumps) before: not a rise.
    rerender({ key: "b", count: 9 });
    expect(onRise).toHaveBeenCalledTimes(1);
    // One with fewer, then one more: a rise in that session, though below a's count.
    rerender({ key: "c", count: 0 });
    rerender({ key: "c", count: 1 });
    expect(onRise).toHaveBeenCalledTimes(2);
    rerender({ key: "c", count: 1 });
    expect(onRise).toHaveBeenCalledTimes(2);
  });
});
