import { useT } from "../../i18n";
import type { AppInfoState } from "../../state/appInfo";

interface StatusBarProps {
  state: AppInfoState;
  onRetry: () => void;
}

export function StatusBar({ state, onRetry }: StatusBarProps) {
  const t = useT("status");
  return (
    <footer className="status-bar" data-testid="status-bar" role="status">
      {state.status === "loading" && (
        <span className="status-bar__item" data-testid="status-loading">
          {t("common:loading")}
        </span>
      )}

      {state.status === "error" && (
        <>
          <span className="status-bar__item status-bar__item--error" data-testid="status-error">
            <span className="status-dot status-dot--error" aria-hidden="true" />
            {state.error.message}
          </span>
          {state.error.retryable && (
            <button type="button" className="status-bar__retry" onClick={onRetry}>
              {t("retry")}
            </button>
          )}
        </>
      )}

      {state.status === "ready" && (
        <>
          <span className="status-bar__item">
            <span className="status-dot" aria-hidden="true" />
            {t("product")} <span data-testid="status-version">v{state.info.version}</span>
          </span>
          <span className="status-bar__item status-bar__path" title={t("homeTitle")}>
            <span className="status-bar__label">{t("home")}</span>
            <span data-testid="status-memo-home">{state.info.memo_home}</span>
          </span>
          <span className="status-bar__spacer" />
          <span className="status-bar__item" data-testid="status-engine">
            {state.info.engine}
          </span>
          <span className="status-bar__item" data-testid="status-platform">
            {state.info.platform}
          </span>
        </>
      )}
    </footer>
  );
}
