//! exec_command's commands do not inherit what Memo set in its own environment for WebKit
//! (the names memo-child-env lists), while the user's own variables pass through.

use memo_tools::{exec_tools, SandboxPolicy, Tool, ToolContext};
use serde_json::json;

#[tokio::test]
async fn memos_own_variables_stay_out_of_the_commands_it_runs() {
    // The only test of this binary: changing the environment races with nothing here.
    memo_child_env::set_for_self("MEMO_TEST_FOR_WEBKIT_ONLY", "1");
    std::env::set_var("MEMO_TEST_USERS_OWN", "2");
    let ws = tempfile::tempdir().unwrap();
    let (exec, _stdin) = exec_tools(SandboxPolicy::Off);
    let out = exec
        .run(
            ToolContext::for_workspace(ws.path()),
            json!({"cmd": "env", "login": false}),
        )
        .await
        .unwrap()
        .content;
    assert!(out.contains("MEMO_TEST_USERS_OWN=2"), "{out}");
    assert!(!out.contains("MEMO_TEST_FOR_WEBKIT_ONLY"), "{out}");
    assert!(!out.contains(memo_child_env::MARKER), "{out}");
}
