// An edit (Memo's file tools, or anything whose view says it edits files): the change as
// a diff per file, proposed while it waits for an answer and as written after, each hunk
// marked applied or refused when a person took only some.
import { useMemo } from "react";

import { DiffStats, DiffView, type HunkState } from "../../../components/diff";
import type { EditedFile, FileEditView } from "../../../gen/protocol";
import type { ToolItem } from "../../../state/transcript";
import { prettyArgs } from "../format";
import { CardApprovalPart, CardFrame, CardTitle, isWaiting, OutputSection, statusLabel, useDetailsOpen, type CardApproval } from "./toolCardParts";
import { describePaths, editedPaths, editTotals } from "./toolViews";
import { useShownOutput } from "./wholeOutput";

const CHANGE_LABELS: Record<EditedFile["change"]["kind"], string | null> = {
  add: "new file",
  modify: null,
  delete: "deleted",
  move: "moved",
};

function ChangeBadge({ file }: { file: EditedFile }) {
  const label = CHANGE_LABELS[file.change.kind];
  if (label === null) return null;
  const title = file.change.kind === "move" ? `moved from ${file.change.from}` : undefined;
  return (
    <span className={`tool__file-kind tool__file-kind--${file.change.kind}`} title={title}>
      {label}
    </span>
  );
}

/** Which hunks a partly accepted edit wrote: the engine's own record of it. */
function appliedState(file: EditedFile): ((index: number) => HunkState) | undefined {
  const applied = file.applied_hunks;
  if (applied === undefined) return undefined;
  return (index) => (applied.includes(index) ? "applied" : "rejected");
}

function EditedFileDiff({ file }: { file: EditedFile }) {
  if (file.diff) return <DiffView diff={file.diff} toolbar={<ChangeBadge file={file} />} hunkState={appliedState(file)} />;
  return (
    <p className="tool__no-diff">
      <span className="tool__no-diff-path">{file.path}</span>
      <ChangeBadge file={file} />
      <span>{file.change.kind === "delete" ? "The file is removed." : "No text diff to show."}</span>
    </p>
  );
}

export function FileEditCard({ tool, view, approval }: { tool: ToolItem; view: FileEditView; approval: CardApproval | undefined }) {
  const waiting = isWaiting(tool, approval);
  const [open, onToggle] = useDetailsOpen();
  const shown = useShownOutput(tool, open);
  const totals = useMemo(() => editTotals(view), [view]);
  const subject = describePaths(editedPaths(view));
  // A call of several edits taken in part: which of them were written.
  const partly = view.files.flatMap((file) =>
    file.applied_edits === undefined ? [] : [`${file.path}: edits ${file.applied_edits.map((i) => i + 1).join(", ")} written`],
  );
  return (
    <CardFrame
      tool={tool}
      variant="file"
      waiting={waiting}
      failed={tool.status === "error"}
      live={false}
      onToggle={onToggle}
      status={statusLabel(tool, waiting)}
      summary={
        <>
          <CardTitle label={tool.name} subject={subject} />
          {(totals.added > 0 || totals.removed > 0) && <DiffStats added={totals.added} removed={totals.removed} />}
        </>
      }
    >
      {/* While it waits, the approval shows the proposal with a checkbox per hunk. */}
      {open && !waiting && (
        <div className="tool__diffs" data-testid="tool-diffs">
          {view.files.map((file, index) => (
            <EditedFileDiff key={`${file.path}-${index}`} file={file} />
          ))}
        </div>
      )}
      {partly.length > 0 && (
        <p className="tool__facts" data-testid="tool-partial-edits">
          {partly.join("; ")}
        </p>
      )}
      <CardApprovalPart tool={tool} approval={approval} />
      {!waiting && shown.text !== null && shown.text.trim() !== "" && (
        <OutputSection heading={tool.status === "error" ? "Error" : "Result"} text={shown.text} shown={shown} waiting={false} empty="" />
      )}
      {open && tool.args.trim() !== "" && (
        <details className="tool__raw" data-testid="tool-arguments">
          <summary>Arguments</summary>
          <pre className="tool__pre">{prettyArgs(tool.args)}</pre>
        </details>
      )}
    </CardFrame>
  );
}
