import type { SessionSummary } from "../../gen/protocol";
import { sessionTitle } from "../../state/sessionTitles";

/** A session's name in the sidebar: its stored title, else the one remembered locally. */
export function sessionLabel(session: SessionSummary): string {
  return session.title ?? sessionTitle(window.localStorage, session.id) ?? "Untitled session";
}
