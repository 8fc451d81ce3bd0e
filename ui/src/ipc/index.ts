export { pickFolder, pickSavePath } from "./dialog";
export { CommandError, toCommandError, type ErrorCode } from "./errors";
export { commands, invokeCommand } from "./invoke";
export { interruptTurn, resolveApproval, sendUserTurn, submitOp, subscribeSession } from "./sessions";
