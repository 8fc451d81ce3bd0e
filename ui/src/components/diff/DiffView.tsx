import {
  memo,
  useCallback,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type FormEvent,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from "react";

import type { DiffHunk, FileDiff } from "../../gen/protocol";
import { useT } from "../../i18n";
import { isImeComposing } from "../ime";
import { useRowTokens, type CodeToken } from "./highlight";
import { buildLayout, OVERSCAN_PX, visibleRange, WINDOW_THRESHOLD, type LayoutItem } from "./layout";
import { parseDiff, splitRows, type DiffRow, type SplitRow } from "./parse";
import { useDiffViewMode, type DiffViewMode } from "./viewMode";
import "./diff.css";

export type DiffSide = "old" | "new";

/** A comment on a range of lines of one side of the change, as `onComment` receives it. */
export interface DiffComment {
  path: string;
  side: DiffSide;
  startLine: number;
  endLine: number;
  text: string;
}

/**
 * What became of a hunk: `excluded` is a hunk left out of a pending partial approval, the
 * others are outcomes (`rejected` = the user chose not to apply it; `kept` = marked kept
 * in the changes panel, `staged` = kept there by staging it in git's index, `committed` = git has it at HEAD).
 */
export type HunkState = "applied" | "rejected" | "reverted" | "excluded" | "kept" | "staged" | "committed" | null;


export interface DiffViewProps {
  diff: FileDiff;
  /** Buttons or checkboxes shown at the end of each hunk's header. */
  renderHunkActions?: ((hunk: DiffHunk) => ReactNode) | undefined;
  hunkState?: ((index: number) => HunkState) | undefined;
  /** When given, line numbers can be clicked (shift-click for a range) to comment on them. */
  onComment?: ((comment: DiffComment) => void) | undefined;
  /** Extra content for the file bar, before the view toggle. */
  toolbar?: ReactNode;
  /** False when the caller already shows the file's name and counts (the changes panel). */
  showPath?: boolean | undefined;
  /** What the bar leads with in place of the path, when `showPath` is false (an edit's label). */
  heading?: ReactNode;
  /** Tallest the diff grows before it scrolls, in pixels. */
  maxHeight?: number | undefined;
  /** Test ids for the root and each hunk (approval cards keep the ones their tests know). */
  testId?: string | undefined;
  hunkTestId?: string | undefined;
}

interface LineSelection {
  path: string;
  side: DiffSide;
  /** Where the selection started; a shift-click extends from here. */
  anchor: number;
  start: number;
  end: number;
}

/** A hunk in the order the current view lays it out. */
type DisplayHunk = { mode: "unified"; rows: DiffRow[] } | { mode: "split"; rows: SplitRow[] };

const DEFAULT_MAX_HEIGHT = 420;

function lineOn(row: DiffRow | null, side: DiffSide): number | null {
  if (row === null) return null;
  return side === "old" ? row.oldLine : row.newLine;
}

/** The side's line a display row shows, if any (a split row carries each side in one half). */
function displayLine(row: DiffRow | SplitRow, mode: DiffViewMode, side: DiffSide): number | null {
  if (mode === "unified") return lineOn(row as DiffRow, side);
  const split = row as SplitRow;
  if (split.kind === "meta") return null;
  return lineOn(side === "old" ? split.left : split.right, side);
}

function inSelection(selection: LineSelection | null, path: string, side: DiffSide, line: number | null): boolean {
  return (
    selection !== null &&
    line !== null &&
    selection.side === side &&
    selection.path === path &&
    line >= selection.start &&
    line <= selection.end
  );
}

/**
 * A file change, hunk by hunk, in a unified or side-by-side view with line numbers and
 * syntax colours. Optionally per-hunk actions and outcomes, and comments on line ranges.
 */
export function DiffView({
  diff,
  renderHunkActions,
  hunkState,
  onComment,
  toolbar,
  showPath = true,
  heading,
  maxHeight = DEFAULT_MAX_HEIGHT,
  testId = "diff",
  hunkTestId = "diff-hunk",
}: DiffViewProps) {
  const t = useT("diff");
  const parsed = useMemo(() => parseDiff(diff), [diff]);
  const [mode, setMode] = useDiffViewMode();
  const tokens = useRowTokens(parsed);
  const windowed = parsed.lineCount > WINDOW_THRESHOLD;

  const display = useMemo(
    (): DisplayHunk[] =>
      parsed.hunks.map((hunk) =>
        mode === "split" ? { mode: "split", rows: splitRows(hunk.rows) } : { mode: "unified", rows: hunk.rows },
      ),
    [parsed, mode],
  );

  const [selection, setSelection] = useState<LineSelection | null>(null);
  const [draft, setDraft] = useState("");
  const commentable = onComment !== undefined;

  // The form takes focus when lines are picked, not each time windowing mounts it again.
  const focusPending = useRef(false);
  const takeFocus = useCallback(() => {
    const pending = focusPending.current;
    focusPending.current = false;
    return pending;
  }, []);

  const selectLine = useCallback((path: string, side: DiffSide, line: number, extend: boolean) => {
    focusPending.current = true;
    setSelection((current) => {
      if (extend && current !== null && current.path === path && current.side === side) {
        return { ...current, start: Math.min(current.anchor, line), end: Math.max(current.anchor, line) };
      }
      // Clicking the one selected line again puts the selection away.
      if (current?.path === path && current.side === side && current.start === line && current.end === line) {
        return null;
      }
      return { path, side, anchor: line, start: line, end: line };
    });
  }, []);

  // The form goes under the last row showing a selected line.
  const formAfter = useMemo(() => {
    if (selection === null) return null;
    let found: { hunk: number; row: number } | null = null;
    for (let h = 0; h < display.length; h++) {
      const hunk = display[h];
      if (hunk === undefined || parsed.hunks[h]?.path !== selection.path) continue;
      for (let r = 0; r < hunk.rows.length; r++) {
        const row = hunk.rows[r];
        if (row !== undefined && inSelection(selection, selection.path, selection.side, displayLine(row, hunk.mode, selection.side))) {
          found = { hunk: h, row: r };
        }
      }
    }
    return found;
  }, [display, parsed, selection]);

  const layout = useMemo(
    () =>
      buildLayout(
        display.map((hunk) => hunk.rows.length),
        formAfter,
      ),
    [display, formAfter],
  );

  const { scrollRef, band, onScroll, viewportWidth } = useScrollBand(windowed, maxHeight, parsed.hunks.length > 0);
  const range = windowed ? visibleRange(layout, band.top, band.bottom) : { start: 0, end: layout.items.length };
  const groups = groupByHunk(layout.items, range.start, range.end);
  const topSpace = layout.offsets[range.start] ?? 0;
  const bottomSpace = (layout.offsets[layout.items.length] ?? 0) - (layout.offsets[range.end] ?? 0);

  const submit = (text: string) => {
    if (selection === null || onComment === undefined) return;
    onComment({ path: selection.path, side: selection.side, startLine: selection.start, endLine: selection.end, text });
    setSelection(null);
    setDraft("");
  };
  const cancel = () => {
    setSelection(null);
    setDraft("");
  };

  const digits = Math.max(2, String(parsed.maxLineNumber).length);
  const style = {
    "--diff-num-width": `${digits}ch`,
    "--diff-max-height": `${maxHeight}px`,
  } as CSSProperties;
  const contentStyle = (viewportWidth > 0 ? { "--diff-viewport-width": `${viewportWidth}px` } : {}) as CSSProperties;

  return (
    <div
      className={`diff diff--${mode}${windowed ? " diff--windowed" : ""}${commentable ? " diff--commentable" : ""}`}
      data-testid={testId}
      data-mode={mode}
      style={style}
    >
      <div className="diff__bar">
        {showPath ? (
          <>
            <FilePath path={parsed.path} />
            <DiffStats added={parsed.added} removed={parsed.removed} />
          </>
        ) : heading !== undefined && heading !== null ? (
          <span className="diff__heading">{heading}</span>
        ) : (
          <span className="diff__spacer" />
        )}
        {toolbar}
        <ModeToggle mode={mode} onChange={setMode} />
      </div>
      {parsed.hunks.length === 0 ? (
        <p className="diff__empty">{t("noChanges")}</p>
      ) : (
        <div className="diff__scroll" ref={scrollRef} onScroll={onScroll}>
          <div className="diff__content" style={contentStyle}>
            {topSpace > 0 && <div style={{ height: topSpace }} aria-hidden="true" />}
            {groups.map(({ hunk: h, items }) => {
              const hunk = parsed.hunks[h];
              const rows = display[h];
              if (hunk === undefined || rows === undefined) return null;
              const state = hunkState?.(hunk.hunk.index) ?? null;
              return (
                <div
                  key={h}
                  className={`diff__hunk${state ? ` diff__hunk--${state}` : ""}`}
                  data-testid={hunkTestId}
                  data-state={state ?? undefined}
                >
                  {items.map((item) => {
                    if (item.kind === "header") {
                      return (
                        <HunkHeader key={item.key} header={hunk.hunk.header} state={state}>
                          {renderHunkActions?.(hunk.hunk)}
                        </HunkHeader>
                      );
                    }
                    if (item.kind === "form") {
                      return selection === null ? null : (
                        <CommentForm
                          key={item.key}
                          selection={selection}
                          draft={draft}
                          onDraft={setDraft}
                          onSubmit={submit}
                          onCancel={cancel}
                          takeFocus={takeFocus}
                        />
                      );
                    }
                    if (rows.mode === "split") {
                      const row = rows.rows[item.row];
                      return row === undefined ? null : (
                        <SplitLine
                          key={item.key}
                          row={row}
                          path={hunk.path}
                          tokens={tokens}
                          selectedOld={row.kind === "pair" && inSelection(selection, hunk.path, "old", lineOn(row.left, "old"))}
                          selectedNew={row.kind === "pair" && inSelection(selection, hunk.path, "new", lineOn(row.right, "new"))}
                          onSelect={commentable ? selectLine : null}
                        />
                      );
                    }
                    const row = rows.rows[item.row];
                    return row === undefined ? null : (
                      <UnifiedLine
                        key={item.key}
                        row={row}
                        path={hunk.path}
                        tokens={tokens.get(row) ?? null}
                        selected={
                          inSelection(selection, hunk.path, "old", row.oldLine) ||
                          inSelection(selection, hunk.path, "new", row.newLine)
                        }
                        onSelect={commentable ? selectLine : null}
                      />
                    );
                  })}
                </div>
              );
            })}
            {bottomSpace > 0 && <div style={{ height: bottomSpace }} aria-hidden="true" />}
          </div>
        </div>
      )}
    </div>
  );
}

function groupByHunk(items: readonly LayoutItem[], start: number, end: number) {
  const groups: { hunk: number; items: LayoutItem[] }[] = [];
  for (let i = start; i < end; i++) {
    const item = items[i];
    if (item === undefined) continue;
    const last = groups[groups.length - 1];
    if (last && last.hunk === item.hunk) last.items.push(item);
    else groups.push({ hunk: item.hunk, items: [item] });
  }
  return groups;
}

/** Scroll steps between re-renders; the overscan covers the ground in between. */
const BAND_STEP = OVERSCAN_PX / 2;

/**
 * The band of the content worth rendering, which moves in steps as the diff scrolls (so a
 * scroll re-renders a few times per screen, not per pixel), and the visible width, which the
 * hunk headers take so their buttons stay in view when long lines scroll sideways.
 */
function useScrollBand(windowed: boolean, maxHeight: number, scrolls: boolean) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [step, setStep] = useState(0);
  const [viewport, setViewport] = useState({ width: 0, height: 0 });

  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (element === null) return;
    const measure = () => setViewport({ width: element.clientWidth, height: element.clientHeight });
    measure();
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
    // The scroll container only exists while there are hunks to show.
  }, [scrolls]);

  const onScroll = useCallback(() => {
    const element = scrollRef.current;
    if (!windowed || element === null) return;
    setStep(Math.floor(element.scrollTop / BAND_STEP));
  }, [windowed]);

  // Before layout (or in a test without one) the diff is as tall as it may grow.
  const height = viewport.height > 0 ? viewport.height : maxHeight;
  const top = step * BAND_STEP;
  return {
    scrollRef,
    onScroll,
    viewportWidth: viewport.width,
    band: { top: top - OVERSCAN_PX, bottom: top + BAND_STEP + height + OVERSCAN_PX },
  };
}

