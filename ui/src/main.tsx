import { StrictMode, useEffect } from "react";
import { createRoot } from "react-dom/client";

import { App } from "./App";
import { setUpI18n } from "./i18n";
import { applyStoredAppearance } from "./state/appearance";
import { receiveMessages } from "./ipc/mailbox";
import { placeCaretAgain } from "./state/caret";
import { onWindowSignal } from "./state/windowSignals";
import "./styles/app.css";
import "./styles/forms.css";
import "./styles/code.css";

const container = document.getElementById("root");
if (!container) {
  // index.html ships the root element; without it nothing can render, so say so loudly.
  throw new Error("Memo UI: #root element is missing from index.html");
}

declare global {
  interface Window {
    /** When the window first showed the app (ms since the epoch); the app benchmark reads it. */
    __memoFirstPaint?: number;
  }
}

/** Notes the first frame painted after the app's first render. */
function FirstPaint() {
  useEffect(() => {
    // The frame after the one the first render is drawn in: that one has been painted.
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        window.__memoFirstPaint ??= performance.timeOrigin + performance.now();
      }),
    );
  }, []);
  return null;
}

// The person's theme before the first render, so no frame shows another.
applyStoredAppearance();
// Before anything subscribes: every channel's messages arrive through it.
receiveMessages();
onWindowSignal("place_caret", () => placeCaretAgain());

// The person's language too: a language other than English has its catalogs loaded before
// the first render, so no frame shows English first. (No top-level await: the build
// targets WebKit versions without it.) Catalogs that cannot be loaded leave English.
setUpI18n()
  .catch((error: unknown) => console.error("Memo UI: the chosen language could not be loaded; showing English:", error))
  .finally(() =>
    createRoot(container).render(
      <StrictMode>
        <App />
        <FirstPaint />
      </StrictMode>,
    ),
  );
