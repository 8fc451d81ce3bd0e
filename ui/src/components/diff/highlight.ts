// Syntax colours for diff lines, from the same Lezer grammars as code blocks in answers.
// Each hunk is highlighted as two texts, its old side and its new side, rather than line by
// line: a line inside a block comment or a multi-line string only colours right in context.
import type { LanguageDescription } from "@codemirror/language";
import { useEffect, useMemo, useReducer } from "react";

import type { CodeToken } from "../../features/chat/markdown/highlight";
import { highlighter, loadHighlighter } from "../../features/chat/markdown/highlighter";
import type { DiffRow, ParsedDiff } from "./parse";

export type { CodeToken };

/** Past this many lines a diff shows plain text: parsing it would hold up the first paint. */
export const HIGHLIGHT_MAX_LINES = 5000;

/** Splits highlighted runs at line breaks: entry i holds the runs of line i. */
export function tokensByLine(tokens: readonly CodeToken[]): CodeToken[][] {
  const lines: CodeToken[][] = [[]];
  for (const token of tokens) {
    const parts = token.text.split("\n");
    parts.forEach((part, i) => {
      if (i > 0) lines.push([]);
      if (part !== "") lines[lines.length - 1]?.push({ text: part, classes: token.classes });
    });
  }
  return lines;
}

type Highlighter = NonNullable<ReturnType<typeof highlighter>>;

function highlightRows(hl: Highlighter, rows: readonly DiffRow[], language: LanguageDescription, into: Map<DiffRow, CodeToken[]>) {
  const parser = hl.loadedParser(language);
  if (parser === null) return;
  const oldRows = rows.filter((row) => row.kind === "context" || row.kind === "del");
  const newRows = rows.filter((row) => row.kind === "context" || row.kind === "add");
  const side = (sideRows: DiffRow[]) =>
    tokensByLine(hl.highlight(sideRows.map((row) => row.text).join("\n"), parser, language.name));
  const oldLines = side(oldRows);
  oldRows.forEach((row, i) => into.set(row, oldLines[i] ?? []));
  // Context lines take the new side's colours; both sides agree on them anyway.
  const newLines = side(newRows);
  newRows.forEach((row, i) => into.set(row, newLines[i] ?? []));
}

/**
 * Highlighted runs per row once the grammars of the diff's files have loaded; rows not in
 * the map (still loading, unknown language, a note, a diff too large) show plain text.
 */
export function useRowTokens(parsed: ParsedDiff): ReadonlyMap<DiffRow, CodeToken[]> {
  const tooLarge = parsed.lineCount > HIGHLIGHT_MAX_LINES;
  // The highlighter and the grammars are kept outside React once loaded; `loaded` counts
  // their arrivals, so this only re-renders then.
  const [loaded, arrived] = useReducer((count: number) => count + 1, 0);
  const hl = tooLarge ? null : highlighter();
  const hunkLanguages = useMemo(
    () => parsed.hunks.map((hunk) => (hl === null ? null : hl.languageForPath(hunk.path))),
    [parsed, hl],
  );

  useEffect(() => {
    if (tooLarge || parsed.hunks.length === 0) return;
    let live = true;
    if (hl === null) {
      void loadHighlighter().then(
        () => {
          if (live) arrived();
        },
        // The chunk could not be read: the diff stays plain text.
        () => {},
      );
      return () => {
        live = false;
      };
    }
    const pending = [...new Set(hunkLanguages)].filter(
      (language): language is LanguageDescription => language !== null && hl.loadedParser(language) === null,
    );
    for (const language of pending) {
      void hl.loadParser(language).then((parser) => {
        if (live && parser) arrived();
      });
    }
    return () => {
      live = false;
    };
  }, [hl, hunkLanguages, tooLarge, parsed]);

  return useMemo(() => {
    // `loaded` changes when a grammar arrives; the parsers themselves live outside React.
    void loaded;
    const tokens = new Map<DiffRow, CodeToken[]>();
    if (hl === null) return tokens;
    parsed.hunks.forEach((hunk, i) => {
      const language = hunkLanguages[i];
      if (language) highlightRows(hl, hunk.rows, language, tokens);
    });
    return tokens;
  }, [hl, parsed, hunkLanguages, loaded]);
}
