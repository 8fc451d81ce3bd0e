import { AlertIcon, CheckIcon, ShieldIcon, Spinner } from "../../components/icons";
import type { SubagentState } from "../../gen/protocol";
import { useT } from "../../i18n";

/** What a subagent card says of its agent: its state, or that it waits for the user. */
export type AgentPhase = SubagentState | "starting" | "not_started" | "needs_approval";

function PhaseIcon({ phase }: { phase: AgentPhase }) {
  switch (phase) {
    case "running":
    case "starting":
      return <Spinner />;
    case "needs_approval":
      return <ShieldIcon />;
    case "finished":
      return <CheckIcon />;
    case "failed":
    case "not_started":
      return <AlertIcon />;
    case "interrupted":
    case "closed":
      return null;
  }
}

export function StateBadge({ phase }: { phase: AgentPhase }) {
  const t = useT("subagents");
  return (
    <span className={`agent-state agent-state--${phase}`} data-testid="agent-state" data-phase={phase}>
      <PhaseIcon phase={phase} />
      {t(`state.${phase}`)}
    </span>
  );
}

/** A small robot head: an agent, as opposed to a tool. */
export function AgentIcon({ className }: { className?: string }) {
  return (
    <svg className={className} viewBox="0 0 24 24" aria-hidden="true">
      <path
        d="M12 3.5v3M6.5 6.5h11a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-11a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2zM2.5 11.5v3M21.5 11.5v3"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.7"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="9.5" cy="12.5" r="1.3" fill="currentColor" />
      <circle cx="14.5" cy="12.5" r="1.3" fill="currentColor" />
    </svg>
  );
}
