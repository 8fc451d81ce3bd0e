import { createContext } from "react";

/**
 * Whether the controls in a crowded bar (the chat header) show their icon alone, their
 * words in the tooltip. Provided by the bar, read by controls it is handed from elsewhere
 * (the approval mode pill), which cannot see how wide the bar is.
 */
export const IconOnlyContext = createContext(false);
