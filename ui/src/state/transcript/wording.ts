/**
 * A sentence for the person, worded when it is shown rather than when its event
 * arrived: the reducer keeps a function that asks the catalog again, so switching
 * the language re-words what is already on screen. Text that is nobody's to
 * translate (a command's own output, a server's words) stays a plain string.
 */
export type Wording = string | (() => string);

export function worded(wording: Wording): string {
  return typeof wording === "function" ? wording() : wording;
}
