import { useEffect, useState } from "react";

import { Spinner } from "../../../components/icons";
import { useT } from "../../../i18n";
import type { ModelWaiting } from "../../../state/transcript";

/** "1.2k" */
function tokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)}k` : `${n}`;
}

/** "0:07", "3:41" */
export function clock(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * The request is out and nothing came back yet: the model is reading the prompt. A local
 * model on a CPU can take minutes here; saying so (and for how long) beats a bare spinner
 * that looks stuck. Ticks once a second only while shown.
 */
export function ReadingPrompt({ waiting }: { waiting: ModelWaiting }) {
  const t = useT("transcript");
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  const elapsed = now - waiting.sinceMs;
  return (
    <div className="turn__working" data-testid="reading-prompt">
      <Spinner /> {t("reading.prompt", { tokens: tokens(waiting.inputTokens), elapsed: clock(elapsed) })}
      {waiting.local && elapsed > 15_000 && <span className="turn__working-note">{t("reading.localSlow")}</span>}
    </div>
  );
}
