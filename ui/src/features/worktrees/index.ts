export { NewWorktreeSessionButton, type NewWorktreeSessionButtonProps } from "./NewWorktreeSessionButton";
export { WorktreePanel, type WorktreePanelProps } from "./WorktreePanel";
export { useWorktree, type Worktree, type WorktreeAction } from "./useWorktree";
export { BranchIcon } from "./BranchIcon";
