import { useEffect, useMemo, useRef } from "react";
import { Trans } from "react-i18next";

import { useEscape } from "../../components/escapeStack";
import { useT } from "../../i18n";
import { ipc } from "../../ipc";
import { useChildSession } from "../../state/childSessions";
import type { SubagentView as Agent } from "../../state/transcript";
import { useStickToBottom } from "../../state/useStickToBottom";
import { Transcript } from "../chat/transcript/Transcript";
import { ReadOutputContext } from "../chat/transcript/wholeOutput";
import { WatchCommandContext } from "../terminal/watch";
import { AgentAnswer } from "./AgentAnswer";
import { AgentIcon, StateBadge } from "./StateBadge";

interface SubagentViewProps {
  agent: Agent;
  /** The conversation that started it, to go back to. */
  parentTitle: string;
  onBack: () => void;
  /** Answers its approval questions (through the parent, which passes them on). */
}

/**
 * A subagent's whole transcript in place of its parent's conversation, read-only: it
 * takes its instructions from the agent that started it, not from the user. The parent
 * goes on meanwhile; Back (or Escape) returns to it.
 */
export function SubagentView({ agent, parentTitle, onBack }: SubagentViewProps) {
  const t = useT("subagents");
  const feed = useChildSession(agent.sessionId, true);
  const { ref: scrollRef, element: scroller, pinned, scrollToBottom } = useStickToBottom();
  const sessionId = agent.sessionId;
  const readOutput = useMemo(
    () => (sessionId === null ? null : (seq: number) => ipc.toolOutput({ sessionId, seq })),
    [sessionId],
  );
  const back = useRef<HTMLButtonElement>(null);
  // An Esc layer like the drawers and dialogs: one opened over this view closes first.
  useEscape(onBack);
  useEffect(() => back.current?.focus(), []);
  const phase = agent.pendingApprovals.length > 0 ? "needs_approval" : agent.state;
  const typeName = agent.agentType ?? t("agent");
  const hasEntries = feed.transcript.entries.length > 0;

  return (
    <div
      className="subagent-view"
      data-testid="subagent-view"
      data-agent-id={agent.agentId}
    >
      <div className="subagent-view__bar">
        <button
          type="button"
          className="button button--small subagent-view__back"
          onClick={onBack}
          ref={back}
          title={t("view.backTitle", { title: parentTitle })}
          data-testid="subagent-back"
        >
          ← {t("common:back")}
        </button>
        <AgentIcon className="subagent-view__icon" />
        <h2 className="subagent-view__title" data-testid="subagent-title">
          <Trans
            t={t}
            i18nKey="view.title"
            values={{ type: typeName, id: agent.agentId }}
            components={{ code: <code title={t("view.sessionTitle", { session: sessionId ?? t("unknown") })} /> }}
          />
        </h2>
        <StateBadge phase={phase} />
        <span className="subagent-view__parent" title={parentTitle}>
          {t("view.startedBy", { title: parentTitle })}
        </span>
      </div>
      <div className="chat__body subagent-view__body" ref={scrollRef}>
        {feed.error !== null ? (
          <p className="subagent-view__note subagent-view__note--error">{t("view.error", { error: feed.error })}</p>
        ) : !hasEntries ? (
          <p className="chat__loading">{feed.loading ? t("view.loading") : t("view.notStarted")}</p>
        ) : (
          <ReadOutputContext.Provider value={readOutput}>
            {/* Its commands run in its own session: the terminal panel watches the parent's. */}
            <WatchCommandContext.Provider value={null}>
              <Transcript transcript={feed.transcript} scroller={scroller} pinned={pinned} />
            </WatchCommandContext.Provider>
          </ReadOutputContext.Provider>
        )}
        {agent.state !== "running" && agent.answer && hasEntries && !lastTextIs(feed.transcript.entries, agent.answer) && (
          // The investigator's report is not a message of its transcript: shown after it.
          <section className="subagent-view__report">
            <h3 className="agent-card__label">{t("view.report")}</h3>
            <AgentAnswer answer={agent.answer} agentType={agent.agentType} />
          </section>
        )}
      </div>
      {!pinned && hasEntries && (
        <button type="button" className="jump-latest jump-latest--low" onClick={scrollToBottom}>
          ↓ {t("view.latest")}
        </button>
      )}
      <p className="subagent-view__footer">
        {t("view.footer")}
      </p>
    </div>
  );
}

/** Whether the transcript's last answer text is `answer` (already shown, no need to repeat it). */
function lastTextIs(entries: ReturnType<typeof useChildSession>["transcript"]["entries"], answer: string): boolean {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry?.kind !== "turn") continue;
    const text = [...entry.items].reverse().find((item) => item.kind === "text");
    // A logged answer is cut when long: its start is enough to recognise it.
    return text?.kind === "text" && text.text.trim().startsWith(answer.trim().slice(0, 200));
  }
  return false;
}
