import { useState } from "react";

import { AlertIcon, CheckIcon, Spinner } from "../../components/icons";
import type { SubagentView, ToolItem } from "../../state/transcript";
import { AgentAnswer } from "./AgentAnswer";
import { argumentIds, jsonObject, parseReport, resultAgents, shortAgentId, waitTimedOut, type AgentStatus } from "./collab";
import { useSubagents } from "./context";
import { StateBadge } from "./StateBadge";

/** Answers shorter than this are shown whole in a row; longer ones unfold. */
const SHORT_ANSWER_CHARS = 160;

type Agents = Readonly<Record<string, SubagentView>>;

/** "reviewer (agent-3f9a…)", or just the id for an agent this transcript never saw start. */
function agentName(agents: Agents, agentId: string): string {
  const type = agents[agentId]?.agentType;
  return type ? `${type} (${shortAgentId(agentId)})` : agentId;
}

function names(agents: Agents, ids: readonly string[]): string {
  return ids.map((id) => agentName(agents, id)).join(", ");
}

/** The headline of each collab call: what it was about, and what came of it. */
function describe(tool: ToolItem, agents: Agents, listed: AgentStatus[] | null): { subject: string; outcome: string } {
  const ids = argumentIds(tool.args);
  const running = tool.status === "running";
  switch (tool.name) {
    case "wait": {
      const subject = ids.length > 0 ? `for ${names(agents, ids)}` : "for every subagent";
      if (running) return { subject, outcome: "waiting" };
      const done = listed?.filter((agent) => agent.state !== "running").length ?? 0;
      return { subject, outcome: waitTimedOut(tool.output) ? `timed out · ${done} of ${listed?.length ?? 0} done` : "all done" };
    }
    case "send_input":
      return { subject: `to ${names(agents, ids)}`, outcome: running ? "sending" : "sent" };
    case "close_agent":
      return { subject: names(agents, ids), outcome: running ? "closing" : "closed" };
    default: {
      const count = listed?.length ?? 0;
      return { subject: running ? "" : `${count} ${count === 1 ? "subagent" : "subagents"}`, outcome: running ? "listing" : "listed" };
    }
  }
}

/**
 * `wait`, `send_input`, `close_agent` and `list_agents`: one line saying what the call
 * did, and the agents it reports on with their states and answers (not the JSON).
 */
export function CollabCard({ tool }: { tool: ToolItem }) {
  const { agents, open } = useSubagents();
  const listed = tool.status === "ok" ? resultAgents(tool.output) : null;
  const { subject, outcome } = describe(tool, agents, listed);
  const failed = tool.status === "error";
  const message = tool.name === "send_input" ? (jsonObject(tool.args)?.message ?? null) : null;
  return (
    <section className={`tool collab collab--${tool.status} tool--${tool.status}`} data-testid="collab-card" data-tool={tool.name} data-status={tool.status}>
      <header className="collab__header">
        <span className="tool__icon">{failed ? <AlertIcon /> : tool.status === "running" ? <Spinner /> : <CheckIcon />}</span>
        <span className="tool__name">{tool.name}</span>
        {subject && (
          <span className="collab__subject" title={subject}>
            {subject}
          </span>
        )}
        <span className="collab__outcome" data-testid="collab-outcome">
          {failed ? (tool.errorKind ?? "error").replace(/_/g, " ") : outcome}
        </span>
      </header>
      {typeof message === "string" && message !== "" && <blockquote className="collab__message">{message}</blockquote>}
      {failed && tool.output && <p className="collab__error">{tool.output}</p>}
      {listed !== null && listed.length > 0 && tool.name !== "send_input" && tool.name !== "close_agent" && (
        <ul className="collab__agents">
          {listed.map((status) => (
            <AgentRow key={status.agentId} status={status} known={agents[status.agentId]} onOpen={open} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** Markdown's marks taken out of a line of preview (the unfolded answer renders them). */
function plainText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/(\*\*|__)(.*?)\1/g, "$2")
    .replace(/^#{1,6}\s+/gm, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
}

function AgentRow({
  status,
  known,
  onOpen,
}: {
  status: AgentStatus;
  known: SubagentView | undefined;
  onOpen: ((agentId: string) => void) | null;
}) {
  const [unfolded, setUnfolded] = useState(false);
  const agentType = status.agentType ?? known?.agentType ?? null;
  // A report reads as its summary until unfolded; the preview is plain text.
  const preview = status.answer === null ? null : plainText(parseReport(status.answer)?.summary ?? status.answer);
  const long = status.answer !== null && (preview !== status.answer || status.answer.length > SHORT_ANSWER_CHARS);
  return (
    <li className="collab__agent" data-testid="collab-agent" data-agent-id={status.agentId}>
      <div className="collab__agent-head">
        <StateBadge phase={status.state ?? "running"} />
        <span className="collab__agent-type">{agentType ?? "agent"}</span>
        <code className="collab__agent-id">{status.agentId}</code>
        {onOpen !== null && known?.sessionId && (
          <button type="button" className="collab__open" onClick={() => onOpen(status.agentId)}>
            Open
          </button>
        )}
      </div>
      {status.answer !== null &&
        (unfolded ? (
          <AgentAnswer answer={status.answer} agentType={agentType} />
        ) : (
          <p className="collab__answer" data-testid="collab-answer">
            {preview}
          </p>
        ))}
      {long && (
        <button type="button" className="collab__more" onClick={() => setUnfolded((u) => !u)}>
          {unfolded ? "Show less" : "Show the whole answer"}
        </button>
      )}
      {status.message && <p className="collab__note">{status.message}</p>}
    </li>
  );
}