/** The folder gives way before the file name does when the bar is narrow. */
function FilePath({ path }: { path: string }) {
  const cut = path.includes(", ") ? -1 : path.lastIndexOf("/");
  return (
    <span className="diff__path" title={path}>
      {cut >= 0 && <span className="diff__dir">{path.slice(0, cut + 1)}</span>}
      <span className="diff__file">{cut >= 0 ? path.slice(cut + 1) : path}</span>
    </span>
  );
}

export function DiffStats({ added, removed }: { added: number; removed: number }) {
  const t = useT("diff");
  return (
    <span className="diff__stats" aria-label={t("stats", { added, removed })}>
      <span className="diff__stat-add">+{added}</span>
      <span className="diff__stat-del">−{removed}</span>
    </span>
  );
}

function ModeToggle({ mode, onChange }: { mode: DiffViewMode; onChange: (mode: DiffViewMode) => void }) {
  const t = useT("diff");
  return (
    <span className="diff__toggle" role="group" aria-label={t("layout")} data-testid="diff-mode-toggle">
      <button type="button" aria-pressed={mode === "unified"} onClick={() => onChange("unified")}>
        {t("unified")}
      </button>
      <button type="button" aria-pressed={mode === "split"} onClick={() => onChange("split")}>
        {t("split")}
      </button>
    </span>
  );
}

