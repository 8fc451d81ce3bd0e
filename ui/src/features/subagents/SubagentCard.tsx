import { useMemo, useState } from "react";

import { AlertIcon, Spinner } from "../../components/icons";
import { useChildSession, type ChildFeed } from "../../state/childSessions";
import type { SubagentView as SubagentCallView } from "../../gen/protocol";
import { useT } from "../../i18n";
import type { SubagentView, ToolItem } from "../../state/transcript";
import { AgentAnswer } from "./AgentAnswer";
import { useSubagents } from "./context";
import { AgentIcon, StateBadge, type AgentPhase } from "./StateBadge";
import { summarizeWork, type WorkStep, type WorkSummary } from "./work";

/** A task longer than this is folded to its start until asked for. */
const TASK_FOLD_CHARS = 280;

/** The agent a spawn started, from the log's record or else the call's view. */
function agentOf(tool: ToolItem, view: SubagentCallView, agents: Readonly<Record<string, SubagentView>>): SubagentView | null {
  const agentId = tool.agentId ?? (tool.status === "ok" ? view.agents[0]?.agent_id : undefined);
  if (agentId === undefined) return null;
  const line = view.agents.find((agent) => agent.agent_id === agentId);
  return (
    agents[agentId] ?? {
      agentId,
      agentType: line?.agent_type ?? view.agent_type ?? null,
      sessionId: null,
      task: view.task ?? "",
      callId: tool.callId,
      state: line?.state ?? "running",
      answer: line?.answer ?? null,
      message: line?.message ?? null,
      pendingApprovals: [],
    }
  );
}

function phaseOf(tool: ToolItem, agent: SubagentView | null): AgentPhase {
  if (agent === null) return tool.status === "error" ? "not_started" : "starting";
  if (agent.pendingApprovals.length > 0) return "needs_approval";
  return agent.state;
}

/**
 * A spawn: the subagent it started, what it was asked, how it is doing, its
 * work as it happens (read from its own session while shown) and its answer; "Open"
 * shows its whole transcript.
 */
export function SubagentCard({ tool, view }: { tool: ToolItem; view: SubagentCallView }) {
  const t = useT("subagents");
  const { agents, open } = useSubagents();
  const agent = agentOf(tool, view, agents);
  const agentType = agent?.agentType ?? view.agent_type ?? t("agent");
  const task = agent?.task || view.task || "";
  const phase = phaseOf(tool, agent);
  const working = phase === "running" || phase === "needs_approval" || phase === "starting";
  // Shown while it works; after, folded unless the user chose otherwise.
  const [workChoice, setWorkChoice] = useState<boolean | null>(null);
  const sessionId = agent?.sessionId ?? null;
  const showWork = sessionId !== null && (workChoice ?? working);
  const feed = useChildSession(sessionId, showWork);
  // Its lines say what each call is about in the current language (`t` changes with it).
  const summary = useMemo(() => summarizeWork(feed.transcript), [feed.transcript, t]);
  const answer = agent !== null && !working ? agent.answer : null;
  const work = useMemo(() => withoutAnswer(summary, answer), [summary, answer]);
  const [taskUnfolded, setTaskUnfolded] = useState(false);
  const longTask = task.length > TASK_FOLD_CHARS;

  return (
    <section
      className={`agent-card agent-card--${phase}`}
      data-testid="subagent-card"
      data-phase={phase}
      data-agent-id={agent?.agentId ?? ""}
      aria-label={t("card.label", { type: agentType })}
    >
      <header className="agent-card__header">
        <AgentIcon className="agent-card__icon" />
        <span className="agent-card__type" data-testid="subagent-type">
          {agentType}
        </span>
        {agent && (
          <code
            className="agent-card__id"
            title={t("card.idTitle", { id: agent.agentId, session: agent.sessionId ?? t("unknown") })}
          >
            {agent.agentId}
          </code>
        )}
        <StateBadge phase={phase} />
        {open !== null && agent !== null && sessionId !== null && (
          <button
            type="button"
            className="button button--small agent-card__open"
            onClick={() => open(agent.agentId)}
            title={t("card.openTitle")}
            data-testid="subagent-open"
          >
            {t("common:open")}
          </button>
        )}
      </header>
      {task !== "" && (
        <p className={`agent-card__task${longTask && !taskUnfolded ? " agent-card__task--folded" : ""}`} data-testid="subagent-task">
          {longTask && !taskUnfolded ? `${task.slice(0, TASK_FOLD_CHARS)}…` : task}
          {longTask && (
            <button type="button" className="agent-card__more" onClick={() => setTaskUnfolded((u) => !u)}>
              {taskUnfolded ? t("common:showLess") : t("common:showAll")}
            </button>
          )}
        </p>
      )}
      {phase === "not_started" && tool.output && (
        <p className="agent-card__message agent-card__message--error" data-testid="subagent-message">
          <AlertIcon className="agent-card__message-icon" />
          {tool.output}
        </p>
      )}
      {sessionId !== null && (
        <WorkSection
          feed={feed}
          shown={showWork}
          steps={work.steps}
          earlier={work.earlier}
          toolCalls={work.toolCalls}
          working={working}
          onToggle={() => setWorkChoice(!showWork)}
        />
      )}
      {agent !== null && answer && (
        <section className="agent-card__answer">
          <h4 className="agent-card__label">{agent.state === "finished" ? t("card.answer") : t("card.lastAnswer")}</h4>
          <AgentAnswer answer={answer} agentType={agentType} />
        </section>
      )}
      {agent?.message && (
        <p
          className={`agent-card__message${agent.state === "failed" ? " agent-card__message--error" : ""}`}
          data-testid="subagent-message"
        >
          {agent.state === "failed" && <AlertIcon className="agent-card__message-icon" />}
          {agent.message}
        </p>
      )}
    </section>
  );
}

