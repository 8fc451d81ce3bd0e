import type { ReactNode } from "react";

/** A settings page's heading: its title, the sentence under it, and its actions on the right. */
export function PageHeader({ title, lead, children }: { title: ReactNode; lead?: ReactNode; children?: ReactNode }) {
  return (
    <header className="settings-page__header">
      <div>
        <h2 className="settings-page__title">{title}</h2>
        {lead !== undefined && <p className="settings-page__lead">{lead}</p>}
      </div>
      {children}
    </header>
  );
}
