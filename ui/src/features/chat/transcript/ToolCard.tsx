// One tool call as a card, drawn from its typed view (`ToolView`, filled by the tool in
// Rust): a command with its exit code, an edit as a diff, a read with its lines, a search
// with its matches, an MCP call with what the server answered, a subagent with its agent.
// The card reads no arguments and no model-facing text to work any of that out.
import { useMemo } from "react";
import { Trans } from "react-i18next";

import type { McpCallView, McpContent, ToolView } from "../../../gen/protocol";
import { t as translate, useT } from "../../../i18n";
import { toolCalledAs, toolLabel } from "../../../state/toolNames";
import type { ToolItem } from "../../../state/transcript";
import { useWatchCommand } from "../../terminal/watch";
import { CollabCard } from "../../subagents/CollabCard";
import { SubagentCard } from "../../subagents/SubagentCard";
import { FileEditCard } from "./FileEditCard";
import { ToolHooks } from "./HookLine";
import {
  CardApprovalPart,
  CardFrame,
  CardTitle,
  ChangedFiles,
  ChangeTotals,
  formatProgress,
  isWaiting,
  LiveOutput,
  liveOutputOf,
  OutputSection,
  PartialNote,
  statusLabel,
  useDetailsOpen,
  waitingLabel,
  type CardApproval,
} from "./toolCardParts";
import { commandFailed, commandVerdict, printedOutput, viewOutcome, viewSubject } from "./toolViews";
import { formatBytes, useShownOutput } from "./wholeOutput";

export { formatProgress, type CardApproval };

interface ToolCardProps {
  tool: ToolItem;
  /** The approval this call asked for, if any: it is answered inside the card. */
  approval?: CardApproval | undefined;
}

/**
 * One tool call, folded to a line; what it did unfolds on click. A command that prints
 * while it runs, or a call waiting for an answer, unfolds by itself.
 */
export function ToolCard({ tool, approval }: ToolCardProps) {
  const card = <ToolCardBody tool={tool} approval={approval} />;
  if (!tool.hooks || tool.hooks.length === 0) return card;
  // The call's hooks sit right under it, visible while the card is folded: a block is
  // why the call did not run.
  return (
    <>
      {card}
      <ToolHooks hooks={tool.hooks} />
    </>
  );
}

function ToolCardBody({ tool, approval }: ToolCardProps) {
  const view = tool.view ?? null;
  switch (view?.type) {
    case "subagent":
      return view.action === "spawn" ? <SubagentCard tool={tool} view={view} /> : <CollabCard tool={tool} view={view} />;
    case "command":
      return <CommandCard tool={tool} view={view} approval={approval} />;
    case "file_edit":
      return <FileEditCard tool={tool} view={view} approval={approval} />;
    case "mcp_call":
      return <McpCard tool={tool} view={view} approval={approval} />;
    default:
      return <ViewCard tool={tool} view={view} approval={approval} />;
  }
}

type CommandOf = Extract<ToolView, { type: "command" }>;

/**
 * A shell command: the command line once, then what it printed, its exit code and how long
 * it took (the model-facing bookkeeping of the result stays out of sight).
 */
