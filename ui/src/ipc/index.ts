export { getAppInfo, type AppInfo } from "./commands";
export { CommandError, toCommandError, type ErrorCode, type CommandErrorPayload } from "./errors";
export { invokeCommand } from "./invoke";
