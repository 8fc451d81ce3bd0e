import { useT } from "../../i18n";
import type { SessionBadge } from "../../state/activity";

/**
 * A session's state in one glyph: an amber count when it waits for the user, a pulsing
 * dot while it runs, an accent dot when it finished out of sight, a red one when it failed.
 */
export function StatusDot({ badge, count = 0 }: { badge: SessionBadge; count?: number }) {
  const t = useT("sessions");
  if (badge === null) return null;
  const label = badge === "waiting" && count > 0 ? t("status.waitingCount", { n: count }) : t(`status.${badge}`);
  return (
    <span className={`session-dot session-dot--${badge}`} title={label} aria-label={label} role="img" data-testid="session-status" data-state={badge}>
      {badge === "waiting" && count > 0 ? count : null}
    </span>
  );
}
