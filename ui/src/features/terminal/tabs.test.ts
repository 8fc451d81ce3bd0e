import { describe, expect, it } from "vitest";

import { setUpI18n } from "../../i18n";
import { initialTabs, tabLabel, tabsReducer, type TabsAction, type TabsState } from "./tabs";

function run(...actions: TabsAction[]): TabsState {
  return actions.reduce(tabsReducer, initialTabs);
}

describe("terminal tabs", () => {
  it("adds tabs numbered from 1 and activates the new one", () => {
    const state = run({ type: "add" }, { type: "add" });
    expect(state.tabs.map(tabLabel)).toEqual(["Terminal 1", "Terminal 2"]);
    expect(state.active).toBe(state.tabs[1]?.key);
    expect(state.tabs.every((t) => t.status === "starting")).toBe(true);
  });

  it("reuses the lowest free number but never a key", () => {
    const state = run({ type: "add" }, { type: "add" }, { type: "close", key: 1 }, { type: "add" });
    expect(state.tabs.map((t) => [t.key, t.number])).toEqual([
      [2, 2],
      [3, 1],
    ]);
  });

  it("closing the active tab activates its right neighbour, else the left one", () => {
    let state = run({ type: "add" }, { type: "add" }, { type: "add" }, { type: "activate", key: 2 });
    state = tabsReducer(state, { type: "close", key: 2 });
    expect(state.active).toBe(3);
    state = tabsReducer(state, { type: "close", key: 3 });
    expect(state.active).toBe(1);
    state = tabsReducer(state, { type: "close", key: 1 });
    expect(state).toMatchObject({ tabs: [], active: null });
  });

  it("closing an inactive tab keeps the active one", () => {
    const state = run({ type: "add" }, { type: "add" }, { type: "close", key: 1 });
    expect(state.active).toBe(2);
  });

  it("ignores unknown keys", () => {
    const state = run({ type: "add" });
    expect(tabsReducer(state, { type: "close", key: 9 })).toBe(state);
    expect(tabsReducer(state, { type: "activate", key: 9 })).toBe(state);
    expect(tabsReducer(state, { type: "title", key: 9, title: "x" })).toBe(state);
  });

  it("cycles through tabs in both directions, wrapping around", () => {
    let state = run({ type: "add" }, { type: "add" }, { type: "add" });
    state = tabsReducer(state, { type: "cycle", by: 1 });
    expect(state.active).toBe(1);
    state = tabsReducer(state, { type: "cycle", by: -1 });
    expect(state.active).toBe(3);
  });

  it("names an untitled tab in the page's language", async () => {
    const state = run({ type: "add" });
    try {
      await setUpI18n("zh");
      expect(tabLabel(state.tabs[0]!)).toBe("终端 1");
    } finally {
      setUpI18n("en");
    }
    expect(tabLabel(state.tabs[0]!)).toBe("Terminal 1");
  });

  it("shows the shell's title, and forgets it on restart", () => {
    let state = run({ type: "add" }, { type: "title", key: 1, title: "ada@box: ~/src" });
    expect(tabLabel(state.tabs[0]!)).toBe("ada@box: ~/src");
    state = tabsReducer(state, { type: "title", key: 1, title: "  " });
    expect(tabLabel(state.tabs[0]!)).toBe("Terminal 1");
    state = tabsReducer(state, { type: "title", key: 1, title: "vim" });
    state = tabsReducer(state, { type: "status", key: 1, status: "starting" });
    expect(state.tabs[0]?.title).toBeNull();
  });

  it("records the exit code only for an exit", () => {
    let state = run({ type: "add" }, { type: "status", key: 1, status: "exited", exitCode: 3 });
    expect(state.tabs[0]).toMatchObject({ status: "exited", exitCode: 3 });
    state = tabsReducer(state, { type: "status", key: 1, status: "running", exitCode: 5 });
    expect(state.tabs[0]).toMatchObject({ status: "running", exitCode: null });
    expect(tabsReducer(state, { type: "status", key: 1, status: "running" })).toBe(state);
  });
});
