// An edit (Memo's file tools, or anything whose view says it edits files): the change as
// a diff per file, proposed while it waits for an answer and as written after, each hunk
// marked applied or refused when a person took only some.
import { useMemo } from "react";

import { DiffStats, DiffView, type HunkState } from "../../../components/diff";
import type { EditedFile, FileEditView } from "../../../gen/protocol";
import { useT } from "../../../i18n";
import type { ToolItem } from "../../../state/transcript";
import { prettyArgs } from "../format";
import { CardApprovalPart, CardFrame, CardTitle, isWaiting, OutputSection, statusLabel, useDetailsOpen, type CardApproval } from "./toolCardParts";
import { describePaths, editedPaths, editTotals } from "./toolViews";
import { useShownOutput } from "./wholeOutput";

const CHANGE_KEYS: Record<EditedFile["change"]["kind"], string | null> = {
  add: "fileKind.new",
  modify: null,
  delete: "fileKind.deleted",
  move: "fileKind.moved",
};

function ChangeBadge({ file }: { file: EditedFile }) {
  const t = useT("transcript");
  const key = CHANGE_KEYS[file.change.kind];
  if (key === null) return null;
  const label = t(key);
  const title = file.change.kind === "move" ? t("fileKind.movedFrom", { from: file.change.from }) : undefined;
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
  const t = useT("transcript");
  if (file.diff) return <DiffView diff={file.diff} toolbar={<ChangeBadge file={file} />} hunkState={appliedState(file)} />;
  return (
    <p className="tool__no-diff">
      <span className="tool__no-diff-path">{file.path}</span>
      <ChangeBadge file={file} />
      <span>{file.change.kind === "delete" ? t("edit.removed") : t("edit.noDiff")}</span>
    </p>
  );
}

export function FileEditCard({ tool, view, approval }: { tool: ToolItem; view: FileEditView; approval: CardApproval | undefined }) {
  const t = useT("transcript");
  const waiting = isWaiting(tool, approval);
  const [open, onToggle] = useDetailsOpen();
  const shown = useShownOutput(tool, open);
  const totals = useMemo(() => editTotals(view), [view]);
  const subject = describePaths(editedPaths(view));
  // A call of several edits taken in part: which of them were written.
  const partly = view.files.flatMap((file) =>
    file.applied_edits === undefined
      ? []
      : [t("edit.written", { path: file.path, edits: file.applied_edits.map((i) => i + 1).join(t("listSeparator")) })],
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
          {partly.join(t("clauseSeparator"))}
        </p>
      )}
      <CardApprovalPart tool={tool} approval={approval} />
      {!waiting && shown.text !== null && shown.text.trim() !== "" && (
        <OutputSection
          heading={tool.status === "error" ? t("card.error") : t("card.result")}
          text={shown.text}
          shown={shown}
          waiting={false}
          empty=""
        />
      )}
      {open && tool.args.trim() !== "" && (
        <details className="tool__raw" data-testid="tool-arguments">
          <summary>{t("card.arguments")}</summary>
          <pre className="tool__pre">{prettyArgs(tool.args)}</pre>
        </details>
      )}
    </CardFrame>
  );
}
