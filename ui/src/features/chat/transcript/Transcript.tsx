import type { TranscriptState, TurnView } from "../../../state/transcript";
import type { ResolveApproval } from "./ApprovalCard";
import { type AnswerElicitation, ElicitationCard } from "./ElicitationCard";
import { ErrorNotice, InfoNotice } from "./Notices";
import { TurnBlock } from "./TurnBlock";

interface TranscriptProps {
  transcript: TranscriptState;
  onResolve: ResolveApproval;
  /** Absent when there is nothing to rewind (no stored session). */
  onRewind?: ((turn: TurnView) => void) | undefined;
  rewindDisabled?: boolean;
  onRetry?: ((turn: TurnView) => void) | undefined;
  /** Answers an MCP server's request for input. */
  onElicit?: AnswerElicitation | undefined;
}

const NO_ANSWER: AnswerElicitation = () => Promise.resolve();

export function Transcript({ transcript, onResolve, onRewind, rewindDisabled = false, onRetry, onElicit = NO_ANSWER }: TranscriptProps) {
  return (
    <div className="transcript" data-testid="transcript">
      {transcript.entries.map((entry) =>
        entry.kind === "turn" ? (
          <TurnBlock
            key={entry.key}
            turn={entry}
            onResolve={onResolve}
            onRewind={onRewind}
            rewindDisabled={rewindDisabled}
            onRetry={onRetry}
          />
        ) : entry.kind === "info" ? (
          <InfoNotice key={entry.key} title={entry.title} body={entry.body} ok={entry.ok} />
        ) : entry.kind === "elicitation" ? (
          <ElicitationCard key={entry.key} view={entry} onAnswer={onElicit} />
        ) : (
          <ErrorNotice key={entry.key} kind={entry.errorKind} message={entry.message} />
        ),
      )}
    </div>
  );
}
