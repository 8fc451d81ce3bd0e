import { useT } from "../../../i18n";
import { hookHeadline, hookTone, runVerdict } from "../../../state/transcript/hooks";
import type { HookItem } from "../../../state/transcript";

/**
 * Hooks that ran at one moment of a turn, as one line: a block in the error colour, a
 * failure in the warning colour, a hook that ran and said nothing muted. Each hook's
 * command, file, time and message unfold on click.
 */
export function HookLine({ item, attached = false }: { item: HookItem; attached?: boolean }) {
  const t = useT("transcript");
  const tone = hookTone(item);
  const headline = hookHeadline(item);
  return (
    <details
      className={`hook hook--${tone}${attached ? " hook--attached" : ""}`}
      data-testid="hook-line"
      data-tone={tone}
      data-event={item.event}
    >
      <summary className="hook__summary" title={item.reason ?? headline}>
        <span className="hook__headline">{headline}</span>
      </summary>
      <ul className="hook__runs">
        {item.hooks.map((run, index) => (
          <li key={index} className="hook__run" data-testid="hook-run">
            <div className="hook__run-head">
              <code className="hook__command">{run.command}</code>
              <span className="hook__verdict">{runVerdict(run)}</span>
              <span className="hook__meta">{t("hook.meta", { ms: run.duration_ms, source: run.source })}</span>
            </div>
            {run.message && <pre className="hook__message">{run.message}</pre>}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** A tool call's hooks, right under its card. */
export function ToolHooks({ hooks }: { hooks: readonly HookItem[] | undefined }) {
  if (!hooks || hooks.length === 0) return null;
  return (
    <>
      {hooks.map((hook) => (
        <HookLine key={hook.key} item={hook} attached />
      ))}
    </>
  );
}
