// A command's argv shown as a line a POSIX shell would read back into the same words.

/** Characters a word may hold and still be read as one word, unquoted. */
const PLAIN = /^[\w@%+=:,./-]+$/;

/** One word: as it is when plain, else in single quotes (a quote in it as `'\''`). */
export function shellWord(word: string): string {
  if (PLAIN.test(word)) return word;
  return `'${word.replaceAll("'", "'\\''")}'`;
}

/** The words joined with spaces, each quoted where the shell needs it. */
export function shellLine(argv: readonly string[]): string {
  return argv.map(shellWord).join(" ");
}
