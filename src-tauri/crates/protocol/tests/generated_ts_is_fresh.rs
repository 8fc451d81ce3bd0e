use std::path::PathBuf;

#[test]
fn committed_typescript_matches_the_rust_types() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../..")
        .join(memo_protocol::typescript::GENERATED_PATH);
    let committed = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{} missing ({e}); run `cargo run -p memo-protocol --bin gen-ts`",
            path.display()
        )
    });
    let fresh = memo_protocol::typescript::render();
    assert!(
        committed == fresh,
        "{} is stale; run `cargo run -p memo-protocol --bin gen-ts`",
        path.display()
    );
}

#[test]
fn events_round_trip_through_json_with_snake_case_tags() {
    use memo_protocol::*;
    let env = EventEnvelope {
        session_id: SessionId::new("s1"),
        turn_id: Some(TurnId::new("t1")),
        seq: 7,
        timestamp_ms: 1,
        event: AgentEvent::TextDelta { delta: "hi".into() },
    };
    let json = serde_json::to_value(&env).unwrap();
    assert_eq!(json["event"]["type"], "text_delta");
    let back: EventEnvelope = serde_json::from_value(json).unwrap();
    assert_eq!(back, env);
    let op: Op = serde_json::from_str(
        r#"{"type":"resolve_approval","request_id":"a","decision":{"type":"approve_for_session"}}"#,
    )
    .unwrap();
    assert!(matches!(
        op,
        Op::ResolveApproval {
            decision: ReviewDecision::ApproveForSession,
            ..
        }
    ));
}
