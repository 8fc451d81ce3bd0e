import { useEffect, useState } from "react";

import { SEARCH_MARK_END, SEARCH_MARK_START, type SearchResult } from "../../gen/protocol";
import { formatWhen } from "../../format";
import { useT } from "../../i18n";
import { sessionLabel } from "./label";

/** Waits this long after the last keystroke before searching. */
const DEBOUNCE_MS = 200;

export interface SnippetPart {
  text: string;
  marked: boolean;
}

/** Splits a snippet at the marks Rust put around matched terms. */
export function splitSnippet(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let rest = snippet;
  while (rest.length > 0) {
    const start = rest.indexOf(SEARCH_MARK_START);
    if (start < 0) break;
    const end = rest.indexOf(SEARCH_MARK_END, start + 1);
    if (end < 0) break;
    if (start > 0) parts.push({ text: rest.slice(0, start), marked: false });
    parts.push({ text: rest.slice(start + SEARCH_MARK_START.length, end), marked: true });
    rest = rest.slice(end + SEARCH_MARK_END.length);
  }
  // What is left, with any unpaired mark dropped rather than shown as a box.
  const tail = rest.split(SEARCH_MARK_START).join("").split(SEARCH_MARK_END).join("");
  if (tail.length > 0) parts.push({ text: tail, marked: false });
  return parts;
}

type SearchState =
  | { status: "searching" }
  | { status: "done"; results: SearchResult[] }
  | { status: "error"; message: string };

/** The roles a hit's line names in words; another role shows as Rust spells it. */
const ROLES: ReadonlySet<string> = new Set(["user", "assistant", "tool"]);

interface SearchResultsProps {
  query: string;
  search: (text: string) => Promise<SearchResult[]>;
  onOpen: (result: SearchResult) => void;
}

/** Matches of `query` across the folder's sessions; a click opens the session there. */
export function SearchResults({ query, search, onOpen }: SearchResultsProps) {
  const t = useT("sessions");
  const [state, setState] = useState<SearchState>({ status: "searching" });

  useEffect(() => {
    let current = true;
    setState({ status: "searching" });
    const timer = window.setTimeout(() => {
      search(query).then(
        (results) => current && setState({ status: "done", results }),
        (raised: unknown) =>
          current && setState({ status: "error", message: raised instanceof Error ? raised.message : String(raised) }),
      );
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [query, search]);

  if (state.status === "searching") {
    return <p className="sidebar__hint">{t("search.searching")}</p>;
  }
  if (state.status === "error") {
    return (
      <p className="sidebar__error" role="alert">
        {state.message}
      </p>
    );
  }
  if (state.results.length === 0) {
    return (
      <p className="sidebar__hint" data-testid="search-empty">
        {t("search.nothing", { query })}
      </p>
    );
  }
  return (
    <ul className="nav-list" data-testid="search-results">
      {state.results.map((result) => (
        <li key={`${result.session.id}:${result.seq}:${result.role}`} className="nav-item">
          <button
            type="button"
            className="nav-item__main nav-item__main--session"
            data-testid="search-result"
            onClick={() => onOpen(result)}
          >
            <span className="nav-item__label">{sessionLabel(result.session)}</span>
            <span className="search-hit__snippet">
              {splitSnippet(result.snippet).map((part, i) =>
                part.marked ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>,
              )}
            </span>
            <span className="nav-item__meta">
              {ROLES.has(result.role) ? t(`search.role.${result.role}`) : result.role} · {formatWhen(result.timestamp_ms)}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
