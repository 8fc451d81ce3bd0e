// The connection's backend in the app: the generated terminal IPC calls, with output on a
// Tauri channel per terminal.
import { Channel } from "@tauri-apps/api/core";

import { ipc } from "../../ipc";
import type { TerminalMessage } from "../../gen/protocol";
import type { TerminalBackend } from "./connection";

export const tauriBackend: TerminalBackend = {
  open: (cwd, cols, rows, onMessage) =>
    // The handler is set before the channel crosses IPC, so the first prompt is not lost.
    ipc.terminalOpen({ cwd, cols, rows, onOutput: new Channel<TerminalMessage>(onMessage) }),
  write: (id, data) => ipc.terminalWrite({ id, data }),
  resize: (id, cols, rows) => ipc.terminalResize({ id, cols, rows }),
  ack: (id, bytes) => ipc.terminalAck({ id, bytes }),
  close: (id) => ipc.terminalClose({ id }),
};
