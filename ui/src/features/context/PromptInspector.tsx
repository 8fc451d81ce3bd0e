import { useEffect, useState } from "react";
import { Trans } from "react-i18next";

import { useEscape } from "../../components/escapeStack";
import { CloseIcon } from "../../components/icons";
import { PathTail } from "../../components/PathTail";
import type { PromptLayer, PromptReport, SourceStatus } from "../../gen/protocol";
import { t as translate, useT } from "../../i18n";
import { IpcError, ipc, toIpcError } from "../../ipc";
import { shortTokens } from "./ContextMeter";

interface PromptInspectorProps {
  /** The open session (its own prompt), or else the folder a new session would start in. */
  sessionId: string | null;
  cwd: string | null;
  /** Read again when this changes (a turn ended, a file was saved). */
  refreshKey: unknown;
  onClose: () => void;
}

/** What a source's status adds to its line: a key in the catalogs, or nothing. */
const STATUS_NOTE: Record<SourceStatus, string | null> = {
  loaded: null,
  trimmed: "source.trimmed",
  missing: "source.missing",
  empty: "source.empty",
  untrusted: "source.untrusted",
};

/** What the model sees: each layer of the system prompt with its sources, size and text. */
export function PromptInspector({ sessionId, cwd, refreshKey, onClose }: PromptInspectorProps) {
  const t = useT("context");
  const [report, setReport] = useState<PromptReport | null>(null);
  const [error, setError] = useState<IpcError | null>(null);
  // Esc closes the drawer, unless a dialog opened over it since (that one goes first).
  useEscape(onClose);

  useEffect(() => {
    let live = true;
    if (sessionId === null && cwd === null) return;
    ipc.promptLayers({ sessionId, cwd }).then(
      (next) => {
        if (!live) return;
        setReport(next);
        setError(null);
      },
      (raised: unknown) => live && setError(toIpcError("prompt_layers", raised)),
    );
    return () => {
      live = false;
    };
  }, [sessionId, cwd, refreshKey]);

  return (
    <aside className="inspector" aria-label={t("inspector.title")} data-testid="prompt-inspector">
      <header className="inspector__header">
        <div>
          <h2 className="inspector__title">{t("inspector.title")}</h2>
          {report && (
            <p className="inspector__lead">
              {report.model} · {report.token_counter}
            </p>
          )}
        </div>
        <button type="button" className="icon-button" onClick={onClose} aria-label={t("common:close")} title={t("common:close")}>
          <CloseIcon />
        </button>
      </header>
      {error && (
        <p className="form-error" role="alert">
          {error.message}
        </p>
      )}
      {report && (
        <>
          <div className="inspector__total" data-testid="prompt-total">
            <Trans
              t={t}
              i18nKey="inspector.total"
              values={{ tokens: shortTokens(report.total_tokens) }}
              components={{ strong: <strong /> }}
            />
            <span className="inspector__sub">
              {t("inspector.split", {
                system: shortTokens(report.system_tokens),
                tools: shortTokens(report.total_tokens - report.system_tokens),
              })}
            </span>
          </div>
          {report.turn_override && (
            // A hook's replacement held for one turn only: the layers below are what the
            // next turn starts from again.
            <section className="inspector__override" data-testid="prompt-override">
              <h3 className="inspector__override-title">{t("inspector.overrideTitle")}</h3>
              <p className="inspector__sub">
                {t("inspector.overrideText", { chars: report.turn_override.chars.toLocaleString("en-US") })}
              </p>
              <ol className="inspector__sources inspector__hooks">
                {report.turn_override.changed_by.map((hook, i) => (
                  <li key={`${i}:${hook.command}`} data-testid="prompt-override-hook">
                    <code className="inspector__hook-command" title={hook.command}>
                      {hook.command}
                    </code>
                    <PathTail className="inspector__source-path" path={hook.file} />
                  </li>
                ))}
              </ol>
              <details>
                <summary className="inspector__layer-head">
                  <span className="inspector__layer-title">{t("inspector.overrideContent")}</span>
                </summary>
                <pre className="inspector__content">{report.turn_override.content}</pre>
              </details>
            </section>
          )}
          <ol className="inspector__layers">
            {report.layers.map((layer) => (
              <li key={layer.kind} className="inspector__layer" data-testid="prompt-layer" data-kind={layer.kind}>
                <details>
                  <summary className="inspector__layer-head">
                    <span className="inspector__layer-title">{layerTitle(layer)}</span>
                    <span className="inspector__layer-tokens">
                      {layer.tokens > 0 ? t("inspector.tokens", { tokens: shortTokens(layer.tokens) }) : t("inspector.empty")}
                    </span>
                  </summary>
                  {layer.sources.length > 0 && (
                    <ul className="inspector__sources">
                      {layer.sources.map((source) => {
                        const note = STATUS_NOTE[source.status];
                        return (
                          <li key={source.path}>
                            <PathTail className="inspector__source-path" path={source.path} />
                            <span className="inspector__source-meta">
                              {note === null
                                ? t("inspector.tokens", { tokens: shortTokens(source.tokens) })
                                : t("inspector.sourceMeta", { note: t(note), tokens: shortTokens(source.tokens) })}
                            </span>
                          </li>
                        );
                      })}
                    </ul>
                  )}
                  {layer.content.trim() !== "" && <pre className="inspector__content">{layer.content}</pre>}
                </details>
              </li>
            ))}
          </ol>
          {report.problems.length > 0 && (
            <section className="inspector__problems">
              <h3>{t("inspector.problems")}</h3>
              <ul>
                {report.problems.map((p) => (
                  <li key={`${p.path}:${p.message}`}>
                    <Trans
                      t={t}
                      i18nKey="inspector.problem"
                      values={{ path: p.path, message: p.message }}
                      components={{ code: <code /> }}
                    />
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
    </aside>
  );
}

/** A layer's title in the window's language, from its kind (the engine's `title` is English). */
function layerTitle(layer: PromptLayer): string {
  if (layer.kind !== "tool_definitions") return translate(`context:inspector.layer.${layer.kind}`);
  return translate("context:inspector.layer.tool_definitions", { count: layer.tool_count ?? 0 });
}
