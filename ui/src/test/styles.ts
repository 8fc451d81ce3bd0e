// Style sheets put into a jsdom document, so a test can see what a rule does to an element
// (vitest hands CSS imports over empty, even ?raw).

// The UI has no Node types, so the module is named at run time.
const fs: { readFileSync(path: URL, encoding: "utf8"): string } = await import(/* @vite-ignore */ `node:${"fs"}`);

/**
 * The text of a style sheet, `path` from the module at `base` (its `import.meta.url`).
 * Resolved here: vite rewrites a literal `new URL("./x.css", import.meta.url)` in a test.
 */
export function readSheet(base: string, path: string): string {
  return fs.readFileSync(new URL(path, base), "utf8");
}

/** Adds the sheets to the document; returns the removal. */
export function useSheets(base: string, ...paths: string[]): () => void {
  const style = document.createElement("style");
  style.textContent = paths.map((path) => readSheet(base, path)).join("\n");
  document.head.append(style);
  return () => style.remove();
}
