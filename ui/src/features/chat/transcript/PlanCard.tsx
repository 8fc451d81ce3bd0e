import { CheckIcon } from "../../../components/icons";
import { useT } from "../../../i18n";
import type { PlanItem } from "../../../state/transcript";

/** The agent's current task list, ticked off as it works. */
export function PlanCard({ plan }: { plan: PlanItem }) {
  const t = useT("transcript");
  const done = plan.steps.filter((step) => step.status === "completed").length;
  return (
    <section className="plan" data-testid="plan-card" aria-label={t("plan.title")}>
      <header className="plan__header">
        <span className="plan__title">{t("plan.title")}</span>
        <span className="plan__progress">{t("plan.progress", { done, total: plan.steps.length })}</span>
      </header>
      {plan.explanation && <p className="plan__explanation">{plan.explanation}</p>}
      <ol className="plan__steps">
        {plan.steps.map((step, index) => (
          <li key={index} className={`plan__step plan__step--${step.status}`} title={t(`plan.status.${step.status}`)}>
            <span className="plan__mark" aria-label={t(`plan.status.${step.status}`)}>
              {step.status === "completed" && <CheckIcon />}
            </span>
            <span className="plan__text">{step.step}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
