import type { DiffComment } from "../../components/diff";
import { t } from "../../i18n";

/** "line 4", "lines 4–7" */
function lineRange(comment: DiffComment): string {
  return comment.startLine === comment.endLine
    ? t("changes:message.line", { line: comment.startLine })
    : t("changes:message.lines", { start: comment.startLine, end: comment.endLine });
}

/**
 * The message that carries review comments to the agent: each with its file and lines,
 * so the model can open exactly that spot. Lines of the old side are ones the change
 * removed, which the model cannot read in the file any more; the note says so.
 */
export function commentsMessage(comments: readonly DiffComment[]): string {
  const items = comments.map((c, i) => {
    const where = `\`${c.path}\` ${lineRange(c)}${c.side === "old" ? t("changes:message.removed") : ""}`;
    const text = c.text.trim().replace(/\n/g, "\n   ");
    return t("changes:message.item", { n: i + 1, where, text });
  });
  const count = comments.length;
  return `${t("changes:message.heading", { count })}\n\n${items.join("\n")}\n\n${t("changes:message.closing", { count })}`;
}
