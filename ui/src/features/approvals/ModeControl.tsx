import { useContext, useState } from "react";

import { ConfirmDialog } from "../../components/ConfirmDialog";
import { IconOnlyContext } from "../../components/iconOnly";
import { AlertIcon, ShieldIcon } from "../../components/icons";
import type { ApprovalMode } from "../../gen/protocol";
import { MODE_EFFECTS, MODE_NAMES, MODES } from "../../state/approvalModes";

import "./approvals.css";

interface ModeControlProps {
  /** The mode in force (the open session's, or the next session's); null while unknown. */
  mode: ApprovalMode | null;
  /** Whether it applies to an open session (else to the next one). */
  live: boolean;
  onChange: (mode: ApprovalMode) => void;
  /** Why the mode shown is the built-in default: config.toml could not be read. */
  problem?: string | null;
}

/**
 * The approval mode in the header. Dangerous mode, where commands run without asking, is
 * only entered through a confirmation, and is shown in red while it is on.
 */
export function ModeControl({ mode, live, onChange, problem = null }: ModeControlProps) {
  const [confirming, setConfirming] = useState(false);
  // In a crowded header the shield alone; the mode's name is in the tooltip and the select.
  const iconOnly = useContext(IconOnlyContext);
  if (mode === null) return null;
  const choose = (next: ApprovalMode) => {
    if (next === mode) return;
    if (next === "dangerous") setConfirming(true);
    else onChange(next);
  };
  const Icon = mode === "dangerous" ? AlertIcon : ShieldIcon;
  return (
    <>
      <label
        className={`mode-pill mode-pill--${mode}${iconOnly ? " mode-pill--icon" : ""}`}
        title={
          `${MODE_NAMES[mode]}: ${MODE_EFFECTS[mode]}${live ? "" : " (for the next session)"}` +
          (problem === null ? "" : `\nconfig.toml could not be read, so this is the built-in default. ${problem}`)
        }
        data-testid="approval-mode"
        data-mode={mode}
        data-problem={problem === null ? undefined : "config"}
      >
        <Icon className="mode-pill__icon" />
        {/* The visible name; the select lies over the whole pill, invisible, so the pill is as
            wide as the mode it shows rather than its longest option. */}
        {!iconOnly && <span className="mode-pill__name">{MODE_NAMES[mode]}</span>}
        <select
          className="mode-pill__select"
          aria-label={live ? "Approval mode of this session" : "Approval mode of the next session"}
          data-testid="approval-mode-select"
          value={mode}
          onChange={(event) => choose(event.target.value as ApprovalMode)}
        >
          {MODES.map((m) => (
            <option key={m} value={m}>
              {MODE_NAMES[m]}
            </option>
          ))}
        </select>
      </label>
      {confirming && (
        <ConfirmDialog
          title="Turn on dangerous mode?"
          message={`${MODE_EFFECTS.dangerous} The agent can change and delete files and run any command in this folder without you seeing it first.${live ? " It applies to this session from its next call." : " It applies to the next session."}`}
          confirmLabel="Turn on dangerous mode"
          cancelLabel="Keep asking"
          danger
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            onChange("dangerous");
          }}
        />
      )}
    </>
  );
}
