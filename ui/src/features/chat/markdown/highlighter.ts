// The syntax highlighter (./highlight: CodeMirror's language support, Lezer, the list of
// grammars) is loaded when the first code block or diff needs it, not at start-up: most of
// the time Memo shows no code at all, and the module is among the largest the page has.
// Until it is there, code shows as plain text, as it does while a grammar loads.

type Highlighter = typeof import("./highlight");

let loaded: Highlighter | null = null;
let loading: Promise<Highlighter> | null = null;

/** The highlighter if it has loaded, else null. */
export function highlighter(): Highlighter | null {
  return loaded;
}

/**
 * Loads the highlighter once; every caller gets the same module. A failed load (the chunk
 * could not be read) may be tried again by the next caller.
 */
export function loadHighlighter(): Promise<Highlighter> {
  loading ??= import("./highlight").then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}
