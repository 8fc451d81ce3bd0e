import { ShieldIcon } from "../../components/icons";
import type { WorkspaceTrustReport } from "../../gen/protocol";

interface TrustBannerProps {
  report: WorkspaceTrustReport | null;
  onReview: () => void;
}

/** Says, while the folder's project servers are off, that they are and why. */
export function TrustBanner({ report, onReview }: TrustBannerProps) {
  if (report === null || report.state === "trusted") return null;
  const count = report.servers.length;
  const rules = report.permissions.length;
  const hooks = report.hooks.length;
  const prompts = report.prompt_files.length;
  if (count === 0 && rules === 0 && hooks === 0 && prompts === 0) return null;
  const parts = [
    ...(count === 1 ? [`its MCP server ${report.servers[0]?.name ?? ""}`] : count > 1 ? [`its ${count} MCP servers`] : []),
    ...(rules > 0 ? [`its ${rules === 1 ? "allow rule" : `${rules} allow rules`}`] : []),
    ...(hooks > 0 ? [`its ${hooks === 1 ? "hook" : `${hooks} hooks`}`] : []),
    ...report.prompt_files.map((f) => `its ${f.path}`),
  ];
  const what = parts.join(" and ");
  const plural = count + rules + hooks + prompts > 1;
  return (
    <div className="banner banner--warning trust-banner" role="status" data-testid="trust-banner">
      <ShieldIcon className="banner__icon" />
      <div className="banner__content">
        <span className="trust-banner__text">
          {report.state === "untrusted" ? "This folder is not trusted" : "This folder is not trusted yet"}: {what}{" "}
          {plural ? "are" : "is"} not used{prompts > 0 ? " (Memo's own base instructions are)" : ""}.
        </span>
      </div>
      <button type="button" className="button button--quiet banner__action" onClick={onReview} data-testid="trust-review">
        Review…
      </button>
    </div>
  );
}
