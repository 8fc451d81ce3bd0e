import { useEffect, useState, type FormEvent } from "react";

import type { KeyStatus } from "../../gen/protocol";

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

function describe(status: KeyStatus): string {
  if (status.source) return `The key comes from the ${status.source}.`;
  if (!status.required) return "This provider runs on this machine and needs no key.";
  if (status.keychain_error) return `No key found; the keychain could not be read (${status.keychain_error}).`;
  return "No key is stored yet.";
}

/**
 * Stores a provider's API key in the OS keychain. The field is write-only: the app never
 * reads a key back, it only says where one comes from.
 */
export function ApiKeyPanel({ provider, actions, onClose }: ApiKeyPanelProps) {
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
    <section className="key-panel" aria-label={`API key for ${provider}`} data-testid="api-key-panel">
      <form className="key-panel__form" onSubmit={submit}>
        <label className="key-panel__label" htmlFor="api-key-input">
          API key for <strong>{provider}</strong>
        </label>
        <p className="key-panel__status" data-testid="api-key-status">
          {status ? describe(status) : error ? "" : "Checking…"}
        </p>
        <div className="key-panel__row">
          <input
            id="api-key-input"
            className="input key-panel__input"
            type="password"
            autoComplete="off"
            spellCheck={false}
            placeholder="Paste the key"
            value={key}
            disabled={busy}
            onChange={(event) => setKey(event.target.value)}
            data-testid="api-key-input"
            autoFocus
          />
          <button type="submit" className="button button--primary" disabled={busy || key.trim() === ""}>
            Save to keychain
          </button>
        </div>
        {error && (
          <p className="key-panel__error" role="alert" data-testid="api-key-error">
            {error}
          </p>
        )}
        <div className="key-panel__footer">
          <span className="key-panel__hint">Stored in the OS keychain, never in config.toml or logs.</span>
          {status?.source === "OS keychain" && (
            <button type="button" className="button button--quiet" disabled={busy} onClick={() => void run(() => actions.remove(provider), false)}>
              Remove stored key
            </button>
          )}
          <button type="button" className="button button--quiet" onClick={() => onClose(false)}>
            Close
          </button>
        </div>
      </form>
    </section>
  );
}
