export { getAppInfo, type AppInfo } from "./commands";
export { pickFolder } from "./dialog";
export { CommandError, toCommandError, type ErrorCode, type CommandErrorPayload } from "./errors";
export { invokeCommand } from "./invoke";
export { promptLayers, type PromptLayersArgs } from "./prompt";
export {
  deleteSession,
  interruptTurn,
  listProviders,
  listSessions,
  renameSession,
  resolveApproval,
  resumeSession,
  rewindSession,
  searchSessions,
  sendUserTurn,
  startSession,
  submitOp,
  subscribeSession,
  type StartSessionArgs,
} from "./sessions";
export { deleteApiKey, keyStatus, setApiKey } from "./keys";
