import { describe, expect, it } from "vitest";

import { AckBatcher, decodeOutput, type AckTimers } from "./flow";

function fakeTimers() {
  const pending = new Map<number, () => void>();
  let next = 1;
  const timers: AckTimers = {
    set: (callback) => {
      const handle = next++;
      pending.set(handle, callback);
      return handle;
    },
    clear: (handle) => void pending.delete(handle as number),
  };
  const fire = () => {
    const callbacks = [...pending.values()];
    pending.clear();
    callbacks.forEach((cb) => cb());
  };
  return { timers, fire, count: () => pending.size };
}

describe("decodeOutput", () => {
  it("gives back the raw bytes, including a UTF-8 sequence split across messages", () => {
    // "é" is C3 A9; a PTY read may end between the two bytes.
    expect([...decodeOutput(btoa("hi\u00c3"))]).toEqual([104, 105, 0xc3]);
    expect([...decodeOutput(btoa("\u00a9!"))]).toEqual([0xa9, 33]);
    expect(decodeOutput("").length).toBe(0);
  });
});

describe("AckBatcher", () => {
  it("acks rendered bytes once after a short pause, not per render", () => {
    const { timers, fire, count } = fakeTimers();
    const sent: number[] = [];
    const acks = new AckBatcher({ threshold: 1000, delayMs: 16, timers });
    acks.target((n) => sent.push(n));
    acks.rendered(10);
    acks.rendered(20);
    expect(sent).toEqual([]);
    expect(count()).toBe(1);
    fire();
    expect(sent).toEqual([30]);
    expect(acks.unacked).toBe(0);
  });

  it("acks at once when the threshold is reached", () => {
    const { timers, count } = fakeTimers();
    const sent: number[] = [];
    const acks = new AckBatcher({ threshold: 100, timers });
    acks.target((n) => sent.push(n));
    acks.rendered(60);
    acks.rendered(60);
    expect(sent).toEqual([120]);
    expect(count()).toBe(0);
  });

  it("keeps counts rendered before the terminal's id is known and sends them then", () => {
    const { timers } = fakeTimers();
    const sent: number[] = [];
    const acks = new AckBatcher({ timers });
    acks.rendered(5);
    acks.rendered(7);
    acks.target((n) => sent.push(n));
    expect(sent).toEqual([12]);
  });

  it("sends nothing after dispose", () => {
    const { timers, fire } = fakeTimers();
    const sent: number[] = [];
    const acks = new AckBatcher({ timers });
    acks.target((n) => sent.push(n));
    acks.rendered(5);
    acks.dispose();
    fire();
    acks.rendered(5);
    acks.flush();
    expect(sent).toEqual([]);
  });
});
