import { describe, expect, it } from "vitest";

import { TerminalConnection, type ConnectionStatus, type TerminalBackend, type TerminalScreen } from "./connection";
import type { TerminalMessage } from "../../gen/protocol";

interface PendingOpen {
  cwd: string;
  cols: number;
  rows: number;
  send: (message: TerminalMessage) => void;
  resolve: (id: number) => void;
  reject: (error: unknown) => void;
}

class FakeBackend implements TerminalBackend {
  opens: PendingOpen[] = [];
  calls: string[] = [];

  open(cwd: string, cols: number, rows: number, onMessage: (message: TerminalMessage) => void): Promise<number> {
    return new Promise((resolve, reject) => this.opens.push({ cwd, cols, rows, send: onMessage, resolve, reject }));
  }
  write(id: number, data: string) {
    this.calls.push(`write ${id} ${JSON.stringify(data)}`);
    return Promise.resolve();
  }
  resize(id: number, cols: number, rows: number) {
    this.calls.push(`resize ${id} ${cols}x${rows}`);
    return Promise.resolve();
  }
  ack(id: number, bytes: number) {
    this.calls.push(`ack ${id} ${bytes}`);
    return Promise.resolve();
  }
  close(id: number) {
    this.calls.push(`close ${id}`);
    return Promise.resolve();
  }
}

/** A screen that renders when told to, like xterm's asynchronous write callback. */
class FakeScreen implements TerminalScreen {
  written: string[] = [];
  private callbacks: (() => void)[] = [];
  write(bytes: Uint8Array, rendered: () => void) {
    this.written.push(new TextDecoder().decode(bytes));
    this.callbacks.push(rendered);
  }
  render() {
    const callbacks = this.callbacks;
    this.callbacks = [];
    callbacks.forEach((cb) => cb());
  }
}

const output = (text: string): TerminalMessage => ({ type: "output", data: btoa(text) });
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

function setup() {
  const backend = new FakeBackend();
  const screen = new FakeScreen();
  const statuses: ConnectionStatus[] = [];
  // Immediate acks (threshold 1) keep the bookkeeping visible in `calls`.
  const connection = new TerminalConnection(backend, screen, (s) => statuses.push(s), { threshold: 1 });
  return { backend, screen, statuses, connection };
}

describe("TerminalConnection", () => {
  it("draws output and acks it only once rendered", async () => {
    const { backend, screen, connection, statuses } = setup();
    connection.start("/w", 80, 24);
    const open = backend.opens[0]!;
    expect(open).toMatchObject({ cwd: "/w", cols: 80, rows: 24 });
    // The prompt can arrive before the open resolves.
    open.send(output("$ "));
    open.resolve(7);
    await tick();
    expect(statuses.map((s) => s.kind)).toEqual(["starting", "running"]);
    expect(screen.written).toEqual(["$ "]);
    expect(backend.calls).toEqual([]);
    screen.render();
    expect(backend.calls).toEqual(["ack 7 2"]);
    open.send(output("hello"));
    screen.render();
    expect(backend.calls).toEqual(["ack 7 2", "ack 7 5"]);
  });

  it("sends input typed before the open resolves, then input as typed", async () => {
    const { backend, connection } = setup();
    connection.start("/w", 80, 24);
    connection.input("l");
    connection.input("s");
    backend.opens[0]!.resolve(1);
    await tick();
    connection.input("\r");
    expect(backend.calls).toEqual(['write 1 "ls"', 'write 1 "\\r"']);
  });

  it("keeps keystrokes in order when writes complete out of order: one write in flight", async () => {
    const { backend, connection } = setup();
    const done: (() => void)[] = [];
    backend.write = (id: number, data: string) => {
      backend.calls.push(`write ${id} ${JSON.stringify(data)}`);
      return new Promise<void>((resolve) => done.push(resolve));
    };
    connection.start("/w", 80, 24);
    backend.opens[0]!.resolve(3);
    await tick();
    for (const key of ["e", "c", "h", "o", " ", "$", "!", "\r"]) connection.input(key);
    // Only the first is sent; the rest wait for it and go together, in order.
    expect(backend.calls).toEqual(['write 3 "e"']);
    done.shift()!();
    await tick();
    expect(backend.calls).toEqual(['write 3 "e"', 'write 3 "cho $!\\r"']);
    done.shift()!();
    await tick();
    expect(backend.calls).toHaveLength(2);
  });

  it("resizes only on real changes, including one made while opening", async () => {
    const { backend, connection } = setup();
    connection.start("/w", 80, 24);
    connection.resize(100, 30);
    backend.opens[0]!.resolve(1);
    await tick();
    connection.resize(100, 30);
    connection.resize(0, 0);
    connection.resize(120, 30);
    expect(backend.calls).toEqual(["resize 1 100x30", "resize 1 120x30"]);
  });

  it("reports the exit, closes the backend terminal and restarts on a new one", async () => {
    const { backend, connection, statuses, screen } = setup();
    connection.start("/w", 80, 24);
    backend.opens[0]!.resolve(1);
    await tick();
    backend.opens[0]!.send({ type: "exit", code: 3 });
    expect(statuses.at(-1)).toEqual({ kind: "exited", code: 3 });
    expect(backend.calls).toEqual(["close 1"]);
    connection.input("ignored");
    connection.start("/w", 90, 20);
    expect(backend.opens[1]).toMatchObject({ cols: 90, rows: 20 });
    // The old PTY's late messages are dropped.
    backend.opens[0]!.send(output("stale"));
    backend.opens[1]!.resolve(2);
    await tick();
    backend.opens[1]!.send(output("fresh"));
    expect(screen.written).toEqual(["fresh"]);
    expect(statuses.at(-1)).toEqual({ kind: "running" });
  });

  it("closes a terminal whose open resolves after the tab is gone", async () => {
    const { backend, connection, statuses } = setup();
    connection.start("/w", 80, 24);
    connection.dispose();
    backend.opens[0]!.resolve(4);
    await tick();
    expect(backend.calls).toEqual(["close 4"]);
    expect(statuses.map((s) => s.kind)).toEqual(["starting"]);
    connection.start("/w", 80, 24);
    expect(backend.opens).toHaveLength(1);
  });

  it("closes the running terminal on dispose and acks nothing after", async () => {
    const { backend, connection, screen } = setup();
    connection.start("/w", 80, 24);
    backend.opens[0]!.resolve(5);
    await tick();
    backend.opens[0]!.send(output("abc"));
    connection.dispose();
    screen.render();
    backend.opens[0]!.send(output("more"));
    expect(backend.calls).toEqual(["close 5"]);
    expect(screen.written).toEqual(["abc"]);
  });

  it("shows why a terminal could not start", async () => {
    const { backend, connection, statuses } = setup();
    connection.start("/nope", 80, 24);
    backend.opens[0]!.reject(new Error("cannot open a terminal in /nope: it is not a folder"));
    await tick();
    expect(statuses.at(-1)).toEqual({ kind: "failed", message: "cannot open a terminal in /nope: it is not a folder" });
  });
});
