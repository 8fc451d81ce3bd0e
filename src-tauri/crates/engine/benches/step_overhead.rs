//! Engine overhead per model step, with a zero-latency in-process model (no HTTP), a real
//! SQLite event log on disk and a no-op tool. What is left is the engine's own cost:
//! building the request, forwarding and persisting events, dispatching tools.
//!
//! Run: `cargo bench -p memo-engine --bench step_overhead`. Prints a Markdown table.

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use memo_engine::tools::{Tool, ToolContext, ToolRegistry, ToolResult};
use memo_engine::{spawn_session, SessionParams, SessionStart, TurnLimits};
use memo_model::{ModelRequest, ModelResponse, ResponseEvent, StopReason, ToolCall};
use memo_protocol::{AgentEvent, Op, RiskLevel, SessionId, TokenUsage, UserInput};
use memo_providers::{ModelClient, ProviderError, ResponseStream};
use memo_store::Store;

/// Answers instantly: `tool_steps` steps that call the no-op tool, then a text answer.
struct InstantModel {
    text_deltas: usize,
    tool_steps: usize,
}

impl ModelClient for InstantModel {
    fn stream(
        &self,
        request: ModelRequest,
    ) -> BoxFuture<'static, Result<ResponseStream, ProviderError>> {
        // Steps taken in this turn = tool results since the last user message.
        let done = request
            .messages
            .iter()
            .rev()
            .take_while(|m| !matches!(m, memo_model::Message::User { .. }))
            .filter(|m| matches!(m, memo_model::Message::ToolResult { .. }))
            .count();
        let wants_tool = done < self.tool_steps;
        let deltas = self.text_deltas;
        Box::pin(async move {
            let mut events = Vec::new();
            let mut response = ModelResponse {
                usage: TokenUsage {
                    input_tokens: 100,
                    output_tokens: 10,
                    ..Default::default()
                },
                ..Default::default()
            };
            for i in 0..deltas {
                let d = format!("word{i} ");
                response.text.push_str(&d);
                events.push(Ok(ResponseEvent::TextDelta(d)));
            }
            if wants_tool {
                events.push(Ok(ResponseEvent::ToolCallStart {
                    index: 0,
                    id: "call_1".into(),
                    name: "noop".into(),
                }));
                events.push(Ok(ResponseEvent::ToolCallArgsDelta {
                    index: 0,
                    delta: "{}".into(),
                }));
                response.tool_calls.push(ToolCall {
                    id: "call_1".into(),
                    name: "noop".into(),
                    arguments: "{}".into(),
                });
                response.stop_reason = Some(StopReason::ToolUse);
            } else {
                response.stop_reason = Some(StopReason::EndTurn);
            }
            events.push(Ok(ResponseEvent::Completed(response)));
            let stream: ResponseStream = Box::pin(futures::stream::iter(events));
            Ok(stream)
        })
    }
}

struct Noop;

impl Tool for Noop {
    fn name(&self) -> &str {
        "noop"
    }
    fn description(&self) -> &str {
        "does nothing"
    }
    fn input_schema(&self) -> serde_json::Value {
        serde_json::json!({"type": "object"})
    }
    fn risk(&self) -> RiskLevel {
        RiskLevel::Read
    }
    fn run(&self, _ctx: ToolContext, _args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        Box::pin(async { Ok("ok".into()) })
    }
}

struct Row {
    scenario: &'static str,
    steps: usize,
    median: Duration,
    p95: Duration,
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let idx = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[idx.min(sorted.len() - 1)]
}

async fn measure(
    scenario: &'static str,
    text_deltas: usize,
    steps_per_turn: u32,
    turns: usize,
) -> Row {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Arc::new(Store::open(dir.path().join("bench.sqlite")).expect("store"));
    let mut tools = ToolRegistry::new();
    tools.register(Arc::new(Noop));
    let session = spawn_session(
        SessionParams {
            id: SessionId::new(format!("bench-{scenario}")),
            cwd: dir.path().to_path_buf(),
            provider: "bench".into(),
            model: "instant".into(),
            client: Arc::new(InstantModel {
                text_deltas,
                tool_steps: steps_per_turn as usize - 1,
            }),
            resolver: None,
            tools,
            store,
            system_prompt: "bench".into(),
            limits: TurnLimits {
                max_steps: steps_per_turn,
                ..TurnLimits::default()
            },
            memo_home: None,
            context: Default::default(),
            checkpoints: None,
        },
        SessionStart::New,
    )
    .expect("session");
    let mut per_step = Vec::with_capacity(turns);
    let mut events = session.subscribe(session.last_seq()).expect("subscribe");
    let mut total_steps = 0;
    for _ in 0..turns {
        let started = Instant::now();
        session
            .submit(Op::UserTurn {
                input: UserInput::text("go"),
            })
            .expect("submit");
        let mut steps = 0u32;
        loop {
            let env = events.recv().await.expect("event");
            match env.event {
                AgentEvent::AssistantMessage { .. } => steps += 1,
                AgentEvent::TurnEnded { .. } => break,
                _ => {}
            }
        }
        per_step.push(started.elapsed() / steps.max(1));
        total_steps += steps as usize;
    }
    session.submit(Op::Shutdown).expect("shutdown");
    session.closed().await;
    per_step.sort();
    Row {
        scenario,
        steps: total_steps,
        median: percentile(&per_step, 0.5),
        p95: percentile(&per_step, 0.95),
    }
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let rows = runtime.block_on(async {
        vec![
            measure("tool step, 1 text delta", 1, 10, 200).await,
            measure("tool step, 20 text deltas", 20, 10, 100).await,
            measure("answer only, 20 text deltas", 20, 1, 300).await,
        ]
    });
    println!("\n## Engine overhead per model step (zero-latency model, SQLite WAL on disk)\n");
    println!("| scenario | steps measured | median per step | p95 per step | target |");
    println!("|---|---:|---:|---:|---|");
    for r in rows {
        println!(
            "| {} | {} | {:.3} ms | {:.3} ms | < 1 ms median |",
            r.scenario,
            r.steps,
            r.median.as_secs_f64() * 1000.0,
            r.p95.as_secs_f64() * 1000.0
        );
    }
}
