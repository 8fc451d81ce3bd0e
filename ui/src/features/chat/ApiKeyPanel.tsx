import { useEffect, useState, type FormEvent } from "react";
import { Trans } from "react-i18next";

import type { KeyStatus } from "../../gen/protocol";
import { useT } from "../../i18n";

export interface KeyActions {
  status: (provider: string) => Promise<KeyStatus>;
  save: (provider: string, key: string) => Promise<KeyStatus>;
  remove: (provider: string) => Promise<KeyStatus>;
}

interface ApiKeyPanelProps {
  provider: string;
  actions: KeyActions;
  /** Closes the panel; `saved` when a key was just stored. */
  onClose: (saved: boolean) => void;
}

type T = ReturnType<typeof useT>;

/** The engine's name for a key kept in the keychain. */
const KEYCHAIN = "OS keychain";

/** Where a key comes from, as the engine names it ("OS keychain", "environment variable X"). */
function sourceName(source: string, t: T): string {
  if (source === KEYCHAIN) return t("apiKey.sourceKeychain");
  const variable = /^environment variable (\S+)$/.exec(source)?.[1];
  return variable === undefined ? source : t("apiKey.sourceEnv", { name: variable });
}

function describe(status: KeyStatus, t: T): string {
  if (status.source) return t("apiKey.comesFrom", { source: sourceName(status.source, t) });
  if (!status.required) return t("apiKey.notNeeded");
  if (status.keychain_error) return t("apiKey.keychainUnreadable", { error: status.keychain_error });
  return t("apiKey.none");
}

/**
 * Stores a provider's API key in the OS keychain. The field is write-only: the app never
 * reads a key back, it only says where one comes from.
 */
export function ApiKeyPanel({ provider, actions, onClose }: ApiKeyPanelProps) {
  const t = useT("chat");
  const [status, setStatus] = useState<KeyStatus | null>(null);
  const [key, setKey] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    actions.status(provider).then(
      (found) => current && setStatus(found),
      (raised: unknown) => current && setError(raised instanceof Error ? raised.message : String(raised)),
    );
    return () => {
      current = false;
    };
  }, [actions, provider]);

  const run = async (work: () => Promise<KeyStatus>, closeAfter: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const next = await work();
      setStatus(next);
      setKey("");
      if (closeAfter) onClose(true);
    } catch (raised) {
      setError(raised instanceof Error ? raised.message : String(raised));
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (key.trim() === "") return;
    void run(() => actions.save(provider, key), true);
  };

  return (
    <section className="key-panel" aria-label={t("apiKey.label", { provider })} data-testid="api-key-panel">
      <form className="key-panel__form" onSubmit={submit}>
        <label className="key-panel__label" htmlFor="api-key-input">
          <Trans t={t} i18nKey="apiKey.labelMarked" values={{ provider }} components={{ strong: <strong /> }} />
        </label>
        <p className="key-panel__status" data-testid="api-key-status">
          {status ? describe(status, t) : error ? "" : t("apiKey.checking")}
        </p>
        <div className="key-panel__row">
          <input
            id="api-key-input"
            className="input key-panel__input"
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder={t("apiKey.placeholder")}
            value={key}
            disabled={busy}
            onChange={(event) => setKey(event.target.value)}
            data-testid="api-key-input"
            autoFocus
          />
          <button type="submit" className="button button--primary" disabled={busy || key.trim() === ""}>
            {t("apiKey.save")}
          </button>
        </div>
        {error && (
          <p className="key-panel__error" role="alert" data-testid="api-key-error">
            {error}
          </p>
        )}
        <div className="key-panel__footer">
          <span className="key-panel__hint">{t("apiKey.hint")}</span>
          {status?.source === KEYCHAIN && (
            <button type="button" className="button button--quiet" disabled={busy} onClick={() => void run(() => actions.remove(provider), false)}>
              {t("apiKey.remove")}
            </button>
          )}
          <button type="button" className="button button--quiet" onClick={() => onClose(false)}>
            {t("common:close")}
          </button>
        </div>
      </form>
    </section>
  );
}
