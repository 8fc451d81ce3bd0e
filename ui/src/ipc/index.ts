export { ALL_FILES, pickFiles, pickFolder, pickSavePath, type FileFilter } from "./dialog";
export { CommandError, toCommandError, type ErrorCode } from "./errors";
export { commands, invokeCommand } from "./invoke";
export { homeFolder, withTilde } from "./paths";
export { interruptTurn, resolveApproval, sendUserTurn, submitOp, subscribeSession } from "./sessions";
