import type { DiffHunk, FileDiff } from "../../../gen/protocol";
import { lineClass } from "./DiffView";

/** Lines of one hunk; the header is shown separately, so drop it if the text repeats it. */
function hunkLines(hunk: DiffHunk): string[] {
  const lines = hunk.text.replace(/\n$/, "").split("\n");
  return lines[0] === hunk.header ? lines.slice(1) : lines;
}

/**
 * A multi-hunk change with a checkbox per hunk, so the user can apply part of it. The
 * engine applies exactly the checked hunks (`accepted_hunks`).
 */
export function HunkPicker({
  diff,
  selected,
  onToggle,
  disabled,
}: {
  diff: FileDiff;
  selected: ReadonlySet<number>;
  onToggle: (index: number) => void;
  disabled: boolean;
}) {
  return (
    <div className="diff" data-testid="approval-diff">
      <div className="diff__path">
        {diff.path}
        <span className="diff__count">
          {selected.size} of {diff.hunks.length} changes selected
        </span>
      </div>
      {diff.hunks.map((hunk) => {
        const checked = selected.has(hunk.index);
        return (
          <div key={hunk.index} className={`hunk${checked ? "" : " hunk--skipped"}`} data-testid="approval-hunk">
            <label className="hunk__header">
              <input
                type="checkbox"
                checked={checked}
                disabled={disabled}
                onChange={() => onToggle(hunk.index)}
                aria-label={`Apply change ${hunk.index + 1}`}
              />
              <span className="diff__line diff__line--hunk">{hunk.header}</span>
            </label>
            <pre className="diff__body">
              {hunkLines(hunk).map((line, i) => (
                <span key={i} className={lineClass(line)}>
                  {line || " "}
                  {"\n"}
                </span>
              ))}
            </pre>
          </div>
        );
      })}
    </div>
  );
}
