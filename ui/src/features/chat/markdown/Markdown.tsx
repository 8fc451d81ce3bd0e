import { memo, useEffect, useMemo, useReducer, useRef, useState, type MouseEvent, type ReactNode } from "react";
import ReactMarkdown, { type Components, type ExtraProps, type Options } from "react-markdown";
import remarkGfm, { type Options as GfmOptions } from "remark-gfm";
import { openUrl } from "@tauri-apps/plugin-opener";

import { useT } from "../../../i18n";
import { highlighter, loadHighlighter } from "./highlighter";
import "./markdown.css";

/**
 * Renders model text (GitHub-flavoured Markdown) as React elements. Raw HTML in the text is
 * shown as text, never parsed into elements (react-markdown without rehype-raw), and nothing
 * here goes through innerHTML.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  // Parsed block by block: while an answer streams only its last block changes, so a long
  // answer costs one small parse per frame instead of all of it again.
  const blocks = useBlocks(text);
  const runs = [];
  for (let start = 0; start < blocks.length; start += RUN) {
    runs.push(<BlockRun key={start} blocks={blocks} start={start} end={Math.min(start + RUN, blocks.length)} />);
  }
  return <div className="md">{runs}</div>;
});

/**
 * Blocks are rendered in runs of this many, each in an element of its own and skipped as a
 * whole while its blocks are unchanged. A frame of a long streaming answer (1,400 blocks
 * after a minute) then costs React a few dozen runs and the last one's blocks, and WebKit
 * lays out the answer's few dozen runs and the last one's blocks: its block layout visits
 * every child of the element that changed, and with every block a child of `.md`, a small
 * change at the end took 2.9 ms to lay out after a minute against 0.4 with 70 children.
 */
const RUN = 32;

interface BlockRunProps {
  blocks: readonly string[];
  start: number;
  end: number;
}

/** Blocks `start..end` of an answer. */
const BlockRun = memo(
  function BlockRun({ blocks, start, end }: BlockRunProps) {
    const shown = [];
    for (let index = start; index < end; index++) {
      shown.push(<MarkdownBlock key={index} text={blocks[index] as string} />);
    }
    return <div className="md__run">{shown}</div>;
  },
  // A settled block is the same string from frame to frame (`useBlocks`), so this is a
  // pointer comparison per block.
  (before, after) => {
    if (before.start !== after.start || before.end !== after.end) return false;
    for (let index = before.start; index < before.end; index++) {
      if (before.blocks[index] !== after.blocks[index]) return false;
    }
    return true;
  },
);

const MarkdownBlock = memo(function MarkdownBlock({ text }: { text: string }) {
  return (
    <ReactMarkdown remarkPlugins={REMARK_PLUGINS} components={COMPONENTS}>
      {text}
    </ReactMarkdown>
  );
});

/**
 * `splitBlocks(text)`, re-using the blocks of the text before when `text` only added to it
 * (a streaming answer): only the last block is cut again, and the others stay the same
 * strings, so neither they nor their parse are made again each frame.
 */
function useBlocks(text: string): readonly string[] {
  const last = useRef<{ text: string; blocks: string[]; lastStart: number } | null>(null);
  const before = last.current;
  if (before !== null && before.text === text) return before.blocks;
  let blocks: string[];
  if (before !== null && before.blocks.length > 0 && text.startsWith(before.text)) {
    // A block starts at a line no later text can change, so cutting from there on gives
    // what cutting the whole would.
    blocks = [...before.blocks.slice(0, -1), ...splitBlocks(text.slice(before.lastStart))];
  } else {
    blocks = splitBlocks(text);
  }
  let lastStart = 0;
  for (let i = 0; i < blocks.length - 1; i++) lastStart += (blocks[i] as string).length + 1;
  last.current = { text, blocks, lastStart };
  return blocks;
}

/** A list item's first line: a loose list's next item belongs with the items before it. */
const LIST_ITEM = /^([-*+]|\d{1,9}[.)])(\s|$)/;
/** Whether the last non-blank line before line `i` is part of a list (an item or its continuation). */
function inList(lines: readonly string[], i: number): boolean {
  for (let j = i - 1; j >= 0; j--) {
    const line = lines[j] as string;
    if (line.trim() === "") continue;
    return LIST_ITEM.test(line) || /^\s/.test(line);
  }
  return false;
}

