import { useEffect, useState } from "react";

import { useT } from "../../i18n";
import {
  defaultAttentionPrefs,
  loadAttentionPrefs,
  saveAttentionPrefs,
  type AttentionPrefs,
} from "../../state/attentionPrefs";

import "./notifications.css";
import { PageHeader } from "../../components/PageHeader";

interface NotificationsPageProps {
  /** The Memo home the switches belong to; null until known. */
  scope: string | null;
}

/**
 * Settings → Notifications: whether a session that needs approval or finishes while you
 * look elsewhere raises a desktop notification, and whether the window shows how many
 * sessions wait. Saved at once.
 */
export function NotificationsPage({ scope }: NotificationsPageProps) {
  const t = useT("notifications");
  const [prefs, setPrefs] = useState<AttentionPrefs>(defaultAttentionPrefs);
  useEffect(() => {
    if (scope !== null) setPrefs(loadAttentionPrefs(window.localStorage, scope));
  }, [scope]);

  const change = (next: AttentionPrefs) => {
    setPrefs(next);
    if (scope !== null) saveAttentionPrefs(window.localStorage, scope, next);
  };

  return (
    <div className="settings-page" data-testid="notifications-page">
      <PageHeader title={t("title")} lead={t("lead")} />
      <div className="notify-options">
        <label className="notify-option">
          <input
            type="checkbox"
            checked={prefs.desktop}
            disabled={scope === null}
            onChange={(e) => change({ ...prefs, desktop: e.target.checked })}
            data-testid="notify-desktop"
          />
          <span className="notify-option__text">
            <span className="notify-option__title">{t("desktop.title")}</span>
            <span className="notify-option__hint">{t("desktop.hint")}</span>
          </span>
        </label>
        <label className="notify-option">
          <input
            type="checkbox"
            checked={prefs.badge}
            disabled={scope === null}
            onChange={(e) => change({ ...prefs, badge: e.target.checked })}
            data-testid="notify-badge"
          />
          <span className="notify-option__text">
            <span className="notify-option__title">{t("badge.title")}</span>
            <span className="notify-option__hint">{t("badge.hint")}</span>
          </span>
        </label>
      </div>
    </div>
  );
}
