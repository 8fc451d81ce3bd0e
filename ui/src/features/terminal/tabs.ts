// The terminal panel's tabs as plain state and a reducer, so the rules (which tab becomes
// active when one closes, how tabs are numbered) are tested without a DOM or xterm.

import { t } from "../../i18n";

export type TabStatus = "starting" | "running" | "exited" | "failed";

export interface TerminalTab {
  /** Stable React key and handle; never reused within a panel. */
  key: number;
  /** "Terminal N": the lowest number no open tab has, as editors number untitled files. */
  number: number;
  /** The title the shell set (OSC 0/2), if any. */
  title: string | null;
  status: TabStatus;
  /** Of the last exit; null while running or when a signal ended the shell. */
  exitCode: number | null;
}

export interface TabsState {
  tabs: TerminalTab[];
  active: number | null;
  nextKey: number;
}

export type TabsAction =
  | { type: "add" }
  | { type: "close"; key: number }
  | { type: "activate"; key: number }
  | { type: "cycle"; by: 1 | -1 }
  | { type: "title"; key: number; title: string }
  | { type: "status"; key: number; status: TabStatus; exitCode?: number | null };

export const initialTabs: TabsState = { tabs: [], active: null, nextKey: 1 };

function lowestFreeNumber(tabs: readonly TerminalTab[]): number {
  const used = new Set(tabs.map((t) => t.number));
  let n = 1;
  while (used.has(n)) n += 1;
  return n;
}

function update(state: TabsState, key: number, change: (tab: TerminalTab) => TerminalTab): TabsState {
  let changed = false;
  const tabs = state.tabs.map((tab) => {
    if (tab.key !== key) return tab;
    const next = change(tab);
    changed ||= next !== tab;
    return next;
  });
  return changed ? { ...state, tabs } : state;
}

export function tabsReducer(state: TabsState, action: TabsAction): TabsState {
  switch (action.type) {
    case "add": {
      const tab: TerminalTab = {
        key: state.nextKey,
        number: lowestFreeNumber(state.tabs),
        title: null,
        status: "starting",
        exitCode: null,
      };
      return { tabs: [...state.tabs, tab], active: tab.key, nextKey: state.nextKey + 1 };
    }
    case "close": {
      const index = state.tabs.findIndex((t) => t.key === action.key);
      if (index < 0) return state;
      const tabs = state.tabs.filter((t) => t.key !== action.key);
      if (state.active !== action.key) return { ...state, tabs };
      // The neighbour that slides into the closed tab's place, else the one before it.
      const next = tabs[index] ?? tabs[index - 1] ?? null;
      return { ...state, tabs, active: next?.key ?? null };
    }
    case "activate":
      return state.tabs.some((t) => t.key === action.key) && state.active !== action.key
        ? { ...state, active: action.key }
        : state;
    case "cycle": {
      if (state.tabs.length < 2) return state;
      const index = state.tabs.findIndex((t) => t.key === state.active);
      const next = state.tabs[(index + action.by + state.tabs.length) % state.tabs.length];
      return next ? { ...state, active: next.key } : state;
    }
    case "title": {
      const title = action.title.trim() || null;
      return update(state, action.key, (tab) => (tab.title === title ? tab : { ...tab, title }));
    }
    case "status": {
      const exitCode = action.status === "exited" ? (action.exitCode ?? null) : null;
      // A restarted shell sets its own title again.
      const title = (tab: TerminalTab) => (action.status === "starting" ? null : tab.title);
      return update(state, action.key, (tab) =>
        tab.status === action.status && tab.exitCode === exitCode && tab.title === title(tab)
          ? tab
          : { ...tab, status: action.status, exitCode, title: title(tab) },
      );
    }
  }
}

/** What a tab is called in its tab strip. */
export function tabLabel(tab: TerminalTab): string {
  return tab.title ?? t("terminal:panel.tab", { n: tab.number });
}
