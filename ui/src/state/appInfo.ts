import type { AppInfo } from "../gen/protocol";
import type { IpcError } from "../ipc";

/** What the UI knows about the running app; loaded once at start-up. */
export type AppInfoState =
  | { status: "loading" }
  | { status: "ready"; info: AppInfo }
  | { status: "error"; error: IpcError };

export type AppInfoAction =
  | { type: "requested" }
  | { type: "loaded"; info: AppInfo }
  | { type: "failed"; error: IpcError };

export const initialAppInfoState: AppInfoState = { status: "loading" };

export function appInfoReducer(state: AppInfoState, action: AppInfoAction): AppInfoState {
  switch (action.type) {
    case "requested":
      // A retry keeps showing the last good info rather than flashing back to "loading".
      return state.status === "ready" ? state : { status: "loading" };
    case "loaded":
      return { status: "ready", info: action.info };
    case "failed":
      return { status: "error", error: action.error };
  }
}

/**
 * A path inside Memo's home (AppInfo.memo_home), with the home's own separator (Windows
 * resolves it with backslashes). Labels use it instead of `~/.memo`, which is wrong
 * whenever MEMO_HOME points elsewhere.
 */
export function memoPath(home: string, ...parts: string[]): string {
  const separator = home.includes("\\") && !home.includes("/") ? "\\" : "/";
  const base = home.endsWith(separator) ? home.slice(0, -1) : home;
  return [base, ...parts].join(separator);
}
