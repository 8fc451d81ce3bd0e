// Long pastes (a log, a file) are kept out of the composer's text box: a 200 KB value made
// each keystroke re-measure the box (~11 s for the paste to land) and filled the screen.
// They are attachments in the composer, and go to the model inside the message's text, each
// in a fenced block that says what it is, so the engine sees an ordinary message.
import type { PastedText } from "../../state/drafts";

/** Pastes longer than this become an attachment instead of text in the box. */
export const LARGE_PASTE_CHARS = 4000;

export interface PasteSummary {
  /** The first line with text in it, for the chip. */
  firstLine: string;
  lines: number;
  /** A rough count (a token is about four characters): said as "≈". */
  tokens: number;
}

export function summarizePaste(text: string): PasteSummary {
  const lines = text.split("\n");
  const first = lines.find((line) => line.trim() !== "")?.trim() ?? "";
  return {
    firstLine: first.length > 80 ? `${first.slice(0, 79)}…` : first,
    lines: text.endsWith("\n") ? lines.length - 1 : lines.length,
    tokens: Math.ceil(text.length / 4),
  };
}

/** A fence longer than any run of backticks in `text`, so the block cannot end early. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return "`".repeat(Math.max(3, longest + 1));
}

/** The message as the model gets it: what was typed, then each paste in its own block. */
export function messageWithPastes(text: string, pastes: readonly PastedText[]): string {
  const blocks = pastes.map((paste) => {
    const body = paste.text.replace(/\n$/, "");
    const fence = fenceFor(body);
    const { lines } = summarizePaste(paste.text);
    return `Pasted text (${lines} ${lines === 1 ? "line" : "lines"}):\n${fence}\n${body}\n${fence}`;
  });
  return [text, ...blocks].filter((part) => part !== "").join("\n\n");
}
