// One tab's link to a backend terminal, without React or xterm: opening (and reopening on
// Restart), output to the screen with acks after rendering, input and size changes, and
// closing. Output of a PTY that was replaced or closed is dropped, and an open that
// resolves after the tab is gone closes what it opened, so no shell outlives its tab.

import { AckBatcher, decodeOutput, type AckOptions } from "./flow";
import type { TerminalMessage } from "../../gen/protocol";
import { t } from "../../i18n";

/** The backend commands a connection uses (the generated IPC commands in the app). */
export interface TerminalBackend {
  open(cwd: string, cols: number, rows: number, onMessage: (message: TerminalMessage) => void): Promise<number>;
  write(id: number, data: string): Promise<void>;
  resize(id: number, cols: number, rows: number): Promise<void>;
  ack(id: number, bytes: number): Promise<void>;
  close(id: number): Promise<void>;
}

/** Where output is drawn; `rendered` runs once the bytes are on screen. */
export interface TerminalScreen {
  write(bytes: Uint8Array, rendered: () => void): void;
}

export type ConnectionStatus =
  | { kind: "starting" }
  | { kind: "running" }
  | { kind: "exited"; code: number | null }
  | { kind: "failed"; message: string };

function ignore(): void {}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === "string" ? error : t("terminal:view.couldNotStart");
}

export class TerminalConnection {
  private id: number | null = null;
  /** Bumped per open: messages and results of an earlier PTY are recognised and dropped. */
  private generation = 0;
  private acks: AckBatcher | null = null;
  private size: { cols: number; rows: number } = { cols: 80, rows: 24 };
  private sentSize: { cols: number; rows: number } | null = null;
  /** Typed before the open resolved: sent as soon as the id is known. */
  private pendingInput = "";
  /**
   * Input waiting for the write in flight. IPC calls can complete out of order, so one
   * write at a time: what is typed meanwhile goes in the next one, in order.
   */
  private queuedInput = "";
  private writing = false;
  private disposed = false;
  private statusValue: ConnectionStatus = { kind: "starting" };

  constructor(
    private readonly backend: TerminalBackend,
    private readonly screen: TerminalScreen,
    private readonly onStatus: (status: ConnectionStatus) => void,
    private readonly ackOptions: AckOptions = {},
  ) {}

  get status(): ConnectionStatus {
    return this.statusValue;
  }

  private setStatus(status: ConnectionStatus): void {
    this.statusValue = status;
    this.onStatus(status);
  }

  /** Opens a shell in `cwd`; also what Restart does after an exit. */
  start(cwd: string, cols: number, rows: number): void {
    if (this.disposed) return;
    this.detach();
    const generation = ++this.generation;
    const acks = new AckBatcher(this.ackOptions);
    this.acks = acks;
    this.size = { cols, rows };
    this.sentSize = { cols, rows };
    this.setStatus({ kind: "starting" });

    const current = () => generation === this.generation && !this.disposed;
    const onMessage = (message: TerminalMessage) => {
      if (!current()) return;
      if (message.type === "output") {
        const bytes = decodeOutput(message.data);
        this.screen.write(bytes, () => acks.rendered(bytes.length));
      } else {
        // The exit comes after all output, so it is shown after the last of it.
        const id = this.id;
        this.id = null;
        acks.dispose();
        this.setStatus({ kind: "exited", code: message.code });
        if (id !== null) this.backend.close(id).catch(ignore);
      }
    };

    this.backend.open(cwd, cols, rows, onMessage).then(
      (id) => {
        if (!current()) {
          this.backend.close(id).catch(ignore);
          return;
        }
        // An exit can arrive before the open resolves (a shell that fails at once).
        if (this.statusValue.kind === "exited") {
          this.backend.close(id).catch(ignore);
          return;
        }
        this.id = id;
        acks.target((bytes) => this.backend.ack(id, bytes).catch(ignore));
        this.setStatus({ kind: "running" });
        if (this.pendingInput) {
          this.queuedInput = this.pendingInput + this.queuedInput;
          this.pendingInput = "";
          this.flushInput();
        }
        this.syncSize();
      },
      (error: unknown) => {
        if (current()) this.setStatus({ kind: "failed", message: messageOf(error) });
      },
    );
  }

  /** Keystrokes and pasted text. */
  input(data: string): void {
    if (this.disposed) return;
    if (this.id !== null) {
      this.queuedInput += data;
      this.flushInput();
    } else if (this.statusValue.kind === "starting") this.pendingInput += data;
  }

  private flushInput(): void {
    if (this.writing || this.id === null || this.queuedInput === "") return;
    const data = this.queuedInput;
    this.queuedInput = "";
    this.writing = true;
    this.backend
      .write(this.id, data)
      .catch(ignore)
      .finally(() => {
        this.writing = false;
        this.flushInput();
      });
  }

  /** The screen's size in cells changed; only real changes reach the backend. */
  resize(cols: number, rows: number): void {
    if (cols <= 0 || rows <= 0) return;
    this.size = { cols, rows };
    this.syncSize();
  }

  private syncSize(): void {
    if (this.id === null) return;
    const { cols, rows } = this.size;
    if (this.sentSize && this.sentSize.cols === cols && this.sentSize.rows === rows) return;
    this.sentSize = { cols, rows };
    this.backend.resize(this.id, cols, rows).catch(ignore);
  }

  private detach(): void {
    this.generation += 1;
    this.acks?.dispose();
    this.acks = null;
    this.pendingInput = "";
    this.queuedInput = "";
    if (this.id !== null) {
      const id = this.id;
      this.id = null;
      this.backend.close(id).catch(ignore);
    }
  }

  /** Closes the shell (and everything started in it); the connection is done. */
  dispose(): void {
    if (this.disposed) return;
    this.detach();
    this.disposed = true;
  }
}
