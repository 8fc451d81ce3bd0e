// What the subagent cards of a transcript read besides their own call: the session's
// agents as its log tells them, and how to open one's transcript.
import { createContext, useContext } from "react";

import type { SubagentView } from "../../state/transcript";

export interface SubagentsContextValue {
  agents: Readonly<Record<string, SubagentView>>;
  /** Shows the agent's own transcript; null where that is not offered (a child's view). */
  open: ((agentId: string) => void) | null;
}

const NONE: SubagentsContextValue = { agents: {}, open: null };

export const SubagentsContext = createContext<SubagentsContextValue>(NONE);

export function useSubagents(): SubagentsContextValue {
  return useContext(SubagentsContext);
}
