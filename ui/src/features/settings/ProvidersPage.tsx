import { useState } from "react";
import { Trans } from "react-i18next";

import { ConfirmDialog } from "../../components/ConfirmDialog";
import type { ProviderSettings, ProviderSettingsPage } from "../../gen/protocol";
import { t as translate, useT } from "../../i18n";
import { ipc, toIpcError } from "../../ipc";
import { keySourceText } from "./presets";
import { ProviderForm } from "./ProviderForm";
import type { ProviderSave, ProviderSettingsController } from "./useProviderSettings";
import { PageHeader } from "../../components/PageHeader";

interface ProvidersPageProps {
  controller: ProviderSettingsController;
}

type Editing = { kind: "none" } | { kind: "new" } | { kind: "edit"; name: string };

function keyLabel(p: ProviderSettings): { text: string; tone: "ok" | "warn" | "muted" } {
  if (p.key.source) return { text: translate("settings:providers.key.stored", { source: keySourceText(p.key.source) }), tone: "ok" };
  if (!p.key.required) return { text: translate("settings:providers.key.notNeeded"), tone: "muted" };
  if (p.key.keychain_error) return { text: translate("settings:providers.key.keychainUnavailable"), tone: "warn" };
  return { text: translate("settings:providers.key.none"), tone: "warn" };
}

function profileOf(page: ProviderSettingsPage, p: ProviderSettings) {
  const exact = page.model_profiles.find((m) => m.key === `${p.name}:${p.model}`);
  return (exact ?? page.model_profiles.find((m) => m.key === p.model))?.profile ?? null;
}