function CommandCard({ tool, view, approval }: { tool: ToolItem; view: CommandOf; approval: CardApproval | undefined }) {
  const t = useT("transcript");
  const waiting = isWaiting(tool, approval);
  const live = liveOutputOf(tool);
  const watch = useWatchCommand();
  const [open, onToggle] = useDetailsOpen();
  const shown = useShownOutput(tool, open);
  const failed = tool.status === "error" || commandFailed(view);
  const verdict = waiting ? waitingLabel() : tool.errorKind ? statusLabel(tool, false) : (commandVerdict(view) ?? statusLabel(tool, false));
  // Encoding the output to cut its byte range is done once per output, not per render
  // (a card re-renders while its turn streams, and an opened output can be megabytes).
  const range = tool.status === "ok" ? view.output : undefined;
  const output = useMemo(() => (shown.text === null ? null : printedOutput(shown.text, range)), [shown.text, range]);
  return (
    <CardFrame
      tool={tool}
      variant="command"
      waiting={waiting}
      failed={failed}
      live={live !== null}
      onToggle={onToggle}
      status={verdict}
      summary={
        <>
          <span className="tool__command" title={view.command} data-testid="tool-command">
            <span className="tool__prompt" aria-hidden="true">
              {view.stdin !== undefined ? "⌨" : "$"}
            </span>
            {stdinLine(view) ?? view.command}
          </span>
          <ChangeTotals changes={tool.changes} />
          {watch !== null && tool.status === "running" && !waiting && (
            <button
              type="button"
              className="tool__watch"
              onClick={(event) => {
                // In the summary: open the terminal panel, not fold the card.
                event.preventDefault();
                event.stopPropagation();
                watch(tool.callId, view.command);
              }}
              title={t("command.watchTitle")}
              data-testid="watch-command"
            >
              {t("command.watch")}
            </button>
          )}
        </>
      }
    >
      {(view.cwd || !view.sandboxed) && (
        <p className="tool__facts" data-testid="tool-command-facts">
          {view.cwd && <span className="tool__cwd">{t("inDir", { cwd: view.cwd })}</span>}
          {!view.sandboxed && <span className="tool__unsandboxed">{t("command.unsandboxed")}</span>}
        </p>
      )}
      <CardApprovalPart tool={tool} approval={approval} />
      {live !== null ? (
        <LiveOutput text={live} />
      ) : waiting ? null : output === null ? (
        <p className="tool__pending">{t("command.waiting")}</p>
      ) : (
        <>
          <pre className="tool__pre" data-testid="tool-output">
            {output.trim() === "" ? t("command.noOutput") : output}
          </pre>
          <PartialNote shown={shown} />
        </>
      )}
      <ChangedFiles changes={tool.changes} />
    </CardFrame>
  );
}

/**
 * A call to a command still running: what was typed into it and where, or (nothing typed)
 * a look at what it printed since.
 */
function stdinLine(view: CommandOf): string | null {
  if (view.stdin === undefined) return null;
  const target = view.command || translate("transcript:command.runningCommand");
  return view.stdin === "" ? translate("transcript:command.outputOf", { target }) : `${JSON.stringify(view.stdin)} → ${target}`;
}

/** An MCP server's tool: what it was sent, what it answered block by block, what it changed. */
function McpCard({ tool, view, approval }: { tool: ToolItem; view: McpCallView; approval: CardApproval | undefined }) {
  const t = useT("transcript");
  const waiting = isWaiting(tool, approval);
  const [open, onToggle] = useDetailsOpen();
  const shown = useShownOutput(tool, open);
  const subject = viewSubject({ type: "mcp_call", ...view });
  const changedOnlyByName = (tool.changes?.length ?? 0) === 0 ? (view.changed_files ?? []) : [];
  return (
    <CardFrame
      tool={tool}
      variant="mcp"
      waiting={waiting}
      failed={tool.status === "error"}
      live={false}
      onToggle={onToggle}
      status={statusLabel(tool, waiting)}
      summary={
        <>
          <CardTitle label={`${view.server} · ${view.tool}`} title={t("card.calledAs", { name: tool.name })} subject={subject} />
          {view.read_only && <span className="tool__read-only">{t("card.readOnly")}</span>}
          <ChangeTotals changes={tool.changes} />
          {tool.status === "running" && tool.progress && (
            <span className="tool__progress" data-testid="tool-progress">
              {formatProgress(tool.progress)}
            </span>
          )}
        </>
      }
    >
      {view.arguments.trim() !== "" && view.arguments.trim() !== "{}" && (
        <section>
          <h4 className="tool__label">{t("card.arguments")}</h4>
          <pre className="tool__pre">{view.arguments}</pre>
        </section>
      )}
      <CardApprovalPart tool={tool} approval={approval} />
      {tool.status === "ok" && view.content.length > 0 ? (
        <McpAnswer content={view.content} />
      ) : (
        !waiting && (
          <OutputSection
            heading={tool.status === "error" ? t("card.error") : t("card.answer")}
            text={shown.text}
            shown={shown}
            waiting={waiting}
            empty={t("card.empty")}
          />
        )
      )}
      <ChangedFiles changes={tool.changes} />
      {changedOnlyByName.length > 0 && (
        <section className="tool__changes" data-testid="tool-changes">
          <h4 className="tool__label">{t("card.changedFiles", { count: changedOnlyByName.length })}</h4>
          <ul className="tool__change-list">
            {changedOnlyByName.map((path) => (
              <li key={path} className="tool__change-path">
                {path}
              </li>
            ))}
          </ul>
        </section>
      )}
    </CardFrame>
  );
}