function HunkHeader({ header, state, children }: { header: string; state: HunkState; children: ReactNode }) {
  const t = useT("diff");
  return (
    <div className="diff__hunk-header">
      <span className="diff__hunk-range" title={header}>
        {header}
      </span>
      {state && (
        <span className={`diff__hunk-state diff__hunk-state--${state}`} data-testid="hunk-state" data-state={state}>
          {t(`state.${state}`)}
        </span>
      )}
      {children !== undefined && children !== null && <span className="diff__hunk-actions">{children}</span>}
    </div>
  );
}

type SelectLine = (path: string, side: DiffSide, line: number, extend: boolean) => void;

const SIGNS: Record<DiffRow["kind"], string> = { add: "+", del: "-", context: " ", meta: " " };

function Code({ row, tokens }: { row: DiffRow; tokens: CodeToken[] | null }) {
  return (
    <span className="diff__code">
      {tokens
        ? tokens.map((token, i) =>
            token.classes ? (
              <span key={i} className={token.classes}>
                {token.text}
              </span>
            ) : (
              token.text
            ),
          )
        : row.text}
    </span>
  );
}

function LineNumber({
  line,
  side,
  path,
  onSelect,
}: {
  line: number | null;
  side: DiffSide;
  path: string;
  onSelect: SelectLine | null;
}) {
  const t = useT("diff");
  if (line === null || onSelect === null) {
    return <span className={`diff__num diff__num--${side}`}>{line ?? ""}</span>;
  }
  const click = (event: MouseEvent<HTMLButtonElement>) => onSelect(path, side, line, event.shiftKey);
  // A shift-click would otherwise also select the text between the two clicks.
  const keepTextSelection = (event: MouseEvent<HTMLButtonElement>) => {
    if (event.shiftKey) event.preventDefault();
  };
  return (
    <button
      type="button"
      className={`diff__num diff__num--${side}`}
      aria-label={side === "old" ? t("commentOnOldLine", { line }) : t("commentOnLine", { line })}
      title={t("commentHint")}
      onMouseDown={keepTextSelection}
      onClick={click}
    >
      {line}
    </button>
  );
}

