import { describe, expect, it, vi } from "vitest";

import { deliver } from "./mailbox";

describe("deliver", () => {
  it("hands each message to its channel, and a message without a body as the channel's end", () => {
    const runCallback = vi.fn();
    deliver(
      [
        { channel: 7, index: 0, message: ["a"] },
        { channel: 9, index: 0, message: 5 },
        { channel: 7, index: 1 },
      ],
      { runCallback },
    );
    expect(runCallback.mock.calls).toEqual([
      [7, { message: ["a"], index: 0 }],
      [9, { message: 5, index: 0 }],
      [7, { end: true, index: 1 }],
    ]);
  });

  it("goes on past a channel that throws", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const runCallback = vi.fn((id: number) => {
      if (id === 1) throw new Error("broken handler");
    });
    deliver(
      [
        { channel: 1, index: 0, message: null },
        { channel: 2, index: 0, message: "next" },
      ],
      { runCallback },
    );
    expect(runCallback).toHaveBeenLastCalledWith(2, { message: "next", index: 0 });
    expect(error).toHaveBeenCalledTimes(1);
    error.mockRestore();
  });
});
