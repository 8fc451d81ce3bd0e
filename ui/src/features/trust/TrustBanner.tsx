import { ShieldIcon } from "../../components/icons";
import type { WorkspaceTrustReport } from "../../gen/protocol";

interface TrustBannerProps {
  report: WorkspaceTrustReport | null;
  onReview: () => void;
}

/** Says, while the folder's project servers are off, that they are and why. */
export function TrustBanner({ report, onReview }: TrustBannerProps) {
  if (report === null || report.servers.length === 0 || report.state === "trusted") return null;
  const count = report.servers.length;
  const what = count === 1 ? `its MCP server ${report.servers[0]?.name ?? ""}` : `its ${count} MCP servers`;
  return (
    <div className="banner banner--warning trust-banner" role="status" data-testid="trust-banner">
      <ShieldIcon className="banner__icon" />
      <div className="banner__content">
        <span className="trust-banner__text">
          {report.state === "untrusted" ? "This folder is not trusted" : "This folder is not trusted yet"}: {what}{" "}
          {count === 1 ? "is" : "are"} not started.
        </span>
      </div>
      <button type="button" className="button button--quiet banner__action" onClick={onReview} data-testid="trust-review">
        Review…
      </button>
    </div>
  );
}
