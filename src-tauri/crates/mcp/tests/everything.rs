//! @modelcontextprotocol/server-everything over stdio, streamable HTTP and the legacy SSE
//! transport: tools (echo, get-sum, long-running with progress), resources, templates,
//! prompts with arguments — through the same agent tools a session gets.

mod common;

use common::*;
use memo_mcp::{McpManager, McpToolSource, PromptCommand, ServerStatus};
use memo_protocol::RiskLevel;
use memo_tools::{ToolContext, ToolSource};
use serde_json::json;

async fn run(
    source: &McpToolSource,
    ctx: &ToolContext,
    name: &str,
    args: serde_json::Value,
) -> String {
    let tool = source.get(name).unwrap_or_else(|| panic!("no tool {name}"));
    match tool.run(ctx.clone(), args).await {
        Ok(out) => out.content,
        Err(e) => panic!("{name} failed: {e:?}"),
    }
}

/// Everything a session does with one server, whatever the transport.
async fn exercise(manager: McpManager, server: &str, dir: &std::path::Path) {
    manager.wait_ready().await;
    let snap = manager.server(server).unwrap();
    assert_eq!(snap.status, ServerStatus::Ready, "{snap:#?}");
    assert!(snap.tools.iter().any(|t| t == "echo"), "{:?}", snap.tools);
    let source = McpToolSource::new(manager.clone());
    let listed: Vec<String> = source.tools().iter().map(|t| t.name().to_owned()).collect();
    let echo = format!("{server}__echo");
    for expected in [
        echo.as_str(),
        "list_mcp_resources",
        "list_mcp_resource_templates",
        "read_mcp_resource",
    ] {
        assert!(
            listed.iter().any(|n| n == expected),
            "{expected} not in {listed:?}"
        );
    }
    let echo_tool = source.get(&echo).unwrap();
    assert_eq!(
        echo_tool.risk(),
        RiskLevel::Read,
        "the server marks echo read-only (readOnlyHint), over its name's rating"
    );
    let preview = echo_tool
        .preview(&ToolContext::for_workspace(dir), &json!({"message": "hi"}))
        .await
        .unwrap();
    assert_eq!(preview.fingerprint, format!("mcp:{server}:echo"));
    assert!(preview.command.unwrap().contains("\"hi\""));

    let (ctx, progress) = ctx_with_progress(dir);
    assert_eq!(
        run(&source, &ctx, &echo, json!({"message": "hi"})).await,
        "Echo: hi"
    );
    let sum = run(
        &source,
        &ctx,
        &format!("{server}__get-sum"),
        json!({"a": 2, "b": 3}),
    )
    .await;
    assert!(sum.contains('5'), "{sum}");
    let long = run(
        &source,
        &ctx,
        &format!("{server}__trigger-long-running-operation"),
        json!({"duration": 1, "steps": 3}),
    )
    .await;
    assert!(long.contains("Long running operation completed"), "{long}");
    let seen = progress.lock().unwrap().clone();
    assert_eq!(
        seen.iter()
            .map(|p| (p.progress, p.total))
            .collect::<Vec<_>>(),
        [(1.0, Some(3.0)), (2.0, Some(3.0)), (3.0, Some(3.0))]
    );

    let resources = run(
        &source,
        &ctx,
        "list_mcp_resources",
        json!({"server": server}),
    )
    .await;
    let resources: serde_json::Value = serde_json::from_str(&resources).unwrap();
    let first = &resources["resources"][0];
    assert_eq!(first["server"], server);
    let uri = first["uri"].as_str().unwrap().to_owned();
    let all = run(&source, &ctx, "list_mcp_resources", json!({})).await;
    assert!(all.contains(&uri));
    let templates = run(&source, &ctx, "list_mcp_resource_templates", json!({})).await;
    assert!(
        templates.contains("demo://resource/dynamic/text/{resourceId}"),
        "{templates}"
    );
    let read = run(
        &source,
        &ctx,
        "read_mcp_resource",
        json!({"server": server, "uri": uri}),
    )
    .await;
    assert!(!read.is_empty());
    let dynamic = run(
        &source,
        &ctx,
        "read_mcp_resource",
        json!({"server": server, "uri": "demo://resource/dynamic/text/7"}),
    )
    .await;
    assert!(dynamic.contains('7'), "{dynamic}");

    let prompts = manager.prompts();
    assert!(prompts
        .iter()
        .any(|p| p.command() == format!("{server}:args-prompt")));
    assert!(manager.is_prompt_command(&format!("/{server}:args-prompt x")));
    assert!(!manager.is_prompt_command("/nosuch:args-prompt x"));
    match manager
        .expand_prompt_command(&format!("/{server}:args-prompt \"New York\" state=NY"))
        .await
    {
        Some(PromptCommand::Expanded { command, text }) => {
            assert_eq!(command, format!("/{server}:args-prompt"));
            assert!(text.contains("New York") && text.contains("NY"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    match manager
        .expand_prompt_command(&format!("/{server}:args-prompt"))
        .await
    {
        Some(PromptCommand::Failed { message, .. }) => {
            assert!(message.contains("missing argument: city"), "{message}")
        }
        other => panic!("{other:?}"),
    }
    match manager
        .expand_prompt_command(&format!("/{server}:nope"))
        .await
    {
        Some(PromptCommand::Failed { message, .. }) => {
            assert!(message.contains("has no prompt \"nope\""), "{message}")
        }
        other => panic!("{other:?}"),
    }
    manager.stop().await;
    assert_eq!(
        manager.server(server).unwrap().status,
        ServerStatus::Stopped
    );
}

#[tokio::test]
async fn everything_over_stdio() {
    let dir = tempfile::tempdir().unwrap();
    let manager = McpManager::start(
        vec![stdio("everything", "node", &[&everything_js(), "stdio"])],
        options(dir.path()),
    );
    exercise(manager, "everything", dir.path()).await;
}

#[tokio::test]
async fn everything_over_streamable_http() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, port) = everything_http("streamableHttp").await;
    let manager = McpManager::start(
        vec![http(
            "remote",
            &format!("http://127.0.0.1:{port}/mcp"),
            false,
        )],
        options(dir.path()),
    );
    exercise(manager, "remote", dir.path()).await;
}

#[tokio::test]
async fn everything_over_legacy_sse() {
    let dir = tempfile::tempdir().unwrap();
    let (_server, port) = everything_http("sse").await;
    let manager = McpManager::start(
        vec![http(
            "legacy",
            &format!("http://127.0.0.1:{port}/sse"),
            true,
        )],
        options(dir.path()),
    );
    exercise(manager, "legacy", dir.path()).await;
}

#[tokio::test]
async fn many_tools_are_deferred_behind_a_search() {
    let dir = tempfile::tempdir().unwrap();
    let mut opts = options(dir.path());
    opts.defer_threshold = 3;
    let manager = McpManager::start(
        vec![stdio("ev", "node", &[&everything_js(), "stdio"])],
        opts,
    );
    manager.wait_ready().await;
    let source = McpToolSource::new(manager.clone());
    let names = |s: &McpToolSource| -> Vec<String> {
        s.tools().iter().map(|t| t.name().to_owned()).collect()
    };
    let before = names(&source);
    assert!(
        before.contains(&"search_mcp_tools".to_owned()),
        "{before:?}"
    );
    assert!(!before.iter().any(|n| n.starts_with("ev__")), "{before:?}");
    let search = source.get("search_mcp_tools").unwrap();
    assert!(
        search.description().contains("ev ("),
        "{}",
        search.description()
    );
    let generation = source.generation();
    let found = search
        .run(
            ToolContext::for_workspace(dir.path()),
            json!({"query": "echo message"}),
        )
        .await
        .unwrap()
        .content;
    assert!(
        found.contains("\"ev__echo\"") && found.contains("input_schema"),
        "{found}"
    );
    assert_ne!(
        source.generation(),
        generation,
        "loading tools changes the definitions"
    );
    let after = names(&source);
    assert!(after.contains(&"ev__echo".to_owned()), "{after:?}");
    // A deferred tool the model names directly still resolves.
    assert!(source.get("ev__get-sum").is_some());
    manager.stop().await;
}

#[tokio::test]
async fn filesystem_server_in_a_temp_dir() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::write(root.join("hello.txt"), "hello from the test\n").unwrap();
    let manager = McpManager::start(
        vec![stdio(
            "fs",
            "node",
            &[&filesystem_js(), root.to_str().unwrap()],
        )],
        options(&root),
    );
    manager.wait_ready().await;
    let source = McpToolSource::new(manager.clone());
    let ctx = ToolContext::for_workspace(&root);
    let listing = run(&source, &ctx, "fs__list_directory", json!({"path": root})).await;
    assert!(listing.contains("hello.txt"), "{listing}");
    let text = run(
        &source,
        &ctx,
        "fs__read_text_file",
        json!({"path": root.join("hello.txt")}),
    )
    .await;
    assert_eq!(text.trim(), "hello from the test");
    let write = source.get("fs__write_file").unwrap();
    assert!(write.risk() >= RiskLevel::Write);
    write
        .run(
            ctx.clone(),
            json!({"path": root.join("new.txt"), "content": "written"}),
        )
        .await
        .unwrap();
    assert_eq!(
        std::fs::read_to_string(root.join("new.txt")).unwrap(),
        "written"
    );
    let outside = source
        .get("fs__read_text_file")
        .unwrap()
        .run(ctx, json!({"path": "/etc/hostname"}))
        .await
        .unwrap_err();
    assert!(
        outside.message.contains("MCP tool reported an error"),
        "{outside:?}"
    );
    let pid = manager.server("fs").unwrap().pid.unwrap();
    manager.stop().await;
    assert!(!process_alive(pid), "the server process outlived stop()");
}
