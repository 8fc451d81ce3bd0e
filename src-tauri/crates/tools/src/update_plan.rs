//! `update_plan`: the model's task checklist. The tool changes nothing on disk; its result
//! carries a `plan_updated` event the engine emits so clients can show the plan.

use futures::future::BoxFuture;
use memo_protocol::{AgentEvent, PlanItem, PlanStatus, PlanView, RiskLevel, ToolView};
use serde::Deserialize;
use serde_json::json;

use crate::{parse_args, Tool, ToolContext, ToolError, ToolOutput, ToolResult};

/// A plan longer than this is a sign of a runaway model, not of a real task.
const MAX_STEPS: usize = 50;
const MAX_STEP_CHARS: usize = 500;

pub struct UpdatePlanTool;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Input {
    #[serde(default)]
    explanation: Option<String>,
    plan: Vec<PlanItem>,
}

impl Tool for UpdatePlanTool {
    fn name(&self) -> &str {
        "update_plan"
    }

    fn description(&self) -> &str {
        "Shows the user your plan for multi-step work: the whole list of steps each time, \
         each `pending`, `in_progress` (at most one) or `completed`."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "explanation": {"type": "string"},
                "plan": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": MAX_STEPS,
                    "items": {
                        "type": "object",
                        "properties": {
                            "step": {"type": "string", "minLength": 1},
                            "status": {"type": "string", "enum": ["pending", "in_progress", "completed"]}
                        },
                        "required": ["step", "status"],
                        "additionalProperties": false
                    }
                }
            },
            "required": ["plan"],
            "additionalProperties": false
        })
    }

    fn view(&self, _: &ToolContext, args: &serde_json::Value) -> ToolView {
        let input: Option<Input> = serde_json::from_value(args.clone()).ok();
        ToolView::Plan(PlanView {
            steps: input.as_ref().map(|i| i.plan.clone()).unwrap_or_default(),
            explanation: input.and_then(|i| i.explanation),
        })
    }

    fn essential(&self) -> bool {
        false
    }

    fn risk(&self) -> RiskLevel {
        RiskLevel::Read
    }

    fn is_mutating(&self) -> bool {
        false
    }

    /// Two plan updates in one step would race for which one the user sees last.
    fn parallel_safe(&self) -> bool {
        false
    }

    fn run(&self, _ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        let result = parse_args::<Input>("update_plan", args).and_then(validate);
        Box::pin(async move { result })
    }
}

fn validate(input: Input) -> ToolResult {
    if input.plan.is_empty() {
        return Err(ToolError::invalid_input("plan must have at least one step"));
    }
    if input.plan.len() > MAX_STEPS {
        return Err(ToolError::invalid_input(format!(
            "plan has {} steps; keep it to at most {MAX_STEPS}",
            input.plan.len()
        )));
    }
    if let Some(bad) = input
        .plan
        .iter()
        .position(|p| p.step.trim().is_empty() || p.step.chars().count() > MAX_STEP_CHARS)
    {
        return Err(ToolError::invalid_input(format!(
            "step {} must be non-empty text of at most {MAX_STEP_CHARS} characters",
            bad + 1
        )));
    }
    let in_progress = input
        .plan
        .iter()
        .filter(|p| p.status == PlanStatus::InProgress)
        .count();
    if in_progress > 1 {
        return Err(ToolError::invalid_input(format!(
            "at most one step can be in_progress at a time ({in_progress} are)"
        )));
    }
    let mut text = String::from("Plan updated:\n");
    for item in &input.plan {
        let mark = match item.status {
            PlanStatus::Completed => "[x]",
            PlanStatus::InProgress => "[~]",
            PlanStatus::Pending => "[ ]",
        };
        text.push_str(&format!("{mark} {}\n", item.step.trim()));
    }
    let explanation = input
        .explanation
        .map(|e| e.trim().to_owned())
        .filter(|e| !e.is_empty());
    let view = ToolView::Plan(PlanView {
        steps: input.plan.clone(),
        explanation: explanation.clone(),
    });
    Ok(ToolOutput {
        content: text,
        event: Some(AgentEvent::PlanUpdated {
            explanation,
            plan: input.plan,
        }),
        view: Some(view),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_protocol::ToolErrorKind;

    fn run(args: serde_json::Value) -> ToolResult {
        let ctx = ToolContext::for_workspace(std::env::temp_dir());
        futures::executor::block_on(UpdatePlanTool.run(ctx, args))
    }

    #[test]
    fn emits_the_plan_event() {
        let out = run(json!({
            "explanation": "started",
            "plan": [
                {"step": "read code", "status": "completed"},
                {"step": "write tool", "status": "in_progress"},
                {"step": "test", "status": "pending"}
            ]
        }))
        .unwrap();
        assert_eq!(
            out.content,
            "Plan updated:\n[x] read code\n[~] write tool\n[ ] test\n"
        );
        let Some(AgentEvent::PlanUpdated { explanation, plan }) = out.event else {
            panic!("no plan event: {:?}", out.event);
        };
        assert_eq!(explanation.as_deref(), Some("started"));
        assert_eq!(plan.len(), 3);
        assert_eq!(plan[1].status, PlanStatus::InProgress);
    }

    #[test]
    fn bad_plans_are_invalid_input() {
        for args in [
            json!({"plan": [
                {"step": "a", "status": "in_progress"},
                {"step": "b", "status": "in_progress"}
            ]}),
            json!({"plan": []}),
            json!({"plan": [{"step": " ", "status": "pending"}]}),
            json!({"plan": [{"step": "a", "status": "done"}]}),
            json!({"steps": []}),
        ] {
            let err = run(args.clone()).unwrap_err();
            assert_eq!(
                err.kind,
                ToolErrorKind::InvalidInput,
                "{args}: {}",
                err.message
            );
        }
        let err = run(json!({"plan": [
            {"step": "a", "status": "in_progress"},
            {"step": "b", "status": "in_progress"}
        ]}))
        .unwrap_err();
        assert!(err.message.contains("at most one step"), "{}", err.message);
    }
}
