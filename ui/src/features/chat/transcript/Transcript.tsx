import type { TranscriptState } from "../../../state/transcript";
import type { ResolveApproval } from "./ApprovalCard";
import { ErrorNotice, InfoNotice } from "./Notices";
import { TurnBlock } from "./TurnBlock";

export function Transcript({ transcript, onResolve }: { transcript: TranscriptState; onResolve: ResolveApproval }) {
  return (
    <div className="transcript" data-testid="transcript">
      {transcript.entries.map((entry) =>
        entry.kind === "turn" ? (
          <TurnBlock key={entry.key} turn={entry} onResolve={onResolve} />
        ) : entry.kind === "info" ? (
          <InfoNotice key={entry.key} title={entry.title} body={entry.body} ok={entry.ok} />
        ) : (
          <ErrorNotice key={entry.key} kind={entry.errorKind} message={entry.message} />
        ),
      )}
    </div>
  );
}
