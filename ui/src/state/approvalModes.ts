import type { ApprovalMode } from "../gen/protocol";

export const MODE_NAMES: Record<ApprovalMode, string> = {
  auto: "Auto",
  strict: "Strict",
  dangerous: "Dangerous",
};

/** What each mode does, in the words the header menu, settings and the transcript use. */
export const MODE_EFFECTS: Record<ApprovalMode, string> = {
  auto: "Reads run; an edit asks once and can then be allowed for the session; commands ask every time unless a kept rule allows them. Critical commands always ask.",
  strict: "Every edit and command asks, every time. Kept allow rules are not used.",
  dangerous: "Edits and commands run without asking; only critical commands ask. Deny rules still apply.",
};

export const MODES: readonly ApprovalMode[] = ["auto", "strict", "dangerous"];