const UnifiedLine = memo(function UnifiedLine({
  row,
  path,
  tokens,
  selected,
  onSelect,
}: {
  row: DiffRow;
  path: string;
  tokens: CodeToken[] | null;
  selected: boolean;
  onSelect: SelectLine | null;
}) {
  return (
    <div
      className={`diff__line diff__line--${row.kind}${selected ? " diff__line--selected" : ""}`}
      data-testid="diff-line"
      data-kind={row.kind}
    >
      <span className="diff__gutter">
        <LineNumber line={row.oldLine} side="old" path={path} onSelect={onSelect} />
        <LineNumber line={row.newLine} side="new" path={path} onSelect={onSelect} />
        <span className="diff__sign">{SIGNS[row.kind]}</span>
      </span>
      <Code row={row} tokens={tokens} />
    </div>
  );
});

const SplitLine = memo(function SplitLine({
  row,
  path,
  tokens,
  selectedOld,
  selectedNew,
  onSelect,
}: {
  row: SplitRow;
  path: string;
  tokens: ReadonlyMap<DiffRow, CodeToken[]>;
  selectedOld: boolean;
  selectedNew: boolean;
  onSelect: SelectLine | null;
}) {
  if (row.kind === "meta") {
    return (
      <div className="diff__line diff__line--meta diff__line--split" data-testid="diff-line" data-kind="meta">
        <Code row={row.row} tokens={null} />
      </div>
    );
  }
  const changed = row.left !== row.right;
  return (
    <div className="diff__line diff__line--split" data-testid="diff-line" data-kind={changed ? "change" : "context"}>
      <Half row={row.left} side="old" path={path} tokens={tokens} selected={selectedOld} onSelect={onSelect} />
      <Half row={row.right} side="new" path={path} tokens={tokens} selected={selectedNew} onSelect={onSelect} />
    </div>
  );
});

