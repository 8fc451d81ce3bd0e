import { ShieldIcon } from "../../components/icons";
import type { WorkspaceTrustReport } from "../../gen/protocol";
import { useT } from "../../i18n";

interface TrustBannerProps {
  report: WorkspaceTrustReport | null;
  onReview: () => void;
}

/** Says, while the folder's project servers are off, that they are and why. */
export function TrustBanner({ report, onReview }: TrustBannerProps) {
  const t = useT("trust");
  if (report === null || report.state === "trusted") return null;
  const count = report.servers.length;
  const rules = report.permissions.length;
  const hooks = report.hooks.length;
  const prompts = report.prompt_files.length;
  if (count === 0 && rules === 0 && hooks === 0 && prompts === 0) return null;
  const parts = [
    ...(count === 1
      ? [t("banner.server", { name: report.servers[0]?.name ?? "" })]
      : count > 1
        ? [t("banner.servers", { count })]
        : []),
    ...(rules > 0 ? [t("banner.rules", { count: rules })] : []),
    ...(hooks > 0 ? [t("banner.hooks", { count: hooks })] : []),
    ...report.prompt_files.map((f) => t("banner.promptFile", { path: f.path })),
  ];
  const text = t(report.state === "untrusted" ? "banner.untrusted" : "banner.notYet", {
    // One thing "is" not used, more "are".
    count: count + rules + hooks + prompts,
    what: parts.join(t("banner.and")),
    extra: prompts > 0 ? t("banner.ownInstructions") : "",
  });
  return (
    <div className="banner banner--warning trust-banner" role="status" data-testid="trust-banner">
      <ShieldIcon className="banner__icon" />
      <div className="banner__content">
        <span className="trust-banner__text">{text}</span>
      </div>
      <button type="button" className="button button--quiet banner__action" onClick={onReview} data-testid="trust-review">
        {t("banner.review")}
      </button>
    </div>
  );
}