/** What an MCP server answered: text as text, anything else named with its size. */
function McpAnswer({ content }: { content: readonly McpContent[] }) {
  const t = useT("transcript");
  return (
    <section data-testid="mcp-content">
      <h4 className="tool__label">{t("card.answer")}</h4>
      {content.map((block, index) => {
        switch (block.type) {
          case "text":
            return (
              <pre key={index} className="tool__pre" data-testid="tool-output">
                {block.text}
              </pre>
            );
          case "image":
          case "audio":
            return (
              <p key={index} className="tool__block">
                {t(block.type === "image" ? "mcp.image" : "mcp.audio", { mime: block.mime_type, size: formatBytes(block.bytes) })}
              </p>
            );
          case "resource":
            return (
              <div key={index} className="tool__block">
                <code>{block.uri}</code>
                {block.text !== undefined && <pre className="tool__pre">{block.text}</pre>}
              </div>
            );
          case "resource_link":
            return (
              <p key={index} className="tool__block">
                <Trans
                  t={t}
                  i18nKey={block.name ? "mcp.linkNamed" : "mcp.link"}
                  values={{ uri: block.uri, name: block.name }}
                  components={{ code: <code /> }}
                />
              </p>
            );
        }
      })}
    </section>
  );
}

/**
 * Every other call: a read with its lines, a search with its first matches, a listing, a
 * fetch with its status, a plan, a memory, any other tool with its arguments. A call whose
 * view has not come yet (its arguments still stream in) shows its name and what arrived.
 */
function ViewCard({ tool, view, approval }: { tool: ToolItem; view: ToolView | null; approval: CardApproval | undefined }) {
  const t = useT("transcript");
  const waiting = isWaiting(tool, approval);
  const live = liveOutputOf(tool);
  const [open, onToggle] = useDetailsOpen();
  const shown = useShownOutput(tool, open);
  const subject = view ? viewSubject(view) : "";
  const outcome = view && tool.status === "ok" ? viewOutcome(view) : null;
  const label = view?.type === "other" ? view.name : tool.name;
  return (
    <CardFrame
      tool={tool}
      variant={view?.type ?? "plain"}
      waiting={waiting}
      failed={tool.status === "error"}
      live={live !== null}
      onToggle={onToggle}
      status={outcome ?? statusLabel(tool, waiting)}
      summary={
        <>
          <CardTitle label={toolLabel(label)} title={toolCalledAs(label)} subject={subject} />
          <ChangeTotals changes={tool.changes} />
          {tool.status === "running" && tool.progress && (
            <span className="tool__progress" data-testid="tool-progress">
              {formatProgress(tool.progress)}
            </span>
          )}
        </>
      }
    >
      <ViewFacts view={view} rawArgs={tool.args} />
      <CardApprovalPart tool={tool} approval={approval} />
      {live !== null ? (
        <LiveOutput text={live} />
      ) : (
        !waiting && (
          <OutputSection heading={t("card.output")} text={shown.text} shown={shown} waiting={waiting} empty={t("card.empty")} />
        )
      )}
      <ChangedFiles changes={tool.changes} />
    </CardFrame>
  );
}

/** What a view knows beyond its folded line: a search's first matches, another tool's arguments. */
function ViewFacts({ view, rawArgs }: { view: ToolView | null; rawArgs: string }) {
  const t = useT("transcript");
  const first = view?.type === "search" ? view.first : null;
  const matches = useMemo(() => first?.map((at) => (at.line !== undefined ? `${at.path}:${at.line}` : at.path)) ?? [], [first]);
  if (view === null) {
    // Arguments as they arrive, as text: nothing is read out of them.
    return rawArgs.trim() === "" ? null : (
      <section>
        <h4 className="tool__label">{t("card.arguments")}</h4>
        <pre className="tool__pre">{rawArgs}</pre>
      </section>
    );
  }
  if (view.type === "other") {
    return view.arguments.trim() === "" || view.arguments.trim() === "{}" ? null : (
      <section>
        <h4 className="tool__label">{t("card.arguments")}</h4>
        <pre className="tool__pre">{view.arguments}</pre>
      </section>
    );
  }
  if (matches.length > 0) {
    return (
      <section data-testid="search-matches">
        <h4 className="tool__label">{t("card.firstMatches")}</h4>
        <ul className="tool__matches">
          {matches.map((match, index) => (
            <li key={index}>
              <code>{match}</code>
            </li>
          ))}
        </ul>
      </section>
    );
  }
  return null;
}
