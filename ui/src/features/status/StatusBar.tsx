import type { AppInfoState } from "../../state/appInfo";

interface StatusBarProps {
  state: AppInfoState;
  onRetry: () => void;
}

export function StatusBar({ state, onRetry }: StatusBarProps) {
  return (
    <footer className="status-bar" data-testid="status-bar" role="status">
      {state.status === "loading" && (
        <span className="status-bar__item" data-testid="status-loading">
          Loading…
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
              Retry
            </button>
          )}
        </>
      )}

      {state.status === "ready" && (
        <>
          <span className="status-bar__item">
            <span className="status-dot" aria-hidden="true" />
            Memo <span data-testid="status-version">v{state.info.version}</span>
          </span>
          <span className="status-bar__item status-bar__path" title="Memo home (MEMO_HOME)">
            <span className="status-bar__label">Home</span>
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
