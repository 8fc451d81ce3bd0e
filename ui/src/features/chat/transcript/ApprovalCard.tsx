import { createContext, type ReactElement, useContext, useMemo, useState } from "react";
import { Trans, useTranslation } from "react-i18next";

import { DiffStats, DiffView, parseDiff, type HunkState } from "../../../components/diff";
import { ShieldIcon } from "../../../components/icons";
import type { ApprovalRequest, DiffHunk, EditChoice, FileDiff, ReviewDecision, SubagentRef } from "../../../gen/protocol";
import { t as translate, useT } from "../../../i18n";
import { say, sayAll } from "../../../i18n/phrase";
import { mcpRuleLabel, mcpToolParts, toolCalledAs, toolLabel } from "../../../state/toolNames";
import type { ApprovalItem, StandaloneApproval } from "../../../state/transcript";
import { shortAgentId } from "../../subagents/agents";
import { prettyArgs } from "../format";

export type ResolveApproval = (requestId: string, decision: ReviewDecision) => Promise<void>;

/**
 * How a card answers an approval: one function for the whole transcript, read by every card
 * that asks (a tool card, a subagent's relayed question), instead of a prop handed down
 * through each layer between the chat and the card.
 */
export const ResolveApprovalContext = createContext<ResolveApproval | null>(null);

function useResolveApproval(): ResolveApproval {
  const resolve = useContext(ResolveApprovalContext);
  return resolve ?? (() => Promise.reject(new Error(translate("transcript:approval.noResolver"))));
}

/** What a person picks from one by one: the hunks of a diff, or the edits of a several-edit call. */
type Unit = "edit" | "hunk";

/**
 * Whether a decision let a hunk through: a partial approval names the accepted hunks, a
 * plain approval takes them all, a denial none.
 */
export function hunkOutcome(decision: ReviewDecision, index: number): "applied" | "rejected" {
  switch (decision.type) {
    case "approve_once":
      return decision.accepted_hunks == null || decision.accepted_hunks.includes(index) ? "applied" : "rejected";
    case "approve_for_session":
    case "approve_always":
    case "approve_step":
      return "applied";
    case "deny":
    case "unanswered":
      return "rejected";
  }
}

/**
 * Whether a decision let an edit of a several-edit call through: as `hunkOutcome`, but a
 * partial approval names the accepted edits.
 */
export function editOutcome(decision: ReviewDecision, index: number): "applied" | "rejected" {
  if (decision.type === "approve_once") {
    return decision.accepted_edits == null || decision.accepted_edits.includes(index) ? "applied" : "rejected";
  }
  return hunkOutcome(decision, index);
}

/** The edits a person picks from one by one; none when the call made a single edit. */
function editChoices(diff: FileDiff | null | undefined): EditChoice[] {
  const edits = diff?.edits ?? [];
  return edits.length > 1 ? edits : [];
}

function describeDecision(decision: ReviewDecision, hunks: readonly DiffHunk[], edits: readonly EditChoice[]): string {
  switch (decision.type) {
    case "approve_once": {
      // Only a partial answer needs the count; "Applied 2 of 2" says no more than "Approved".
      if (edits.length > 0) {
        const applied = edits.filter((edit) => editOutcome(decision, edit.index) === "applied").length;
        return applied < edits.length
          ? translate("transcript:decision.appliedEdits", { applied, total: edits.length })
          : translate("transcript:decision.approvedOnce");
      }
      const applied = hunks.filter((hunk) => hunkOutcome(decision, hunk.index) === "applied").length;
      return hunks.length > 1 && applied < hunks.length
        ? translate("transcript:decision.appliedHunks", { applied, total: hunks.length })
        : translate("transcript:decision.approvedOnce");
    }
    case "approve_for_session":
      return translate("transcript:decision.session");
    case "approve_always":
      return decision.project ? translate("transcript:decision.alwaysFolder") : translate("transcript:decision.always");
    case "approve_step":
      return translate("transcript:decision.step");
    case "deny":
      return decision.reason ? translate("transcript:decision.deniedWhy", { reason: decision.reason }) : translate("transcript:decision.denied");
    case "unanswered":
      return translate("transcript:decision.unanswered", { reason: say(decision.because) });
  }
}

