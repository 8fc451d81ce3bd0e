import { AlertIcon } from "../../components/icons";
import type { ProviderSummary } from "../../gen/protocol";
import type { Loadable } from "../../state/useLoadable";

const EXAMPLE = `current_provider = "openai"

[[providers.openai]]
name = "openai"
model = "gpt-4.1"
env_api_key = "OPENAI_API_KEY"`;

interface ProviderBannerProps {
  providers: Loadable<ProviderSummary[]>;
  /** Where config.toml lives, when known. */
  configPath: string | null;
  onReload: () => void;
}

/**
 * Says why no model can be reached and how to fix it; nothing when providers are fine.
 * Config errors carry file:line:key, which is exactly what the user needs to see.
 */
export function ProviderBanner({ providers, configPath, onReload }: ProviderBannerProps) {
  const file = configPath ?? "~/.memo/config.toml";
  if (providers.status === "error") {
    const isConfig = providers.error.code === "config";
    return (
      <div className="banner banner--error" role="alert" data-testid="config-banner">
        <AlertIcon className="banner__icon" />
        <div className="banner__content">
          <strong className="banner__title">
            {isConfig ? "Memo's configuration has a problem" : "Could not read the model providers"}
          </strong>
          <pre className="banner__detail" data-testid="config-error">
            {providers.error.message}
          </pre>
          <p className="banner__hint">
            {isConfig ? (
              <>
                Fix <code>{file}</code>, then reload. Sessions cannot start until it loads.
              </>
            ) : (
              "Try again; if it keeps failing, the log has details."
            )}
          </p>
        </div>
        <button type="button" className="button banner__action" onClick={onReload}>
          Reload
        </button>
      </div>
    );
  }
  if (providers.status === "ready" && providers.value.length === 0) {
    return (
      <div className="banner banner--warning" role="alert" data-testid="config-banner">
        <AlertIcon className="banner__icon" />
        <div className="banner__content">
          <strong className="banner__title">No model provider configured</strong>
          <p className="banner__hint">
            Add one to <code>{file}</code>, for example:
          </p>
          <pre className="banner__detail">{EXAMPLE}</pre>
          <p className="banner__hint">
            Keys come from the OS keychain or the variable named by <code>env_api_key</code>; local servers on
            127.0.0.1 need none.
          </p>
        </div>
        <button type="button" className="button banner__action" onClick={onReload}>
          Reload
        </button>
      </div>
    );
  }
  return null;
}
