import { CheckIcon } from "../../../components/icons";
import type { PlanItem } from "../../../state/transcript";

const STATUS_LABEL = { pending: "to do", in_progress: "in progress", completed: "done" } as const;

/** The agent's current task list, ticked off as it works. */
export function PlanCard({ plan }: { plan: PlanItem }) {
  const done = plan.steps.filter((step) => step.status === "completed").length;
  return (
    <section className="plan" data-testid="plan-card" aria-label="Plan">
      <header className="plan__header">
        <span className="plan__title">Plan</span>
        <span className="plan__progress">
          {done} of {plan.steps.length} done
        </span>
      </header>
      {plan.explanation && <p className="plan__explanation">{plan.explanation}</p>}
      <ol className="plan__steps">
        {plan.steps.map((step, index) => (
          <li key={index} className={`plan__step plan__step--${step.status}`} title={STATUS_LABEL[step.status]}>
            <span className="plan__mark" aria-label={STATUS_LABEL[step.status]}>
              {step.status === "completed" && <CheckIcon />}
            </span>
            <span className="plan__text">{step.step}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