/** Characters of a command a relayed question's headline quotes (all of it is below). */
const HEADLINE_COMMAND_CHARS = 60;

/** What a subagent asks, in its parent's transcript: which agent, and to do what. */
function RelayedTitle({ request, agent }: { request: ApprovalRequest; agent: SubagentRef }) {
  const t = useT("transcript");
  const command = request.command ?? null;
  const quoted =
    command !== null && command.length > HEADLINE_COMMAND_CHARS ? `${command.slice(0, HEADLINE_COMMAND_CHARS - 1)}…` : command;
  // What it wants to do: run a command, change a file, or use a tool.
  const wants: { key: string; values: Record<string, string>; code: ReactElement } =
    quoted !== null
      ? { key: "relayed.run", values: { command: quoted }, code: <code /> }
      : request.diff
        ? { key: "relayed.change", values: { path: request.diff.path }, code: <code /> }
        : {
            key: "relayed.use",
            values: { tool: toolLabel(request.tool_name) },
            code: <code title={toolCalledAs(request.tool_name)} />,
          };
  return (
    <span className="approval__title" data-testid="approval-agent">
      <Trans
        t={t}
        i18nKey={wants.key}
        values={{ type: agent.agent_type, id: shortAgentId(agent.agent_id), ...wants.values }}
        components={{ id: <span className="approval__agent-id" title={agent.agent_id} />, code: wants.code }}
      />
    </span>
  );
}

/** A request's risk in words: read, write, execute, critical. */
function RiskBadge({ risk }: { risk: ApprovalRequest["risk"] }) {
  const t = useT("transcript");
  return <span className={`risk risk--${risk}`}>{t(`risk.${risk}`, { defaultValue: risk })}</span>;
}

/**
 * A question no tool card of this turn holds (a subagent's, relayed to its parent): the
 * question in a card of its own, saying which agent asks.
 */
export function ApprovalCard({ item }: { item: ApprovalItem | StandaloneApproval }) {
  const t = useT("transcript");
  const { request, decision } = item;
  const state = decisionState(decision);
  const agent = request.agent ?? null;
  return (
    <section
      className={`approval approval--${state}${agent ? " approval--relayed" : ""}`}
      data-testid="approval-card"
      data-state={state}
      data-agent-id={agent?.agent_id}
      aria-label={agent ? t("approval.fromSubagent", { type: agent.agent_type }) : t("approval.request")}
    >
      <header className="approval__header">
        <ShieldIcon className="approval__icon" />
        {agent ? (
          <RelayedTitle request={request} agent={agent} />
        ) : (
          <span className="approval__title">
            <Trans
              t={t}
              i18nKey="approval.allow"
              values={{ tool: toolLabel(request.tool_name) }}
              components={{ code: <code title={toolCalledAs(request.tool_name)} /> }}
            />
          </span>
        )}
        <RiskBadge risk={request.risk} />
      </header>
      <p className="approval__reason">{askReason(request)}</p>
      {request.command && <pre className="approval__command">$ {request.command}</pre>}
      {request.cwd && <p className="approval__cwd">{t("inDir", { cwd: request.cwd })}</p>}
      <ApprovalChoice item={item} sameToolWaiting={0} standalone />
    </section>
  );
}

/** Why Memo asks, in the person's language; sessions stored before phrases have English. */
function askReason(request: ApprovalRequest): string {
  return request.why !== undefined && request.why.length > 0 ? sayAll(request.why) : request.reason;
}

function decisionState(decision: ReviewDecision | null): "pending" | "denied" | "approved" {
  return decision === null ? "pending" : decision.type === "deny" || decision.type === "unanswered" ? "denied" : "approved";
}

