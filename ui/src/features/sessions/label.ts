import type { SessionSummary } from "../../gen/protocol";
import { t } from "../../i18n";

/** A session's name in the sidebar: its title, else its first message (both from Rust). */
export function sessionLabel(session: SessionSummary): string {
  return session.title ?? session.preview ?? t("sessions:untitled");
}
