// Syntax colours for diff lines, from the same Lezer grammars as code blocks in answers.
// Each hunk is highlighted as two texts, its old side and its new side, rather than line by
// line: a line inside a block comment or a multi-line string only colours right in context.
import { LanguageDescription } from "@codemirror/language";
import { languages } from "@codemirror/language-data";
import { useEffect, useMemo, useReducer } from "react";

import { highlight, loadedParser, loadParser, type CodeToken } from "../../features/chat/markdown/highlight";
import type { DiffRow, ParsedDiff } from "./parse";

export type { CodeToken };

/** Past this many lines a diff shows plain text: parsing it would hold up the first paint. */
export const HIGHLIGHT_MAX_LINES = 5000;

const byName = new Map<string, LanguageDescription | null>();

/** The grammar for a file, by its name (Makefile, Dockerfile) or extension; null for plain text. */
export function languageForPath(path: string): LanguageDescription | null {
  const name = path.split(/[\\/]/).pop() ?? path;
  const cached = byName.get(name);
  if (cached !== undefined) return cached;
  const found = LanguageDescription.matchFilename(languages, name);
  byName.set(name, found);
  return found;
}

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

function highlightRows(rows: readonly DiffRow[], language: LanguageDescription, into: Map<DiffRow, CodeToken[]>) {
  const parser = loadedParser(language);
  if (parser === null) return;
  const oldRows = rows.filter((row) => row.kind === "context" || row.kind === "del");
  const newRows = rows.filter((row) => row.kind === "context" || row.kind === "add");
  const side = (sideRows: DiffRow[]) =>
    tokensByLine(highlight(sideRows.map((row) => row.text).join("\n"), parser, language.name));
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
  const hunkLanguages = useMemo(
    () => parsed.hunks.map((hunk) => (tooLarge ? null : languageForPath(hunk.path))),
    [parsed, tooLarge],
  );
  // Grammars are kept on their LanguageDescription once loaded; this only re-renders then.
  const [loaded, grammarLoaded] = useReducer((count: number) => count + 1, 0);

  useEffect(() => {
    const pending = [...new Set(hunkLanguages)].filter(
      (language): language is LanguageDescription => language !== null && loadedParser(language) === null,
    );
    if (pending.length === 0) return;
    let live = true;
    for (const language of pending) {
      void loadParser(language).then((parser) => {
        if (live && parser) grammarLoaded();
      });
    }
    return () => {
      live = false;
    };
  }, [hunkLanguages]);

  return useMemo(() => {
    // `loaded` changes when a grammar arrives; the parsers themselves live outside React.
    void loaded;
    const tokens = new Map<DiffRow, CodeToken[]>();
    parsed.hunks.forEach((hunk, i) => {
      const language = hunkLanguages[i];
      if (language) highlightRows(hunk.rows, language, tokens);
    });
    return tokens;
  }, [parsed, hunkLanguages, loaded]);
}
