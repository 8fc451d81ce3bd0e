import type { ApprovalMode, WorktreeInfo, WorktreeSession } from "../../gen/protocol";
import { useT } from "../../i18n";
import type { SessionBadge } from "../../state/activity";
import { BranchIcon, NewWorktreeSessionButton } from "../worktrees";
import { branchLabel } from "../worktrees/worktreeList";
import { StatusDot } from "./StatusDot";

interface WorktreeListProps {
  /** The open folder; null hides the section. */
  cwd: string | null;
  worktrees: WorktreeInfo[];
  activeSessionId: string | null;
  approvalMode: ApprovalMode | null;
  provider: string | null;
  onStarted: (started: WorktreeSession) => void;
  onOpen: (worktree: WorktreeInfo) => void;
  statusOf: (sessionId: string) => { badge: SessionBadge; count: number };
}

/** The states a worktree's row names instead of showing its session's dot. */
const TAGGED: ReadonlySet<WorktreeInfo["state"]> = new Set<WorktreeInfo["state"]>(["missing", "unlinked"]);

/**
 * The folder's sessions that work in a worktree of their own (a branch under Memo's
 * folder), each by its branch, and the way to start one.
 */
export function WorktreeList(props: WorktreeListProps) {
  const { cwd, worktrees, activeSessionId, onOpen, statusOf } = props;
  const t = useT("sessions");
  if (cwd === null) return null;
  return (
    <section className="sidebar__section" aria-labelledby="sidebar-worktrees" data-testid="worktree-list">
      <div className="sidebar__heading-row">
        <h2 id="sidebar-worktrees" className="sidebar__heading">
          {t("worktrees.heading")}
        </h2>
      </div>
      {worktrees.length > 0 && (
        <ul className="nav-list">
          {worktrees.map((w) => {
            const active = w.session_id !== undefined && w.session_id === activeSessionId;
            const status = w.session_id ? statusOf(w.session_id) : { badge: null, count: 0 };
            const tag = TAGGED.has(w.state) ? t(`worktrees.${w.state}`) : null;
            return (
              <li key={w.id} className={`nav-item${active ? " nav-item--active" : ""}`} data-testid="worktree-row">
                <button
                  type="button"
                  className="nav-item__main"
                  title={[w.branch, w.path].join(" · ")}
                  aria-current={active ? "true" : undefined}
                  disabled={w.session_id === undefined}
                  onClick={() => onOpen(w)}
                  data-testid="worktree-item"
                >
                  <BranchIcon className="nav-item__icon" />
                  <span className="nav-item__label">{branchLabel(w)}</span>
                  {tag ? <span className="nav-item__tag">{tag}</span> : <StatusDot badge={status.badge} count={status.count} />}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <NewWorktreeSessionButton
        cwd={cwd}
        approvalMode={props.approvalMode}
        provider={props.provider}
        variant="menu-item"
        onStarted={props.onStarted}
      />
    </section>
  );
}
