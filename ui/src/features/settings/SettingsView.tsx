import { useCallback, useState } from "react";

import { ConfirmDialog } from "../../components/ConfirmDialog";
import { useEscape } from "../../components/escapeStack";
import { useT } from "../../i18n";
import { folderName } from "../../state/workspaces";
import { FileEditorPage } from "./FileEditorPage";
import { ProvidersPage } from "./ProvidersPage";
import { SkillsPage } from "./SkillsPage";
import { TrustPage } from "../trust/TrustPage";
import { ApprovalsPage } from "../approvals/ApprovalsPage";
import { McpPage } from "../mcp/McpPage";
import { ExternalAgentsPage } from "../externalAgents/ExternalAgentsPage";
import { PluginsPage } from "../plugins/PluginsPage";
import { NotificationsPage } from "../notifications/NotificationsPage";
import { AppearancePage } from "../appearance/AppearancePage";
import { useProviderSettings } from "./useProviderSettings";

import "./settings.css";

export type SettingsSection =
  | "providers"
  | "soul"
  | "instructions"
  | "skills"
  | "mcp"
  | "externalAgents"
  | "plugins"
  | "approvals"
  | "trust"
  | "notifications"
  | "appearance";

interface SettingsViewProps {
  /** The open folder: its instructions and project skills are offered. */
  cwd: string | null;
  initialSection?: SettingsSection;
  onClose: () => void;
  /** config.toml changed: the header and the sidebar read providers again. */
  onProvidersChanged: () => void;
  /** The Memo home, which the window's own preferences are kept per. */
  scope?: string | null;
  /** Memo's data folder (AppInfo.memo_home), named in labels; null until known. */
  memoHome?: string | null;
}

interface Section {
  id: SettingsSection;
  label: string;
  hint: string;
}

/**
 * Settings as a full view (Providers, SOUL.md, the folder's instructions, Skills). Leaving
 * a page with unsaved text asks first; Esc closes when nothing would be lost.
 */
export function SettingsView({
  cwd,
  initialSection = "providers",
  onClose,
  onProvidersChanged,
  scope = null,
  memoHome = null,
}: SettingsViewProps) {
  const [section, setSection] = useState<SettingsSection>(initialSection);
  const [dirty, setDirty] = useState(false);
  const [pending, setPending] = useState<(() => void) | null>(null);
  const providers = useProviderSettings(onProvidersChanged);
  const t = useT("settings");

  const sections: Section[] = [
    { id: "providers", label: t("nav.providers.label"), hint: t("nav.providers.hint") },
    { id: "soul", label: t("nav.soul.label"), hint: t("nav.soul.hint") },
    ...(cwd ? [{ id: "instructions" as const, label: t("nav.instructions.label"), hint: t("nav.instructions.hint", { folder: folderName(cwd) }) }] : []),
    { id: "skills", label: t("nav.skills.label"), hint: t("nav.skills.hint") },
    { id: "mcp", label: t("nav.mcp.label"), hint: t("nav.mcp.hint") },
    { id: "externalAgents", label: t("nav.externalAgents.label"), hint: t("nav.externalAgents.hint") },
    { id: "plugins", label: t("nav.plugins.label"), hint: t("nav.plugins.hint") },
    { id: "approvals", label: t("nav.approvals.label"), hint: t("nav.approvals.hint") },
    { id: "trust", label: t("nav.trust.label"), hint: t("nav.trust.hint") },
    { id: "notifications", label: t("nav.notifications.label"), hint: t("nav.notifications.hint") },
    { id: "appearance", label: t("nav.appearance.label"), hint: t("nav.appearance.hint") },
  ];

  /** Runs `action` now, or after the person agrees to drop unsaved text. */
  const guarded = useCallback(
    (action: () => void) => {
      if (dirty) setPending(() => action);
      else action();
    },
    [dirty],
  );

  const go = (next: SettingsSection) => {
    if (next !== section) guarded(() => {
      setDirty(false);
      setSection(next);
    });
  };
  const close = useCallback(() => guarded(onClose), [guarded, onClose]);

  // A dialog opened inside Settings (this one, or a page's) is a later Esc layer and takes
  // the key first. In the code editor Esc is the editor's: closing there would be a surprise.
  useEscape((event) => {
    if (!(event.target instanceof HTMLElement && event.target.closest(".cm-editor"))) close();
  });

  return (
    <div className="settings" data-testid="settings-view">
      <nav className="settings__nav" aria-label={t("sectionsLabel")}>
        <div className="settings__nav-head">
          <h1 className="settings__title">{t("title")}</h1>
          <button type="button" className="button button--quiet" onClick={close} data-testid="settings-close">
            {t("common:done")}
          </button>
        </div>
        {sections.map((s) => (
          <button
            key={s.id}
            type="button"
            className={`settings__nav-item${s.id === section ? " settings__nav-item--active" : ""}`}
            aria-current={s.id === section ? "page" : undefined}
            onClick={() => go(s.id)}
            data-testid={`settings-nav-${s.id}`}
          >
            <span className="settings__nav-label">{s.label}</span>
            <span className="settings__nav-hint">{s.hint}</span>
          </button>
        ))}
      </nav>
      <section className="settings__content">
        {section === "providers" && <ProvidersPage controller={providers} />}
        {section === "soul" && (
          <FileEditorPage
            key="soul"
            kind="soul"
            cwd={null}
            title={t("nav.soul.label")}
            lead={t("soulLead")}
            onDirtyChange={setDirty}
          />
        )}
        {section === "instructions" && cwd && (
          <FileEditorPage
            key={`instructions:${cwd}`}
            kind="project_instructions"
            cwd={cwd}
            title={t("nav.instructions.label")}
            lead={t("instructionsLead")}
            onDirtyChange={setDirty}
          />
        )}
        {section === "skills" && <SkillsPage cwd={cwd} memoHome={memoHome} onDirtyChange={setDirty} />}
        {section === "mcp" && <McpPage cwd={cwd} />}
        {section === "externalAgents" && <ExternalAgentsPage />}
        {section === "plugins" && <PluginsPage />}
        {section === "approvals" && <ApprovalsPage cwd={cwd} />}
        {section === "trust" && <TrustPage />}
        {section === "notifications" && <NotificationsPage scope={scope} />}
        {section === "appearance" && <AppearancePage />}
      </section>
      {pending !== null && (
        <ConfirmDialog
          title={t("discard.title")}
          message={t("discard.leaving")}
          confirmLabel={t("discard.confirm")}
          cancelLabel={t("discard.keepEditing")}
          danger
          onCancel={() => setPending(null)}
          onConfirm={() => {
            const action = pending;
            setPending(null);
            setDirty(false);
            action();
          }}
        />
      )}
    </div>
  );
}
