export { allFiles, pickFiles, pickFolder, pickSavePath, type FileFilter } from "./dialog";
export { IpcError, toIpcError, type ErrorCode } from "./errors";
export { ipc, invokeCall } from "./invoke";
export { homeFolder, withTilde } from "./paths";
export { interruptTurn, resolveApproval, sendUserTurn, submitOp, subscribeSession } from "./sessions";
