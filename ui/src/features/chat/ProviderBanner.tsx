import { Trans } from "react-i18next";

import { AlertIcon } from "../../components/icons";
import type { ProviderSummary } from "../../gen/protocol";
import { useT } from "../../i18n";
import type { Loadable } from "../../state/useLoadable";

interface ProviderBannerProps {
  providers: Loadable<ProviderSummary[]>;
  /** Where config.toml lives, when known. */
  configPath: string | null;
  onReload: () => void;
  onOpenSettings: () => void;
}

/**
 * Says why no model can be reached and how to fix it; nothing when providers are fine (no
 * provider at all gets the first-run screen instead). Config errors carry file:line:key,
 * which is exactly what the user needs to see.
 */
export function ProviderBanner({ providers, configPath, onReload, onOpenSettings }: ProviderBannerProps) {
  const t = useT("chat");
  // Unknown until the app info arrives; never a guessed ~/.memo (MEMO_HOME may be elsewhere).
  const file = configPath ?? t("banner.configInDataFolder");
  if (providers.status === "error") {
    const isConfig = providers.error.code === "config";
    return (
      <div className="banner banner--error" role="alert" data-testid="config-banner">
        <AlertIcon className="banner__icon" />
        <div className="banner__content">
          <strong className="banner__title">
            {isConfig ? t("banner.configProblem") : t("banner.providersUnreadable")}
          </strong>
          <pre className="banner__detail" data-testid="config-error">
            {providers.error.message}
          </pre>
          <p className="banner__hint">
            {isConfig ? (
              <Trans t={t} i18nKey="banner.fixConfig" values={{ file }} components={{ code: <code /> }} />
            ) : (
              t("banner.tryAgain")
            )}
          </p>
        </div>
        <Actions onReload={onReload} onOpenSettings={isConfig ? null : onOpenSettings} />
      </div>
    );
  }
  return null;
}

/** Reload, and Settings where they can help (not while config.toml does not load). */
function Actions({ onReload, onOpenSettings }: { onReload: () => void; onOpenSettings: (() => void) | null }) {
  const t = useT("chat");
  return (
    <div className="banner__actions">
      <button type="button" className="button banner__action" onClick={onReload}>
        {t("banner.reload")}
      </button>
      {onOpenSettings && (
        <button type="button" className="button button--quiet" onClick={onOpenSettings}>
          {t("banner.settings")}
        </button>
      )}
    </div>
  );
}
