/**
 * A path cut from the left when it does not fit ("…home/AGENTS.md"), the full path in its
 * tooltip. The box is right-to-left so the ellipsis takes the start; the path itself sits in
 * a left-to-right isolate, since in a right-to-left run the slashes (neutral characters) are
 * moved: "/tmp/x/home/AGENTS.md" rendered as "tmp/x/home/AGENTS.md/".
 */
export function PathTail({ path, title = path, className = "" }: { path: string; title?: string; className?: string }) {
  return (
    <span className={`path-tail ${className}`.trim()} title={title} data-testid="path-tail">
      <bdi dir="ltr">{path}</bdi>
    </span>
  );
}
