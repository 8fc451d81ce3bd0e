import { useT } from "../../i18n";
import { Markdown } from "../chat/markdown/LazyMarkdown";
import { INVESTIGATOR, parseReport, type InvestigatorReport } from "./agents";

/**
 * A subagent's answer: the investigator's structured report as a report (summary, the
 * places that matter and why), any other agent's as Markdown.
 */
export function AgentAnswer({ answer, agentType }: { answer: string; agentType: string | null }) {
  // Any agent may be told to answer in the report's shape; a cut or prose answer is text.
  const report = agentType === INVESTIGATOR || answer.trimStart().startsWith("{") ? parseReport(answer) : null;
  if (report !== null) return <ReportView report={report} />;
  return (
    <div className="agent-answer" data-testid="subagent-answer">
      <Markdown text={answer} />
    </div>
  );
}

function ReportView({ report }: { report: InvestigatorReport }) {
  const t = useT("subagents");
  return (
    <div className="agent-report" data-testid="subagent-report">
      <div className="agent-answer">
        <Markdown text={report.summary} />
      </div>
      {report.locations.length > 0 && (
        <section>
          <h4 className="agent-card__label">{t("report.locations")}</h4>
          <ul className="agent-report__locations">
            {report.locations.map((location, index) => (
              <li key={`${location.filePath}-${index}`} className="agent-report__location" data-testid="report-location">
                <code className="agent-report__path" title={location.filePath}>
                  {location.filePath}
                </code>
                {location.reasoning && <p className="agent-report__reason">{location.reasoning}</p>}
                {location.keySymbols.length > 0 && (
                  <p className="agent-report__symbols">
                    {location.keySymbols.map((symbol) => (
                      <code key={symbol} className="agent-report__symbol">
                        {symbol}
                      </code>
                    ))}
                  </p>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {report.explorationTrace.length > 0 && (
        <details className="agent-report__trace">
          <summary>{t("report.trace", { n: report.explorationTrace.length })}</summary>
          <ol>
            {report.explorationTrace.map((step, index) => (
              <li key={index}>{step}</li>
            ))}
          </ol>
        </details>
      )}
    </div>
  );
}
