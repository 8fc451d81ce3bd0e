import type { FileDiff } from "../../../gen/protocol";

export function lineClass(line: string): string {
  if (line.startsWith("+++") || line.startsWith("---")) return "diff__line diff__line--file";
  if (line.startsWith("@@")) return "diff__line diff__line--hunk";
  if (line.startsWith("+")) return "diff__line diff__line--add";
  if (line.startsWith("-")) return "diff__line diff__line--del";
  return "diff__line";
}

/** A proposed change as unified diff text, coloured per line. */
export function DiffView({ diff }: { diff: FileDiff }) {
  const lines = diff.unified.replace(/\n$/, "").split("\n");
  return (
    <div className="diff" data-testid="approval-diff">
      <div className="diff__path">{diff.path}</div>
      <pre className="diff__body">
        {lines.map((line, index) => (
          <span key={index} className={lineClass(line)}>
            {line || " "}
            {"\n"}
          </span>
        ))}
      </pre>
    </div>
  );
}
