import { useContext, useState } from "react";

import { ConfirmDialog } from "../../components/ConfirmDialog";
import { IconOnlyContext } from "../../components/iconOnly";
import { AlertIcon, ShieldIcon } from "../../components/icons";
import type { ApprovalMode } from "../../gen/protocol";
import { useT } from "../../i18n";
import { MODES } from "../../state/approvalModes";

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
  const t = useT("approvals");
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
  const name = (m: ApprovalMode) => t(`mode.name.${m}`);
  const effect = (m: ApprovalMode) => t(`mode.effect.${m}`);
  const says = t(live ? "mode.title" : "mode.titleNext", { name: name(mode), effect: effect(mode) });
  return (
    <>
      <label
        className={`mode-pill mode-pill--${mode}${iconOnly ? " mode-pill--icon" : ""}`}
        title={problem === null ? says : `${says}\n${t("mode.problem", { problem })}`}
        data-testid="approval-mode"
        data-mode={mode}
        data-problem={problem === null ? undefined : "config"}
      >
        <Icon className="mode-pill__icon" />
        {/* The visible name; the select lies over the whole pill, invisible, so the pill is as
            wide as the mode it shows rather than its longest option. */}
        {!iconOnly && <span className="mode-pill__name">{name(mode)}</span>}
        <select
          className="mode-pill__select"
          aria-label={live ? t("mode.selectLive") : t("mode.selectNext")}
          data-testid="approval-mode-select"
          value={mode}
          onChange={(event) => choose(event.target.value as ApprovalMode)}
        >
          {MODES.map((m) => (
            <option key={m} value={m}>
              {name(m)}
            </option>
          ))}
        </select>
      </label>
      {confirming && (
        <ConfirmDialog
          title={t("mode.turnOn.title")}
          message={t(live ? "mode.turnOn.messageLive" : "mode.turnOn.messageNext", { effect: effect("dangerous") })}
          confirmLabel={t("mode.turnOn.confirm")}
          cancelLabel={t("mode.keepAsking")}
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
