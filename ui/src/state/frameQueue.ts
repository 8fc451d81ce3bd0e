// Streamed events are handed to the reducers once per animation frame, however many IPC
// messages brought them: several sessions streaming at once (each batched by the bridge on
// its own clock) still cost one render a frame, in step with the screen.

/** Runs `callback` at the next frame; returns a cancel. */
export type Schedule = (callback: () => void) => () => void;

/** At most this long between flushes when no frame comes (a hidden window gets none). */
const MAX_WAIT_MS = 100;

/** The next animation frame, or MAX_WAIT_MS, whichever comes first. */
export const nextFrame: Schedule = (callback) => {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    callback();
  };
  const frame = requestAnimationFrame(once);
  const timer = setTimeout(once, MAX_WAIT_MS);
  return () => {
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
};

export interface FrameQueue<T> {
  /** Adds items for `key`; they are flushed, in order, at the next frame. */
  push: (key: string, items: readonly T[]) => void;
  /** Forgets what is waiting for `key` (its conversation was let go). */
  discard: (key: string) => void;
  /** Stops: nothing waiting is flushed. */
  dispose: () => void;
}

/** Gathers items per key and calls `flush` once per key per frame. */
export function frameQueue<T>(flush: (key: string, items: T[]) => void, schedule: Schedule = nextFrame): FrameQueue<T> {
  const waiting = new Map<string, T[]>();
  let cancel: (() => void) | null = null;
  const run = () => {
    cancel = null;
    const ready = [...waiting];
    waiting.clear();
    for (const [key, items] of ready) flush(key, items);
  };
  return {
    push(key, items) {
      if (items.length === 0) return;
      const list = waiting.get(key);
      if (list) list.push(...items);
      else waiting.set(key, [...items]);
      cancel ??= schedule(run);
    },
    discard(key) {
      waiting.delete(key);
    },
    dispose() {
      cancel?.();
      cancel = null;
      waiting.clear();
    },
  };
}
