// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import { SEARCH_MARK_END as E, SEARCH_MARK_START as S, type SearchResult, type SessionSummary } from "../../gen/protocol";
import { SearchResults, splitSnippet } from "./SearchResults";
import { SessionList } from "./SessionList";
import { sessionSummary } from "../../test/fixtures";

afterEach(cleanup);

const SESSION: SessionSummary = sessionSummary({ title: "Parser work", cwd: "/w", last_seq: 9 });
const HIT: SearchResult = { session: SESSION, seq: 4, role: "assistant", snippet: `the ${S}parser${E} lives in ${S}src${E}`, timestamp_ms: 0 };

describe("splitSnippet", () => {
  it("splits at the marks and drops unpaired ones", () => {
    expect(splitSnippet(`a ${S}b${E} c`)).toEqual([
      { text: "a ", marked: false },
      { text: "b", marked: true },
      { text: " c", marked: false },
    ]);
    expect(splitSnippet(`${S}x${E}`)).toEqual([{ text: "x", marked: true }]);
    expect(splitSnippet(`cut ${S}off`)).toEqual([{ text: "cut off", marked: false }]);
    expect(splitSnippet("plain")).toEqual([{ text: "plain", marked: false }]);
  });
});

describe("SearchResults", () => {
  it("searches after a pause and shows matches marked, opening one on click", async () => {
    const search = vi.fn(async () => [HIT]);
    const onOpen = vi.fn();
    render(<SearchResults query="parser" search={search} onOpen={onOpen} />);
    expect(screen.getByText("Searching…")).toBeTruthy();
    const result = await screen.findByTestId("search-result");
    expect(search).toHaveBeenCalledTimes(1);
    expect(search).toHaveBeenCalledWith("parser");
    expect([...result.querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["parser", "src"]);
    expect(result.textContent).toContain("Parser work");
    fireEvent.click(result);
    expect(onOpen).toHaveBeenCalledWith(HIT);
  });

  it("says when nothing matches, and shows a failure's message", async () => {
    const { rerender } = render(<SearchResults query="zzz" search={async () => []} onOpen={vi.fn()} />);
    expect((await screen.findByTestId("search-empty")).textContent).toBe("Nothing matches “zzz”.");
    rerender(<SearchResults query="bad" search={async () => Promise.reject(new Error("syntax error"))} onOpen={vi.fn()} />);
    expect(await screen.findByText("syntax error")).toBeTruthy();
  });
});

describe("SessionList search box", () => {
  /** The list of one session, whose search finds HIT. */
  const renderList = (onOpenResult?: (result: SearchResult) => void) =>
    render(
      <SessionList
        folderOpen
        sessions={{ status: "ready", value: [SESSION] }}
        activeId={null}
        onOpen={vi.fn()}
        onNew={vi.fn()}
        onRename={vi.fn(async () => undefined)}
        onDelete={vi.fn(async () => undefined)}
        search={async () => [HIT]}
        onOpenResult={onOpenResult}
      />,
    );

  it("replaces the list with results while there is a query; Esc brings the list back", async () => {
    const onOpenResult = vi.fn();
    renderList(onOpenResult);
    const box = screen.getByTestId("session-search");
    fireEvent.change(box, { target: { value: "parser" } });
    expect(screen.queryByTestId("session-list")).toBeNull();
    fireEvent.click(await screen.findByTestId("search-result"));
    expect(onOpenResult).toHaveBeenCalledWith(HIT);
    // Opening a result clears the search.
    await waitFor(() => expect(screen.getByTestId("session-list")).toBeTruthy());
    fireEvent.change(box, { target: { value: "again" } });
    expect(screen.queryByTestId("session-list")).toBeNull();
    fireEvent.keyDown(box, { key: "Escape" });
    expect(screen.getByTestId("session-list")).toBeTruthy();
  });

  it("shows its own clear button only while there is a query, and the button clears it", () => {
    renderList();
    const box = screen.getByTestId<HTMLInputElement>("session-search");
    expect(screen.queryByTestId("session-search-clear")).toBeNull();
    fireEvent.change(box, { target: { value: "parser" } });
    fireEvent.click(screen.getByRole("button", { name: "Clear the search" }));
    expect(box.value).toBe("");
    expect(screen.getByTestId("session-list")).toBeTruthy();
    expect(screen.queryByTestId("session-search-clear")).toBeNull();
  });
});
