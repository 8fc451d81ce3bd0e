import { lazy, Suspense } from "react";

// The Markdown stack (react-markdown, remark, micromark: ~150 KB of the page's script) is
// read when the first answer is shown, not at start-up: a window that only sits idle
// never needs it.
const Loaded = lazy(() => import("./Markdown").then((module) => ({ default: module.Markdown })));

/** Model text as Markdown; as plain text for the moment the renderer takes to load. */
export function Markdown({ text }: { text: string }) {
  return (
    <Suspense
      fallback={
        <div className="md md--loading">
          <p>{text}</p>
        </div>
      }
    >
      <Loaded text={text} />
    </Suspense>
  );
}