/**
 * The approval inside its tool card, in the order things happened: why Memo asks, the
 * hunks to pick while it waits, the buttons; afterwards the decision. The card itself shows
 * the command or the change once.
 */
export function ApprovalInCard({ item, sameToolWaiting }: { item: ApprovalItem; sameToolWaiting: number }) {
  const { request, decision } = item;
  const state = decisionState(decision);
  return (
    <section className={`approval approval--in-card approval--${state}`} data-testid="approval-card" data-state={state}>
      {decision === null && (
        <p className="approval__ask">
          <ShieldIcon className="approval__icon" />
          <span className="approval__reason">{askReason(request)}</span>
          <RiskBadge risk={request.risk} />
        </p>
      )}
      <ApprovalChoice item={item} sameToolWaiting={sameToolWaiting} standalone={false} />
    </section>
  );
}

/**
 * The answer part of an approval: the rule "Always" would keep, the hunks (or edits) to
 * pick, the buttons; once answered, the decision. Standalone, it also shows the diff after
 * the answer (with each hunk's outcome) and the arguments of a call with neither command
 * nor diff; in a tool card the card shows those.
 */
function ApprovalChoice({
  item,
  sameToolWaiting,
  standalone,
}: {
  item: ApprovalItem | StandaloneApproval;
  /** More calls to the same tool wait in this step: one answer can cover them all. */
  sameToolWaiting: number;
  standalone: boolean;
}) {
  const t = useT("transcript");
  const { i18n } = useTranslation();
  const onResolve = useResolveApproval();
  const { request, decision } = item;
  // Buttons lock on click; the card flips to the decision when `approval_resolved` arrives.
  const [answering, setAnswering] = useState(false);
  // An answer that did not reach the engine says so, and the buttons work again.
  const [failure, setFailure] = useState<string | null>(null);
  const answer = (choice: ReviewDecision) => {
    setAnswering(true);
    setFailure(null);
    onResolve(request.request_id, choice)
      .catch((raised: unknown) => setFailure(raised instanceof Error ? raised.message : String(raised)))
      .finally(() => setAnswering(false));
  };
  const hunks = request.diff?.hunks ?? [];
  // Edits on neighbouring lines share a hunk, so a call of several edits is picked from
  // edit by edit, each as it alone changes the file; anything else hunk by hunk.
  const edits = editChoices(request.diff);
  const byEdit = edits.length > 0;
  const choices = byEdit ? edits.map((e) => e.index) : hunks.map((h) => h.index);
  const unit: Unit = byEdit ? "edit" : "hunk";
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set(choices));
  const toggle = (index: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(index)) next.delete(index);
      else next.add(index);
      return next;
    });
  const partial = choices.length > 1 && selected.size < choices.length;
  // Hunks (or edits) can be picked one by one while the request waits, when there is more than one.
  const picking = decision === null && choices.length > 1;
  const pickHunk = (hunk: DiffHunk) => (
    <label className="approval__pick">
      <input
        type="checkbox"
        checked={selected.has(hunk.index)}
        disabled={answering}
        onChange={() => toggle(hunk.index)}
        aria-label={t("approval.applyChange", { n: hunk.index + 1 })}
      />
      {t("approval.apply")}
    </label>
  );
  const hunkState = (index: number): HunkState => {
    if (decision !== null) return hunkOutcome(decision, index);
    return picking && !selected.has(index) ? "excluded" : null;
  };
  const approveOnce = (): ReviewDecision => {
    // Everything checked is the plain answer: the engine then applies the call as made.
    if (!partial) return { type: "approve_once" };
    const accepted = choices.filter((i) => selected.has(i));
    return byEdit ? { type: "approve_once", accepted_edits: accepted } : { type: "approve_once", accepted_hunks: accepted };
  };
  // Why the grants beyond this once are off while only some hunks (or edits) are checked.
  const wholeOnlyTitle = t(`approval.wholeOnly.${unit}`);
  const separator = t("listSeparator");
  // The engine's phrase for the rules, in the page's language; an event stored before
  // phrases has only the English summary, shown in English only (else the patterns).
  const ruleSummary = request.rule_words ? say(request.rule_words) : i18n.language === "en" ? (request.rule_summary ?? null) : null;
  const isMcp = mcpToolParts(request.tool_name) !== null;
  // Once answered, a tool card shows what was written (its view) instead of the proposal.
  const showDiff = request.diff && (standalone || decision === null);
  return (
    <>
      {decision === null && request.rule_patterns && request.rule_patterns.length > 0 && (
        <p className="approval__rule" data-testid="approval-rule">
          {ruleSummary ? (
            // The engine's words: a command that writes is kept exactly, never as a prefix.
            <Trans t={t} i18nKey="approval.ruleSummary" components={{ rule: <RuleWords text={ruleSummary} /> }} />
          ) : (
            <Trans
              t={t}
              i18nKey="approval.rulePatterns"
              components={{
                patterns: (
                  <>
                    {request.rule_patterns.map((p, i) => (
                      <span key={p}>
                        {i > 0 && separator}
                        {/* An MCP rule's `server:tool` is read as the tool is everywhere else. */}
                        {isMcp ? <code title={t("approval.ruleTitle", { pattern: p })}>{mcpRuleLabel(p)}</code> : <code>{p}</code>}
                      </span>
                    ))}
                  </>
                ),
              }}
            />
          )}
        </p>
      )}
      {showDiff && request.diff && byEdit ? (
        <EditList
          diff={request.diff}
          edits={edits}
          decision={decision}
          picking={picking}
          selected={selected}
          disabled={answering}
          onToggle={toggle}
        />
      ) : showDiff && request.diff ? (
        <DiffView
          diff={request.diff}
          testId="approval-diff"
          hunkTestId="approval-hunk"
          toolbar={
            picking && (
              <span className="approval__picked">{t("approval.picked", { selected: selected.size, total: hunks.length })}</span>
            )
          }
          renderHunkActions={picking ? pickHunk : undefined}
          hunkState={hunkState}
        />
      ) : (
        standalone && !request.diff && !request.command && <pre className="approval__args">{prettyArgs(request.arguments)}</pre>
      )}
      {failure !== null && decision === null && (
        <p className="approval__failure" role="alert" data-testid="approval-failure">
          {t("approval.failure", { error: failure })}
        </p>
      )}
      {decision === null ? (
        <div className="approval__actions">
          <button
            type="button"
            className="button button--primary"
            disabled={answering || (choices.length > 1 && selected.size === 0)}
            onClick={() => answer(approveOnce())}
            title={choices.length > 1 && selected.size === 0 ? t(`approval.checkOne.${unit}`) : undefined}
          >
            {partial ? t("approval.applySome", { selected: selected.size, total: choices.length }) : t("approval.once")}
          </button>
          {sameToolWaiting > 0 && request.risk !== "critical" && (
            <button
              type="button"
              className="button"
              disabled={answering || partial}
              onClick={() => answer({ type: "approve_step" })}
              title={
                partial ? wholeOnlyTitle : t("approval.stepTitle", { count: sameToolWaiting, tool: toolLabel(request.tool_name) })
              }
              data-testid="approve-step"
            >
              {t("approval.step", { n: sameToolWaiting + 1 })}
            </button>
          )}
          {/* Only writes can be granted for the session (commands need a kept rule), and a
              grant covers the whole file, so only for the whole change. */}
          {request.risk === "write" && (
            <button
              type="button"
              className="button"
              disabled={answering || partial}
              onClick={() => answer({ type: "approve_for_session" })}
              title={partial ? wholeOnlyTitle : t("approval.sessionTitle")}
            >
              {t("approval.session")}
            </button>
          )}
          {/* "Always" keeps a rule (a command prefix, the files, the MCP tool): whole changes only. */}
          {request.rule_patterns && request.rule_patterns.length > 0 && (
            <>
              <button
                type="button"
                className="button"
                disabled={answering || partial}
                onClick={() => answer({ type: "approve_always", project: true })}
                title={
                  partial
                    ? wholeOnlyTitle
                    : t("approval.keepRuleFolder", { rule: ruleSummary ?? request.rule_patterns.join(separator) })
                }
                data-testid="approve-always-project"
              >
                {t("approval.alwaysFolder")}
              </button>
              {/* A secondary button like its neighbours: drawn quiet, it looked disabled. */}
              <button
                type="button"
                className="button"
                disabled={answering || partial}
                onClick={() => answer({ type: "approve_always", project: false })}
                title={
                  partial
                    ? wholeOnlyTitle
                    : t("approval.keepRuleEverywhere", { rule: ruleSummary ?? request.rule_patterns.join(separator) })
                }
                data-testid="approve-always"
              >
                {t("approval.always")}
              </button>
            </>
          )}
          <button type="button" className="button button--danger" disabled={answering} onClick={() => answer({ type: "deny" })}>
            {t("approval.deny")}
          </button>
        </div>
      ) : (
        <p className="approval__decision" data-testid="approval-decision">
          {describeDecision(decision, hunks, edits)}
        </p>
      )}
    </>
  );
}