function Half({
  row,
  side,
  path,
  tokens,
  selected,
  onSelect,
}: {
  row: DiffRow | null;
  side: DiffSide;
  path: string;
  tokens: ReadonlyMap<DiffRow, CodeToken[]>;
  selected: boolean;
  onSelect: SelectLine | null;
}) {
  if (row === null) return <span className="diff__half diff__half--empty" />;
  return (
    <span className={`diff__half diff__half--${row.kind}${selected ? " diff__half--selected" : ""}`}>
      <span className="diff__gutter">
        <LineNumber line={lineOn(row, side)} side={side} path={path} onSelect={onSelect} />
        <span className="diff__sign">{SIGNS[row.kind]}</span>
      </span>
      <Code row={row} tokens={tokens.get(row) ?? null} />
    </span>
  );
}

function describeRange(selection: LineSelection, t: ReturnType<typeof useT>): string {
  const lines =
    selection.start === selection.end
      ? t("line", { line: selection.start })
      : t("lines", { start: selection.start, end: selection.end });
  return selection.side === "old" ? t("beforeChange", { lines }) : lines;
}

function CommentForm({
  selection,
  draft,
  onDraft,
  onSubmit,
  onCancel,
  takeFocus,
}: {
  selection: LineSelection;
  draft: string;
  onDraft: (text: string) => void;
  onSubmit: (text: string) => void;
  onCancel: () => void;
  takeFocus: () => boolean;
}) {
  const t = useT("diff");
  const id = useId();
  const textRef = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    if (takeFocus()) textRef.current?.focus();
  }, [takeFocus, selection.path, selection.side, selection.start, selection.end]);
  // Scrolled out of a windowed diff, the form unmounts with the caret in it, and WebKit then
  // scrolls to wherever the caret lands (the top). Letting go of focus first keeps the place.
  useLayoutEffect(() => {
    const textarea = textRef.current;
    return () => {
      if (textarea !== null && textarea === document.activeElement) textarea.blur();
    };
  }, []);
  const text = draft.trim();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text !== "") onSubmit(text);
  };
  const keys = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter and Escape of an input method's composition are the composition's.
    if (isImeComposing(event)) return;
    if (event.key === "Escape") {
      event.preventDefault();
      onCancel();
    } else if (event.key === "Enter" && (event.metaKey || event.ctrlKey) && text !== "") {
      event.preventDefault();
      onSubmit(text);
    }
  };
  return (
    <form className="diff__comment" data-testid="comment-form" onSubmit={submit}>
      <label className="diff__comment-label" htmlFor={id}>
        {t("commentOn", { range: describeRange(selection, t) })}
      </label>
      <textarea
        id={id}
        ref={textRef}
        className="input diff__comment-text"
        value={draft}
        placeholder={t("commentPlaceholder")}
        onChange={(event) => onDraft(event.target.value)}
        onKeyDown={keys}
      />
      <div className="diff__comment-actions">
        <button type="button" className="button button--small button--quiet" onClick={onCancel}>
          {t("common:cancel")}
        </button>
        <button type="submit" className="button button--small button--primary" disabled={text === ""}>
          {t("addComment")}
        </button>
      </div>
    </form>
  );
}