/** A link reference or footnote definition, which text anywhere in the answer may use. */
const DEFINITION = /^ {0,3}\[[^\]]+\]:/m;

/**
 * Cuts Markdown into pieces that parse the same apart as together: at a blank line
 * followed by a line that starts in the first column (a new top-level block), never inside
 * a fenced code block. Indented lines after a blank line belong to the block before (a
 * list item's continuation, a nested list), and so does a list's next item (a loose list
 * stays one list). Text that defines link references or footnotes is not cut at all.
 */
export function splitBlocks(text: string): string[] {
  if (DEFINITION.test(text)) return [text];
  const lines = text.split("\n");
  const blocks: string[] = [];
  let start = 0;
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== null) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
        fence = null;
      }
      continue;
    }
    if (
      i > 0 &&
      lines[i - 1]?.trim() === "" &&
      line.trim() !== "" &&
      !/^\s/.test(line) &&
      !(LIST_ITEM.test(line) && inList(lines, i))
    ) {
      blocks.push(lines.slice(start, i).join("\n"));
      start = i;
    }
    if (marker !== undefined) fence = marker;
  }
  blocks.push(lines.slice(start).join("\n"));
  return blocks;
}

// "~5 min" is common in answers; only "~~x~~" strikes through.
const GFM_OPTIONS: GfmOptions = { singleTilde: false };
const REMARK_PLUGINS: Options["remarkPlugins"] = [[remarkGfm, GFM_OPTIONS]];

type HastElement = NonNullable<ExtraProps["node"]>;
type HastChild = HastElement["children"][number];

const COMPONENTS: Components = {
  a: ({ href, children }) => <Link href={href}>{children}</Link>,
  // Images are not fetched from model-supplied URLs; their alt text stands in.
  img: ({ src, alt }) => <ImageStandIn src={typeof src === "string" ? src : undefined} alt={alt} />,
  pre: ({ node }) => {
    const code = node?.children.find(
      (child): child is HastElement => child.type === "element" && child.tagName === "code",
    );
    return <CodeBlock code={stripFinalNewline(textOf(code))} lang={languageOf(code)} />;
  },
  // Only inline code reaches here: fenced blocks are rendered whole by `pre` above.
  code: ({ children }) => <code className="md__code">{children}</code>,
  // Headings inside an answer stay small: they structure a reply, not a page.
  h1: ({ children }) => <h3 className="md__heading">{children}</h3>,
  h2: ({ children, className }) => (
    <h3 className={className ? `md__heading ${className}` : "md__heading"}>{children}</h3>
  ),
  h3: ({ children }) => <h4 className="md__heading">{children}</h4>,
  h4: ({ children }) => <h4 className="md__heading">{children}</h4>,
  h5: ({ children }) => <h4 className="md__heading">{children}</h4>,
  h6: ({ children }) => <h4 className="md__heading">{children}</h4>,
  table: ({ children }) => (
    <div className="md__table-wrap">
      <table>{children}</table>
    </div>
  ),
  // Task list checkboxes show the state; they are not a form.
  input: ({ type, checked }) =>
    type === "checkbox" ? (
      <input type="checkbox" className="md__task" checked={checked ?? false} disabled readOnly />
    ) : null,
};

function ImageStandIn({ src, alt }: { src: string | undefined; alt: string | undefined }) {
  const t = useT("chat");
  return (
    <span className="md__image" title={src}>
      {alt || (src ?? t("markdown.image"))}
    </span>
  );
}

/** Schemes handed to the system's default application; anything else is not a link. */
const OPENABLE = new Set(["http:", "https:", "mailto:"]);

function openableUrl(href: string | undefined): string | null {
  if (!href) return null;
  try {
    return OPENABLE.has(new URL(href).protocol) ? href : null;
  } catch {
    // Relative paths and anchors: there is no page to resolve them against.
    return null;
  }
}