/**
 * A several-edit call, edit by edit: each under its label, in a diff of what it alone
 * changes, with its own Apply while the request waits and its outcome once answered.
 */
function EditList({
  diff,
  edits,
  decision,
  picking,
  selected,
  disabled,
  onToggle,
}: {
  diff: FileDiff;
  edits: readonly EditChoice[];
  decision: ReviewDecision | null;
  picking: boolean;
  selected: ReadonlySet<number>;
  disabled: boolean;
  onToggle: (index: number) => void;
}) {
  const t = useT("transcript");
  // The whole change's counts: the edits' own diffs each count only their part.
  const parsed = useMemo(() => parseDiff(diff), [diff]);
  const stateOf = (index: number): HunkState => {
    if (decision !== null) return editOutcome(decision, index);
    return picking && !selected.has(index) ? "excluded" : null;
  };
  return (
    <div className="approval__edits" data-testid="approval-diff">
      <div className="approval__edits-bar">
        <code className="approval__edits-path" title={diff.path}>
          {diff.path}
        </code>
        <DiffStats added={parsed.added} removed={parsed.removed} />
        {picking && (
          <span className="approval__picked">{t("approval.picked", { selected: selected.size, total: edits.length })}</span>
        )}
      </div>
      <ol className="approval__edit-list">
        {edits.map((edit) => {
          const state = stateOf(edit.index);
          return (
            <li
              key={edit.index}
              className={`approval__edit${state ? ` approval__edit--${state}` : ""}`}
              data-testid="approval-edit"
              data-state={state ?? undefined}
            >
              <DiffView
                // Numbered as the file stands after the edits before it, as the engine cut it.
                diff={{ path: diff.path, unified: "", hunks: edit.hunks }}
                showPath={false}
                heading={<span className="approval__edit-label">{edit.label}</span>}
                toolbar={
                  picking && (
                    <label className="approval__pick">
                      <input
                        type="checkbox"
                        checked={selected.has(edit.index)}
                        disabled={disabled}
                        onChange={() => onToggle(edit.index)}
                        aria-label={t("approval.applyEdit", { label: edit.label })}
                      />
                      {t("approval.apply")}
                    </label>
                  )
                }
                hunkState={() => state}
                maxHeight={240}
                testId="approval-edit-diff"
                hunkTestId="approval-hunk"
              />
            </li>
          );
        })}
      </ol>
    </div>
  );
}

/** The engine's sentence with its `backticked` parts shown as code. */
function RuleWords({ text }: { text: string }) {
  const parts = text.split("`");
  return (
    <>
      {parts.map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : <span key={i}>{part}</span>))}
    </>
  );
}
