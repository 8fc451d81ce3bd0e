export { getAppInfo, type AppInfo } from "./commands";
export { pickFolder } from "./dialog";
export { CommandError, toCommandError, type ErrorCode, type CommandErrorPayload } from "./errors";
export { invokeCommand } from "./invoke";
export { promptLayers, type PromptLayersArgs } from "./prompt";
export {
  interruptTurn,
  listProviders,
  listSessions,
  resolveApproval,
  resumeSession,
  sendUserTurn,
  startSession,
  submitOp,
  subscribeSession,
  type StartSessionArgs,
} from "./sessions";