/** Settings → Providers: config.toml's providers, each editable, one current. */
export function ProvidersPage({ controller }: ProvidersPageProps) {
  const [editing, setEditing] = useState<Editing>({ kind: "none" });
  const [removing, setRemoving] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [opening, setOpening] = useState(false);
  const { state } = controller;
  const t = useT("settings");
  // A form starts from config.toml as it is now, with its current revision: a save from a
  // page read long ago would only meet "changed on disk" (or put back what changed there).
  const open = async (next: Editing) => {
    setError(null);
    setOpening(true);
    try {
      if (await controller.reload()) setEditing(next);
    } finally {
      setOpening(false);
    }
  };

  if (state.status === "loading") {
    return <p className="settings__loading">{t("providers.reading")}</p>;
  }
  if (state.status === "error") {
    return (
      <div className="settings-error" role="alert" data-testid="settings-config-error">
        <strong>{t("providers.configBroken")}</strong>
        <pre>{state.error.message}</pre>
        <p>{t("providers.configBrokenHelp")}</p>
        {editing.kind !== "none" && <p data-testid="providers-form-closed">{t("providers.formClosed")}</p>}
        <button type="button" className="button" onClick={controller.reload}>
          {t("reload")}
        </button>
      </div>
    );
  }
  const { page } = state;
  const names = page.providers.map((p) => p.name);
  // The form stays open when the key could not be stored: it says why there.
  const saveAndClose = async (request: ProviderSave) => {
    const outcome = await controller.save(request);
    if (outcome.keyError === null) setEditing({ kind: "none" });
    // Saved under a new name: the form stays on it.
    else if (editing.kind === "edit") setEditing({ kind: "edit", name: request.provider.name });
    return outcome;
  };
  // The provider being edited left config.toml (removed or renamed on disk).
  const lost = editing.kind === "edit" && !names.includes(editing.name) ? editing.name : null;
  const act = async (run: () => Promise<void>) => {
    setError(null);
    try {
      await run();
    } catch (raised) {
      const failure = toIpcError("update_providers", raised);
      setError(failure.message);
      if (failure.code === "conflict") void controller.reload();
    }
  };

  return (
    <div className="settings-page" data-testid="providers-page">
      <PageHeader title={t("providers.title")} lead={<Trans t={t} i18nKey="providers.lead" values={{ path: page.config_path }} components={{ code: <code /> }} />}>
        {editing.kind === "none" && (
          <button
            type="button"
            className="button button--primary"
            onClick={() => void open({ kind: "new" })}
            disabled={opening}
            data-testid="provider-add"
          >
            {t("providers.add")}
          </button>
        )}
      </PageHeader>
      {error && (
        <p className="form-error" role="alert" data-testid="providers-error">
          {error}
        </p>
      )}
      {lost !== null && (
        <p className="form-error" role="alert" data-testid="providers-lost">
          {t("providers.lost", { name: lost })}{" "}
          <button type="button" className="button button--small" onClick={() => setEditing({ kind: "none" })}>
            {t("providers.ok")}
          </button>
        </p>
      )}
      {page.warnings.map((warning) => (
        // Applied anyway, but worth fixing in the file: said with where it is.
        <p key={warning} className="form-hint" data-testid="providers-warning">
          {warning}
        </p>
      ))}
      {editing.kind === "new" && (
        <div className="settings-card">
          <h3 className="settings-card__title">{t("providers.newTitle")}</h3>
          <ProviderForm
            existing={null}
            profile={null}
            takenNames={names}
            onSave={saveAndClose}
            onCancel={() => setEditing({ kind: "none" })}
            onReload={controller.reload}
          />
        </div>
      )}
      {page.providers.length === 0 && editing.kind !== "new" && (
        <p className="settings__empty">{t("providers.empty")}</p>
      )}
      <ul className="provider-list">
        {page.providers.map((p) => {
          const key = keyLabel(p);
          if (editing.kind === "edit" && editing.name === p.name) {
            return (
              // One key whatever the name: a rename saved with the form open keeps the form
              // (and what it says). Names never hold a space, so no row shares it.
              <li key="provider form" className="settings-card">
                <h3 className="settings-card__title provider-row__name" title={p.name}>
                  {t("providers.editTitle", { name: p.name })}
                </h3>
                <ProviderForm
                  existing={p}
                  profile={profileOf(page, p)}
                  takenNames={names}
                  onSave={saveAndClose}
                  onCancel={() => setEditing({ kind: "none" })}
                  onReload={controller.reload}
                />
              </li>
            );
          }
          return (
            <li key={p.name} className="provider-row" data-testid="provider-row" data-name={p.name}>
              <div className="provider-row__main">
                <div className="provider-row__title">
                  <strong className="provider-row__name" title={p.name}>
                    {p.name}
                  </strong>
                  {p.is_current && <span className="badge badge--accent">{t("providers.current")}</span>}
                  <span className="badge">{p.api}</span>
                </div>
                <div className="provider-row__detail">
                  <span className="provider-row__model" title={p.model}>
                    {p.model}
                  </span>
                  <span className="provider-row__url" title={p.effective_base_url}>
                    {p.effective_base_url}
                  </span>
                </div>
                <span className={`provider-row__key provider-row__key--${key.tone}`}>{key.text}</span>
              </div>
              <div className="provider-row__actions">
                {!p.is_current && (
                  <button
                    type="button"
                    className="button button--small"
                    onClick={() => act(() => controller.change({ type: "make_current", name: p.name }))}
                  >
                    {t("providers.useForNew")}
                  </button>
                )}
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => void open({ kind: "edit", name: p.name })}
                  disabled={opening}
                  data-testid="provider-edit"
                >
                  {t("common:edit")}
                </button>
                <button type="button" className="button button--small button--danger" onClick={() => setRemoving(p.name)}>
                  {t("common:remove")}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      {removing !== null && (
        <ConfirmDialog
          title={t("providers.removeTitle", { name: removing })}
          message={t("providers.removeMessage")}
          confirmLabel={t("common:remove")}
          danger
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            const name = removing;
            setRemoving(null);
            void act(async () => {
              // The key goes first: it is looked up by the provider's entry.
              const provider = page.providers.find((p) => p.name === name);
              if (provider?.key.source === "OS keychain") await ipc.deleteApiKey({ provider: name });
              await controller.change({ type: "remove", name });
            });
          }}
        />
      )}
    </div>
  );
}
