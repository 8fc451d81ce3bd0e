// The connection's backend in the app: the generated terminal commands, with output on a
// Tauri channel per terminal.
import { Channel } from "@tauri-apps/api/core";

import { commands } from "../../ipc";
import type { TerminalMessage } from "../../gen/protocol";
import type { TerminalBackend } from "./connection";

export const tauriBackend: TerminalBackend = {
  open: (cwd, cols, rows, onMessage) =>
    // The handler is set before the channel crosses IPC, so the first prompt is not lost.
    commands.terminalOpen({ cwd, cols, rows, onOutput: new Channel<TerminalMessage>(onMessage) }),
  write: (id, data) => commands.terminalWrite({ id, data }),
  resize: (id, cols, rows) => commands.terminalResize({ id, cols, rows }),
  ack: (id, bytes) => commands.terminalAck({ id, bytes }),
  close: (id) => commands.terminalClose({ id }),
};