function Link({ href, children }: { href: string | undefined; children: ReactNode }) {
  const url = openableUrl(href);
  if (url === null) {
    return (
      <span className="md__link-inert" title={href && !href.startsWith("#") ? href : undefined}>
        {children}
      </span>
    );
  }
  const open = (event: MouseEvent<HTMLAnchorElement>) => {
    // Never navigate the app's own webview: the system browser (or mail client) opens it.
    event.preventDefault();
    openUrl(url).catch((error: unknown) => console.error(`Could not open ${url}:`, error));
  };
  return (
    <a
      className="md__link"
      href={url}
      rel="noreferrer"
      title={url}
      onClick={open}
      // A middle click would otherwise open a new webview window.
      onAuxClick={(event) => event.preventDefault()}
    >
      {children}
    </a>
  );
}

function textOf(node: HastElement | HastChild | undefined): string {
  if (!node) return "";
  if (node.type === "text") return node.value;
  if (node.type === "element") return node.children.map(textOf).join("");
  return "";
}

function stripFinalNewline(text: string): string {
  return text.endsWith("\n") ? text.slice(0, -1) : text;
}

/** The fence's language from the `language-xxx` class remark gives the code element. */
function languageOf(code: HastElement | undefined): string | undefined {
  const classes = code?.properties.className;
  if (!Array.isArray(classes)) return undefined;
  for (const name of classes) {
    if (typeof name === "string" && name.startsWith("language-")) return name.slice("language-".length);
  }
  return undefined;
}

type CopyState = "idle" | "copied" | "failed";

/** The copy button's words per state: keys in the catalogs. */
const COPY_LABELS: Record<CopyState, string> = { idle: "common:copy", copied: "common:copied", failed: "markdown.copyFailed" };

const CodeBlock = memo(function CodeBlock({ code, lang }: { code: string; lang: string | undefined }) {
  const t = useT("chat");
  // The highlighter and the grammar live outside React once loaded; this only re-renders
  // when one of them arrives.
  const [, arrived] = useReducer((count: number) => count + 1, 0);
  const hl = lang ? highlighter() : null;
  const language = useMemo(() => (lang && hl ? hl.findLanguage(lang) : null), [lang, hl]);
  const parser = hl ? hl.loadedParser(language) : null;

  useEffect(() => {
    // Highlighted already (the usual case once anything was), or no language to load.
    if (!lang || parser !== null) return;
    let live = true;
    loadHighlighter()
      .then((loaded) => {
        const found = loaded.findLanguage(lang);
        // Not a language it knows: the code stays plain text.
        return found === null ? null : loaded.loadParser(found);
      })
      .then(
        (ready) => {
          if (live && ready) arrived();
        },
        // The chunk could not be read: the code stays plain text.
        () => {},
      );
    return () => {
      live = false;
    };
  }, [lang, parser]);

  // Plain text until the grammar is there; then highlighted, memoized per text.
  const tokens = useMemo(
    () => (hl && parser && language ? hl.highlight(code, parser, language.name) : null),
    [hl, code, parser, language],
  );

  const [copy, setCopy] = useState<CopyState>("idle");
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const show = (state: CopyState) => {
    setCopy(state);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setCopy("idle"), state === "failed" ? 2500 : 1500);
  };
  const onCopy = () => {
    const clipboard = typeof navigator === "undefined" ? undefined : navigator.clipboard;
    if (!clipboard) {
      show("failed");
      return;
    }
    clipboard.writeText(code).then(
      () => show("copied"),
      () => show("failed"),
    );
  };

  return (
    <div
      className="md__pre"
      data-testid="code-block"
      data-language={lang ? lang.toLowerCase() : undefined}
      data-highlighted={tokens ? "true" : undefined}
    >
      <div className="md__pre-bar">
        <span className="md__pre-lang">{lang || t("markdown.plainText")}</span>
        <button
          type="button"
          className={copy === "failed" ? "md__copy md__copy--failed" : "md__copy"}
          data-testid="code-copy"
          title={t("markdown.copyTitle")}
          onClick={onCopy}
        >
          {t(COPY_LABELS[copy])}
        </button>
      </div>
      <pre>
        <code className="md__code-block">
          {tokens
            ? tokens.map((token, index) =>
                token.classes ? (
                  <span key={index} className={token.classes}>
                    {token.text}
                  </span>
                ) : (
                  token.text
                ),
              )
            : code}
        </code>
      </pre>
    </div>
  );
});
