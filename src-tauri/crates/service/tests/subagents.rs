//! A subagent's session seen from the desktop: reached through its live parent, refused
//! direct input, shown (not resumed) once its parent is gone, left out of the list, and
//! the agent types a folder offers.

mod support;

use std::time::Duration;

use memo_protocol::{AgentEvent, AgentSource, Op, SessionId, UserInput};
use memo_test_support::MockResponse;
use serde_json::json;
use support::fixture;

fn spawn(task: &str) -> MockResponse {
    MockResponse::tool_call("spawn_agent", json!({ "message": task }).to_string())
}

#[tokio::test]
async fn a_child_is_reached_through_its_parent_and_shown_after_it() {
    let f = fixture(vec![
        spawn("CHILD-S: say hi").when("PARENT-S"),
        MockResponse::text("hi from the child").when("CHILD-S"),
        MockResponse::tool_call("wait", "{}").when("PARENT-S"),
        MockResponse::text("done").when("PARENT-S"),
    ])
    .await;
    let parent = f.start();
    f.turn(&parent.id, "PARENT-S").await;
    let store_kids: Vec<SessionId> = {
        let page = f
            .service
            .history_page(&parent.id, None, None, None)
            .unwrap();
        page.events
            .iter()
            .filter_map(|e| match &e.event {
                AgentEvent::SubagentStarted { agent, .. } => Some(agent.session_id.clone()),
                _ => None,
            })
            .collect()
    };
    assert_eq!(store_kids.len(), 1);
    let child = &store_kids[0];

    // Live: its events stream through the parent, and it takes no direct input.
    let mut events = f.service.subscribe(child, 0).unwrap();
    let first = tokio::time::timeout(Duration::from_secs(5), events.recv())
        .await
        .unwrap()
        .unwrap();
    assert!(matches!(first.event, AgentEvent::SessionStarted { .. }));
    let refused = f.service.submit(
        child,
        Op::UserTurn {
            input: UserInput::text("psst"),
        },
    );
    assert!(refused.unwrap_err().to_string().contains("not directly"));

    // The list shows the parent only; the child's summary names its type and parent.
    let listed = f.service.list_sessions(None, 50, 0).unwrap();
    assert_eq!(listed.sessions.len(), 1);
    let summary = f.service.resume_session(child, None).unwrap();
    assert_eq!(summary.agent_type.as_deref(), Some("general"));
    assert_eq!(summary.parent_session_id.as_ref(), Some(&parent.id));
    assert!(
        !f.service.is_live(child),
        "a child is never made live on its own"
    );

    // With its parent closed, its stored transcript still streams, then ends.
    assert!(f.service.close_session(&parent.id).await);
    let mut stored = f.service.subscribe(child, 0).unwrap();
    let mut texts = Vec::new();
    loop {
        let next = tokio::time::timeout(Duration::from_secs(5), stored.recv())
            .await
            .expect("a stored transcript ends instead of waiting for more");
        match next {
            Some(env) => {
                if let AgentEvent::AssistantMessage { text, .. } = env.event {
                    texts.push(text);
                }
            }
            None => break,
        }
    }
    assert_eq!(texts, vec!["hi from the child"]);
}

#[tokio::test]
async fn the_folder_lists_its_agent_types() {
    let f = fixture(vec![]).await;
    let agents = f.work.path().join(".claude/agents");
    std::fs::create_dir_all(&agents).unwrap();
    std::fs::write(
        agents.join("tester.md"),
        "---\nname: tester\ndescription: Runs the tests\ntools: Bash\n---\nRun them.",
    )
    .unwrap();
    std::fs::write(agents.join("broken.md"), "nothing here").unwrap();
    let page = f.service.list_agents(f.work.path()).unwrap();
    let names: Vec<&str> = page.agents.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, vec!["general", "codebase_investigator", "tester"]);
    let tester = &page.agents[2];
    assert_eq!(tester.source, AgentSource::Project);
    assert_eq!(tester.tools.as_deref(), Some(&["Bash".to_owned()][..]));
    assert_eq!(page.problems.len(), 1);
    assert!(page.collab_enabled);
    assert_eq!(page.max_agents, 4);
}
