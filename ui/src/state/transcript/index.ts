export { isRelayed, mergeAgents, waitingApprovals } from "./subagents";
export { applyBatch, applyEnvelope, emptyTranscript, isPendingApproval, runningTurn } from "./reducer";
export type * from "./types";
export { worded } from "./wording";
export type { Wording } from "./wording";
