// What a command tool's result means to a person. The engine answers the model in Memo
// Code's exec format (chunk id, wall time, token count, then the output); the card shows
// the command once, what it printed, its exit code and how long it took.

/** Tools that run a shell command. */
export const COMMAND_TOOLS: ReadonlySet<string> = new Set(["exec_command", "shell", "shell_command"]);

export interface CommandResult {
  /** null while the process still runs (the model got a session id to poll). */
  exitCode: number | null;
  signal: string | null;
  stillRunning: boolean;
  seconds: number | null;
  output: string;
}

const HEADER = /^(?:Chunk ID: [^\n]*\n)?Wall time: ([\d.]+) seconds\n(Process exited with code (-?\d+)(?: \(signal: ([^)]+)\))?|Process running with session ID \d+)\n(?:Original token count: \d+\n)?Output:\n?/;

/** Splits an exec-format result into its facts and its output; null for any other text. */
export function parseCommandOutput(text: string): CommandResult | null {
  const match = HEADER.exec(text);
  if (match === null) return null;
  const [header, wall, state, code, signal] = match;
  const running = state?.startsWith("Process running") ?? false;
  return {
    exitCode: running || code === undefined ? null : Number(code),
    signal: signal ?? null,
    stillRunning: running,
    seconds: wall === undefined ? null : Number(wall),
    output: text.slice(header.length),
  };
}

/** The command line a call runs (`cmd`, or `command` as a string or an argv list). */
export function commandLine(args: string): string | null {
  try {
    const value: unknown = JSON.parse(args);
    if (typeof value !== "object" || value === null) return null;
    const record = value as Record<string, unknown>;
    const cmd = record.cmd ?? record.command;
    if (typeof cmd === "string") return cmd;
    if (Array.isArray(cmd) && cmd.every((part) => typeof part === "string")) {
      return cmd.map((part: string) => (/^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replace(/'/g, "'\\''")}'`)).join(" ");
    }
    return null;
  } catch {
    return null;
  }
}

/** "exit 0 · 1.2 s", "killed by SIGTERM · 30 s", "still running · 10 s". */
export function describeResult(result: CommandResult): string {
  const parts: string[] = [];
  if (result.stillRunning) parts.push("still running");
  else if (result.signal) parts.push(`killed by ${result.signal}`);
  else if (result.exitCode !== null) parts.push(`exit ${result.exitCode}`);
  if (result.seconds !== null) {
    parts.push(result.seconds < 1 ? `${Math.round(result.seconds * 1000)} ms` : `${result.seconds.toFixed(1)} s`);
  }
  return parts.join(" · ");
}
