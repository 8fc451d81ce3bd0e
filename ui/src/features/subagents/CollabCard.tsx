import { useState } from "react";

import { AlertIcon, CheckIcon, Spinner } from "../../components/icons";
import type { AgentLine, SubagentView as SubagentCallView } from "../../gen/protocol";
import { t as translate, useT } from "../../i18n";
import type { SubagentView, ToolItem } from "../../state/transcript";
import { toolErrorLabel } from "../chat/transcript/toolCardParts";
import { AgentAnswer } from "./AgentAnswer";
import { parseReport, shortAgentId } from "./agents";
import { useSubagents } from "./context";
import { StateBadge } from "./StateBadge";

/** Answers shorter than this are shown whole in a row; longer ones unfold. */
const SHORT_ANSWER_CHARS = 160;

type Agents = Readonly<Record<string, SubagentView>>;

/** "reviewer (agent-3f9a…)", or just the id for an agent this transcript never saw start. */
function agentName(agents: Agents, agentId: string): string {
  const type = agents[agentId]?.agentType;
  return type ? translate("subagents:collab.agentName", { type, id: shortAgentId(agentId) }) : agentId;
}

function names(agents: Agents, ids: readonly string[]): string {
  return ids.map((id) => agentName(agents, id)).join(translate("transcript:listSeparator"));
}

/** The headline of each collab call: what it was about, and what came of it. */
function describe(view: SubagentCallView, running: boolean, agents: Agents): { subject: string; outcome: string } {
  const ids = view.agents.map((agent) => agent.agent_id);
  switch (view.action) {
    case "wait_for": {
      const subject = ids.length > 0 ? names(agents, ids) : translate("subagents:collab.everySubagent");
      if (running) return { subject, outcome: translate("subagents:collab.waiting") };
      const done = view.agents.filter((agent) => agent.state !== undefined && agent.state !== "running").length;
      return {
        subject,
        outcome: view.timed_out
          ? translate("subagents:collab.timedOut", { done, total: view.agents.length })
          : translate("subagents:collab.allDone"),
      };
    }
    case "send":
      return {
        subject: translate("subagents:collab.sendTo", { names: names(agents, ids) }),
        outcome: translate(running ? "subagents:collab.sending" : "subagents:collab.sent"),
      };
    case "close":
      return { subject: names(agents, ids), outcome: translate(running ? "subagents:collab.closing" : "subagents:collab.closed") };
    case "list":
    case "spawn": {
      const count = view.agents.length;
      return {
        subject: running ? "" : translate("subagents:collab.subagents", { count }),
        outcome: translate(running ? "subagents:collab.listing" : "subagents:collab.listed"),
      };
    }
  }
}

/**
 * A call that works with subagents already started (wait, send input, close, list): one
 * line saying what it did, and the agents it reports on with their states and answers, as
 * the engine's view of the call says.
 */
export function CollabCard({ tool, view }: { tool: ToolItem; view: SubagentCallView }) {
  const t = useT("subagents");
  const { agents, open } = useSubagents();
  const running = tool.status === "running";
  const { subject, outcome } = describe(view, running, agents);
  const failed = tool.status === "error";
  const listed = !running && !failed && (view.action === "wait_for" || view.action === "list") ? view.agents : [];
  return (
    <section className={`tool collab collab--${tool.status} tool--${tool.status}`} data-testid="collab-card" data-action={view.action} data-status={tool.status}>
      <header className="collab__header">
        <span className="tool__icon">{failed ? <AlertIcon /> : running ? <Spinner /> : <CheckIcon />}</span>
        <span className="tool__name">{t(`collab.action.${view.action}`)}</span>
        {subject && (
          <span className="collab__subject" title={subject}>
            {subject}
          </span>
        )}
        <span className="collab__outcome" data-testid="collab-outcome">
          {failed ? (tool.errorKind ? toolErrorLabel(tool.errorKind) : t("common:error")) : outcome}
        </span>
      </header>
      {view.action === "send" && view.task && <blockquote className="collab__message">{view.task}</blockquote>}
      {failed && tool.output && <p className="collab__error">{tool.output}</p>}
      {listed.length > 0 && (
        <ul className="collab__agents">
          {listed.map((line) => (
            <AgentRow key={line.agent_id} status={line} known={agents[line.agent_id]} onOpen={open} />
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
  status: AgentLine;
  known: SubagentView | undefined;
  onOpen: ((agentId: string) => void) | null;
}) {
  const t = useT("subagents");
  const [unfolded, setUnfolded] = useState(false);
  const agentType = status.agent_type ?? known?.agentType ?? null;
  const answer = status.answer ?? null;
  // A report reads as its summary until unfolded; the preview is plain text.
  const preview = answer === null ? null : plainText(parseReport(answer)?.summary ?? answer);
  const long = answer !== null && (preview !== answer || answer.length > SHORT_ANSWER_CHARS);
  return (
    <li className="collab__agent" data-testid="collab-agent" data-agent-id={status.agent_id}>
      <div className="collab__agent-head">
        <StateBadge phase={status.state ?? "running"} />
        <span className="collab__agent-type">{agentType ?? t("agent")}</span>
        <code className="collab__agent-id">{status.agent_id}</code>
        {onOpen !== null && known?.sessionId && (
          <button type="button" className="collab__open" onClick={() => onOpen(status.agent_id)}>
            {t("common:open")}
          </button>
        )}
      </div>
      {answer !== null &&
        (unfolded ? (
          <AgentAnswer answer={answer} agentType={agentType} />
        ) : (
          <p className="collab__answer" data-testid="collab-answer">
            {preview}
          </p>
        ))}
      {long && (
        <button type="button" className="collab__more" onClick={() => setUnfolded((u) => !u)}>
          {unfolded ? t("common:showLess") : t("collab.wholeAnswer")}
        </button>
      )}
      {status.message && <p className="collab__note">{status.message}</p>}
    </li>
  );
}
