import type { ApprovalMode } from "../gen/protocol";
import { t } from "../i18n";

/** A mode's name, in the page's language. */
export function modeName(mode: ApprovalMode): string {
  return t(`approvals:mode.name.${mode}`);
}

/** What each mode does, in the words the header menu, settings and the transcript use. */
export function modeEffect(mode: ApprovalMode): string {
  return t(`approvals:mode.effect.${mode}`);
}

export const MODES: readonly ApprovalMode[] = ["auto", "strict", "dangerous"];
