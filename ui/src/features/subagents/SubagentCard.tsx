import { useMemo, useState } from "react";

import { AlertIcon, Spinner } from "../../components/icons";
import { useChildSession, type ChildFeed } from "../../state/childSessions";
import type { SubagentView as SubagentCallView } from "../../gen/protocol";
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
  const { agents, open } = useSubagents();
  const agent = agentOf(tool, view, agents);
  const agentType = agent?.agentType ?? view.agent_type ?? "agent";
  const task = agent?.task || view.task || "";
  const phase = phaseOf(tool, agent);
  const working = phase === "running" || phase === "needs_approval" || phase === "starting";
  // Shown while it works; after, folded unless the user chose otherwise.
  const [workChoice, setWorkChoice] = useState<boolean | null>(null);
  const sessionId = agent?.sessionId ?? null;
  const showWork = sessionId !== null && (workChoice ?? working);
  const feed = useChildSession(sessionId, showWork);
  const summary = useMemo(() => summarizeWork(feed.transcript), [feed.transcript]);
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
      aria-label={`Subagent ${agentType}`}
    >
      <header className="agent-card__header">
        <AgentIcon className="agent-card__icon" />
        <span className="agent-card__type" data-testid="subagent-type">
          {agentType}
        </span>
        {agent && (
          <code className="agent-card__id" title={`Agent id ${agent.agentId} (session ${agent.sessionId ?? "unknown"})`}>
            {agent.agentId}
          </code>
        )}
        <StateBadge phase={phase} />
        {open !== null && agent !== null && sessionId !== null && (
          <button
            type="button"
            className="button button--small agent-card__open"
            onClick={() => open(agent.agentId)}
            title="Show this subagent's whole transcript"
            data-testid="subagent-open"
          >
            Open
          </button>
        )}
      </header>
      {task !== "" && (
        <p className={`agent-card__task${longTask && !taskUnfolded ? " agent-card__task--folded" : ""}`} data-testid="subagent-task">
          {longTask && !taskUnfolded ? `${task.slice(0, TASK_FOLD_CHARS)}…` : task}
          {longTask && (
            <button type="button" className="agent-card__more" onClick={() => setTaskUnfolded((u) => !u)}>
              {taskUnfolded ? "Show less" : "Show all"}
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
          <h4 className="agent-card__label">{agent.state === "finished" ? "Answer" : "Last answer"}</h4>
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
  // Counts are known once the child's session was read.
  const counted = !feed.loading && feed.error === null;
  const label = counted && toolCalls > 0 ? `Work · ${toolCalls} tool ${toolCalls === 1 ? "call" : "calls"}` : "Work";
  return (
    <div className="agent-card__work">
      <button type="button" className="agent-card__toggle" aria-expanded={shown} onClick={onToggle} data-testid="subagent-work-toggle">
        {label}
      </button>
      {shown && (
        <div className="agent-work" data-testid="subagent-work">
          {feed.error !== null ? (
            <p className="agent-work__note agent-work__note--error">Could not read its work: {feed.error}</p>
          ) : feed.loading ? (
            <p className="agent-work__note">
              <Spinner /> Reading its work…
            </p>
          ) : steps.length === 0 ? (
            <p className="agent-work__note">{working ? <><Spinner /> Thinking…</> : "It did nothing."}</p>
          ) : (
            <ol className="agent-work__steps">
              {earlier > 0 && (
                <li className="agent-work__earlier">
                  {earlier} earlier {earlier === 1 ? "step" : "steps"}
                </li>
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
  switch (step.kind) {
    case "tool":
      return (
        <li className={`agent-work__step agent-work__step--${step.status}`} data-testid="subagent-step" data-tool={step.name}>
          <span className="agent-work__dot" aria-hidden="true" />
          <span className="agent-work__tool">{step.name}</span>
          <span className="agent-work__subject" title={step.subject}>
            {step.subject}
          </span>
          {step.status === "waiting" && <span className="agent-work__flag">waiting for approval</span>}
          {step.status === "error" && <span className="agent-work__flag agent-work__flag--error">error</span>}
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
        <li className="agent-work__input" title="More input from the agent that started it">
          ↳ {step.text}
        </li>
      );
    case "error":
      return <li className="agent-work__error">{step.text}</li>;
  }
}
