// Flow control on the UI side. The backend stops reading a terminal once 1 MiB of its
// output is unacknowledged; the UI acknowledges bytes only after xterm.js has rendered
// them (its write callback), so a flood of output runs at the speed the screen draws
// instead of piling up in memory. Acks are batched: one IPC call per few kilobytes or per
// short pause, not one per message.

/** Decodes a terminal output message (base64 of raw bytes; see memo-protocol). */
export function decodeOutput(data: string): Uint8Array {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export interface AckTimers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: AckTimers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface AckOptions {
  /** Ack at once when this many rendered bytes are waiting (well under the 1 MiB window). */
  threshold?: number;
  /** Otherwise ack this long after the first unacked render. */
  delayMs?: number;
  timers?: AckTimers;
}

/**
 * Gathers rendered byte counts and sends them as acks. Until `target` is given (the
 * terminal's id arrives after its first output can), counts are kept and sent then.
 */
export class AckBatcher {
  private pending = 0;
  private timer: unknown = null;
  private send: ((bytes: number) => void) | null = null;
  private disposed = false;
  private readonly threshold: number;
  private readonly delayMs: number;
  private readonly timers: AckTimers;

  constructor(options: AckOptions = {}) {
    this.threshold = options.threshold ?? 64 * 1024;
    this.delayMs = options.delayMs ?? 16;
    this.timers = options.timers ?? realTimers;
  }

  /** Where acks go from now on; anything rendered so far is acked now. */
  target(send: (bytes: number) => void): void {
    this.send = send;
    if (this.pending > 0) this.flush();
  }

  rendered(bytes: number): void {
    if (this.disposed || bytes <= 0) return;
    this.pending += bytes;
    if (this.send === null) return;
    if (this.pending >= this.threshold) this.flush();
    else if (this.timer === null) this.timer = this.timers.set(() => this.flush(), this.delayMs);
  }

  flush(): void {
    if (this.timer !== null) {
      this.timers.clear(this.timer);
      this.timer = null;
    }
    if (this.send === null || this.pending === 0 || this.disposed) return;
    const bytes = this.pending;
    this.pending = 0;
    this.send(bytes);
  }

  /** Unacked bytes rendered so far (for tests and diagnostics). */
  get unacked(): number {
    return this.pending;
  }

  dispose(): void {
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
    this.disposed = true;
    this.send = null;
  }
}
