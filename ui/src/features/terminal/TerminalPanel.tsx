// The bottom terminal panel of one workspace: a tab strip (new, close, switch) over one
// terminal per tab. Every tab stays mounted while the panel is hidden (`visible` false),
// so shells keep running and keep their scrollback; unmounting the panel closes them all.

import { useCallback, useEffect, useReducer, useRef } from "react";

import { tauriBackend } from "./backend";
import type { ConnectionStatus, TerminalBackend } from "./connection";
import { CloseIcon, PlusIcon } from "../../components/icons";
import { isImeComposing } from "../../components/ime";
import { useT } from "../../i18n";
import { ChevronDownIcon, TerminalIcon } from "./icons";
import { initialTabs, tabLabel, tabsReducer, type TerminalTab } from "./tabs";
import { TerminalView, type TabCommand } from "./TerminalView";

import "./terminal.css";

export interface TerminalPanelProps {
  /** The workspace folder: every tab's shell starts there. */
  cwd: string;
  /** False hides the panel without ending anything. Default true. */
  visible?: boolean;
  /** Asked for by the panel's hide button and when its last tab is closed. */
  onHide?: () => void;
  /** For tests; the app's IPC commands by default. */
  backend?: TerminalBackend;
}

function statusTitle(tab: TerminalTab, t: ReturnType<typeof useT>): string | undefined {
  if (tab.status === "exited") return tab.exitCode === null ? t("panel.signal") : t("panel.exited", { code: tab.exitCode });
  if (tab.status === "failed") return t("panel.failed");
  return undefined;
}

export function TerminalPanel({ cwd, visible = true, onHide, backend = tauriBackend }: TerminalPanelProps) {
  const t = useT("terminal");
  const [state, dispatch] = useReducer(tabsReducer, initialTabs);
  const { tabs, active } = state;

  // Opening the panel with no tab starts one; closing the last tab hides the panel
  // instead of starting a new one under the user's cursor.
  const wasVisible = useRef(false);
  useEffect(() => {
    if (visible && !wasVisible.current && tabs.length === 0) dispatch({ type: "add" });
    wasVisible.current = visible;
  }, [visible, tabs.length]);

  const close = useCallback(
    (key: number) => {
      if (tabs.length === 1 && tabs[0]?.key === key) onHide?.();
      dispatch({ type: "close", key });
    },
    [tabs, onHide],
  );

  const onCommand = useCallback((command: TabCommand) => {
    if (command === "new-tab") dispatch({ type: "add" });
    else dispatch({ type: "cycle", by: command === "next-tab" ? 1 : -1 });
  }, []);

  const tabRefs = useRef(new Map<number, HTMLDivElement>());
  const onTabKey = (event: React.KeyboardEvent, tab: TerminalTab) => {
    // Keys of an input method's composition are not the tab strip's.
    if (isImeComposing(event)) return;
    // Arrow keys move along the tab strip, as in any tablist.
    if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      event.preventDefault();
      const index = tabs.findIndex((t) => t.key === tab.key);
      const next = tabs[(index + (event.key === "ArrowRight" ? 1 : -1) + tabs.length) % tabs.length];
      if (next) {
        dispatch({ type: "activate", key: next.key });
        tabRefs.current.get(next.key)?.focus();
      }
    } else if (event.key === "Delete") {
      close(tab.key);
    }
  };

  return (
    <section className="terminal-panel" hidden={!visible} aria-label={t("panel.label")}>
      <header className="terminal-panel__bar">
        <div className="terminal-panel__tabs" role="tablist" aria-label={t("panel.tabs")}>
          {tabs.map((tab) => {
            const selected = tab.key === active;
            const label = tabLabel(tab);
            return (
              <div
                key={tab.key}
                ref={(el) => {
                  if (el) tabRefs.current.set(tab.key, el);
                  else tabRefs.current.delete(tab.key);
                }}
                role="tab"
                aria-selected={selected}
                tabIndex={selected ? 0 : -1}
                className={`terminal-tab${selected ? " is-active" : ""}${tab.status === "exited" || tab.status === "failed" ? " is-ended" : ""}`}
                title={statusTitle(tab, t) ?? label}
                onMouseDown={(event) => {
                  // Middle click closes, as in browsers and editors.
                  if (event.button === 1) {
                    event.preventDefault();
                    close(tab.key);
                  }
                }}
                onClick={() => dispatch({ type: "activate", key: tab.key })}
                onKeyDown={(event) => onTabKey(event, tab)}
              >
                <TerminalIcon className="terminal-tab__icon" />
                <span className="terminal-tab__label">{label}</span>
                {(tab.status === "exited" || tab.status === "failed") && (
                  <span className="terminal-tab__badge" aria-label={statusTitle(tab, t)}>
                    {tab.status === "failed" ? "!" : (tab.exitCode ?? "×")}
                  </span>
                )}
                <button
                  type="button"
                  className="terminal-tab__close"
                  aria-label={t("panel.close", { label })}
                  title={t("panel.closeTitle")}
                  tabIndex={-1}
                  onClick={(event) => {
                    event.stopPropagation();
                    close(tab.key);
                  }}
                >
                  <CloseIcon />
                </button>
              </div>
            );
          })}
          <button
            type="button"
            className="terminal-panel__button"
            aria-label={t("panel.new")}
            title={t("panel.newTitle")}
            onClick={() => dispatch({ type: "add" })}
          >
            <PlusIcon />
          </button>
        </div>
        {onHide && (
          <button
            type="button"
            className="terminal-panel__button"
            aria-label={t("panel.hide")}
            title={t("panel.hideTitle")}
            onClick={onHide}
          >
            <ChevronDownIcon />
          </button>
        )}
      </header>
      <div className="terminal-panel__body">
        {tabs.map((tab) => (
          <TerminalView
            key={tab.key}
            cwd={cwd}
            active={visible && tab.key === active}
            backend={backend}
            onStatus={(status: ConnectionStatus) =>
              dispatch({
                type: "status",
                key: tab.key,
                status: status.kind,
                exitCode: status.kind === "exited" ? status.code : null,
              })
            }
            onTitle={(title) => dispatch({ type: "title", key: tab.key, title })}
            onCommand={onCommand}
          />
        ))}
        {tabs.length === 0 && (
          <div className="terminal-panel__empty">
            <button type="button" className="button" onClick={() => dispatch({ type: "add" })}>
              <TerminalIcon className="terminal-panel__empty-icon" />
              {t("panel.new")}
            </button>
          </div>
        )}
      </div>
    </section>
  );
}