/** Its work without its final words when the answer below says them already. */
function withoutAnswer(work: WorkSummary, answer: string | null): WorkSummary {
  const last = work.steps[work.steps.length - 1];
  if (answer === null || last?.kind !== "text") return work;
  const said = (text: string) => text.replace(/\s+/g, " ").trim();
  const lastText = said(last.text).replace(/^\u2026/, "");
  return said(answer).endsWith(lastText) ? { ...work, steps: work.steps.slice(0, -1) } : work;
}

function WorkSection({
  feed,
  shown,
  steps,
  earlier,
  toolCalls,
  working,
  onToggle,
}: {
  feed: ChildFeed;
  shown: boolean;
  steps: WorkStep[];
  earlier: number;
  toolCalls: number;
  working: boolean;
  onToggle: () => void;
}) {
  const t = useT("subagents");
  // Counts are known once the child's session was read.
  const counted = !feed.loading && feed.error === null;
  const label = counted && toolCalls > 0 ? t("work.labelCounted", { count: toolCalls }) : t("work.label");
  return (
    <div className="agent-card__work">
      <button type="button" className="agent-card__toggle" aria-expanded={shown} onClick={onToggle} data-testid="subagent-work-toggle">
        {label}
      </button>
      {shown && (
        <div className="agent-work" data-testid="subagent-work">
          {feed.error !== null ? (
            <p className="agent-work__note agent-work__note--error">{t("work.error", { error: feed.error })}</p>
          ) : feed.loading ? (
            <p className="agent-work__note">
              <Spinner /> {t("work.loading")}
            </p>
          ) : steps.length === 0 ? (
            <p className="agent-work__note">
              {working ? (
                <>
                  <Spinner /> {t("work.thinking")}
                </>
              ) : (
                t("work.nothing")
              )}
            </p>
          ) : (
            <ol className="agent-work__steps">
              {earlier > 0 && (
                <li className="agent-work__earlier">{t("work.earlier", { count: earlier })}</li>
              )}
              {steps.map((step) => (
                <WorkLine key={step.key} step={step} />
              ))}
            </ol>
          )}
        </div>
      )}
    </div>
  );
}

function WorkLine({ step }: { step: WorkStep }) {
  const t = useT("subagents");
  switch (step.kind) {
    case "tool":
      return (
        <li className={`agent-work__step agent-work__step--${step.status}`} data-testid="subagent-step" data-tool={step.name}>
          <span className="agent-work__dot" aria-hidden="true" />
          <span className="agent-work__tool">{step.name}</span>
          <span className="agent-work__subject" title={step.subject}>
            {step.subject}
          </span>
          {step.status === "waiting" && <span className="agent-work__flag">{t("transcript:status.waiting")}</span>}
          {step.status === "error" && <span className="agent-work__flag agent-work__flag--error">{t("common:error")}</span>}
        </li>
      );
    case "text":
      return (
        <li className={`agent-work__text${step.streaming ? " agent-work__text--streaming" : ""}`} data-testid="subagent-text">
          {step.text}
        </li>
      );
    case "input":
      return (
        <li className="agent-work__input" title={t("work.moreInput")}>
          ↳ {step.text}
        </li>
      );
    case "error":
      return <li className="agent-work__error">{step.text}</li>;
  }
}
