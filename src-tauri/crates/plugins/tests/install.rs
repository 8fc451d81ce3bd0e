//! Installing, switching and removing plugins in a real Memo home, from a real folder and
//! a real git repository; and what an installed plugin is read to bring.

use std::path::{Path, PathBuf};
use std::process::Command;

use memo_plugins::{
    agent_dirs, read_parts, session_dirs, session_hooks, session_mcp_servers, InstallSource,
    PluginError, Plugins, Source,
};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/memo-demo")
}

/// A copy of the fixture to install from (so a test can change it or watch it).
fn source_copy(dir: &Path) -> PathBuf {
    let to = dir.join("memo-demo-src");
    copy(&fixture(), &to);
    to
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Every file under `dir`, relative, with its content: to see a folder did not change.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    fn walk(root: &Path, dir: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                out.push((
                    path.strip_prefix(root).unwrap().to_path_buf(),
                    std::fs::read(&path).unwrap(),
                ));
            }
        }
    }
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// What is in `$MEMO_HOME/plugins` (names only, sorted).
fn plugins_dir_names(home: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(home.join("plugins"))
        .map(|d| {
            d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=Memo Test",
            "-c",
            "user.email=test@example.com",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_folder_is_copied_into_the_memo_home_and_recorded_without_touching_the_source() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let source = source_copy(tmp.path());
    let before = snapshot(&source);
    let plugins = Plugins::at_home(&home);

    let record = plugins
        .install(&InstallSource::Folder(source.clone()), false)
        .unwrap();
    assert_eq!(record.name, "memo-demo");
    assert_eq!(record.version.as_deref(), Some("1.2.0"));
    assert!(record.enabled);
    assert!(record.installed_at_ms > 0);
    assert_eq!(
        record.source,
        Source::Folder {
            path: source.canonicalize().unwrap()
        }
    );
    assert_eq!(snapshot(&source), before, "the source folder changed");
    assert_eq!(snapshot(&home.join("plugins/memo-demo")), before);
    assert_eq!(
        plugins_dir_names(&home),
        vec!["installed.json", "memo-demo"]
    );
    let registry: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(home.join("plugins/installed.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(registry["plugins"][0]["name"], "memo-demo");
    assert_eq!(registry["plugins"][0]["enabled"], true);
    assert_eq!(registry["plugins"][0]["source"]["type"], "folder");

    let listed = plugins.list().unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].root, home.join("plugins/memo-demo"));
    assert!(listed[0].manifest.is_ok());
}

#[test]
fn an_installed_plugins_parts_carry_its_namespace_and_its_root() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let plugins = Plugins::at_home(&home);
    plugins
        .install(&InstallSource::Folder(fixture()), false)
        .unwrap();
    let listed = plugins.list().unwrap();
    let manifest = listed[0].manifest.as_ref().unwrap();
    let root = home.join("plugins/memo-demo");
    let parts = read_parts("memo-demo", &root, manifest, &|_| None);
    assert!(parts.problems.is_empty(), "{:?}", parts.problems);
    let names =
        |list: &[memo_plugins::Part]| list.iter().map(|p| p.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&parts.commands), vec!["memo-demo:greet"]);
    assert_eq!(
        parts.commands[0].description.as_deref(),
        Some("Greet someone on behalf of the demo plugin")
    );
    assert_eq!(names(&parts.skills), vec!["memo-demo:release-notes"]);
    assert_eq!(names(&parts.agents), vec!["memo-demo:reviewer"]);
    assert_eq!(parts.agents[0].path, root.join("agents/reviewer.md"));
    assert_eq!(parts.hooks.len(), 1);
    assert_eq!(parts.hooks[0].event, "UserPromptSubmit");
    assert!(parts.hooks[0]
        .command
        .contains("${CLAUDE_PLUGIN_ROOT}/hooks/context.sh"));
    assert_eq!(parts.mcp_servers.len(), 1);
    assert_eq!(parts.mcp_servers[0].name, "memo-demo_notes");
    assert_eq!(parts.mcp_servers[0].transport, "stdio");
    // ${CLAUDE_PLUGIN_ROOT} is the installed copy, not the folder it came from.
    assert_eq!(
        parts.mcp_servers[0].target,
        format!("node {}/server.mjs", root.display())
    );

    // What sessions get: the same folders and files, and the server with the root
    // exported and the other variables expanded from the environment.
    let dirs = session_dirs(memo_only(&home));
    assert_eq!(dirs.commands.len(), 1);
    assert_eq!(dirs.commands[0].namespace, "memo-demo");
    assert_eq!(dirs.commands[0].path, root.join("commands"));
    assert_eq!(dirs.skills[0].path, root.join("skills"));
    let hooks = session_hooks(memo_only(&home));
    assert_eq!(hooks.len(), 1);
    assert_eq!(hooks[0].root, root);
    assert_eq!(hooks[0].file, root.join("hooks/hooks.json"));
    let servers = session_mcp_servers(memo_only(&home), &|var| {
        (var == "MEMO_TEST_FIXTURE_SERVER").then(|| "/srv/fixture.mjs".to_owned())
    });
    assert!(servers.problems.is_empty(), "{:?}", servers.problems);
    let server = &servers.servers[0];
    assert_eq!(server.source.kind, memo_mcp::SourceKind::Plugin);
    let memo_mcp::TransportConfig::Stdio(stdio) = &server.transport else {
        panic!("{server:?}")
    };
    assert_eq!(stdio.env["CLAUDE_PLUGIN_ROOT"], root.display().to_string());
    assert_eq!(stdio.env["FIXTURE_SERVER"], "/srv/fixture.mjs");
    assert_eq!(
        agent_dirs(memo_only(&home)),
        vec![("memo-demo".to_owned(), root.join("agents"))]
    );
}

#[test]
fn custom_paths_and_inline_parts_in_the_manifest_are_read_too() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("custom");
    std::fs::create_dir_all(src.join(".claude-plugin")).unwrap();
    std::fs::create_dir_all(src.join("extra/ops")).unwrap();
    std::fs::create_dir_all(src.join("team")).unwrap();
    std::fs::write(src.join("extra/ops/deploy.md"), "Deploy $1.").unwrap();
    std::fs::write(
        src.join("team/qa.md"),
        "---\ndescription: Tests things\n---\nTest.",
    )
    .unwrap();
    std::fs::write(
        src.join(".claude-plugin/plugin.json"),
        serde_json::json!({
            "name": "custom",
            "commands": ["./extra"],
            "agents": "./team/qa.md",
            "skills": "./nowhere",
            "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]},
            "mcpServers": {"web": {"type": "http", "url": "https://example.com/mcp"}}
        })
        .to_string(),
    )
    .unwrap();
    let home = tmp.path().join("home");
    let plugins = Plugins::at_home(&home);
    plugins.install(&InstallSource::Folder(src), false).unwrap();
    let listed = plugins.list().unwrap();
    let parts = read_parts(
        "custom",
        &listed[0].root,
        listed[0].manifest.as_ref().unwrap(),
        &|_| None,
    );
    assert_eq!(parts.commands[0].name, "custom:ops:deploy");
    assert_eq!(parts.agents[0].name, "custom:qa");
    assert_eq!(parts.agents[0].description.as_deref(), Some("Tests things"));
    assert_eq!(parts.hooks[0].event, "Stop");
    assert_eq!(parts.mcp_servers[0].name, "custom_web");
    assert_eq!(parts.mcp_servers[0].target, "https://example.com/mcp");
    assert_eq!(parts.problems.len(), 1, "{:?}", parts.problems);
    assert!(
        parts.problems[0].contains("nowhere"),
        "{:?}",
        parts.problems
    );
}

#[test]
fn reinstalling_needs_the_replace_flag_and_then_swaps_the_copy() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let source = source_copy(tmp.path());
    let plugins = Plugins::at_home(&home);
    plugins
        .install(&InstallSource::Folder(source.clone()), false)
        .unwrap();
    plugins.set_enabled("memo-demo", false).unwrap();

    std::fs::write(source.join("commands/bye.md"), "Say goodbye.").unwrap();
    let err = plugins
        .install(&InstallSource::Folder(source.clone()), false)
        .unwrap_err();
    assert!(
        matches!(err, PluginError::AlreadyInstalled { ref name } if name == "memo-demo"),
        "{err}"
    );
    assert!(!home.join("plugins/memo-demo/commands/bye.md").exists());
    assert_eq!(
        plugins_dir_names(&home),
        vec!["installed.json", "memo-demo"]
    );

    let record = plugins
        .install(&InstallSource::Folder(source), true)
        .unwrap();
    assert!(
        !record.enabled,
        "replacing keeps the user's switch (it was off)"
    );
    assert!(home.join("plugins/memo-demo/commands/bye.md").exists());
    assert_eq!(plugins.records().unwrap().len(), 1);
    assert_eq!(
        plugins_dir_names(&home),
        vec!["installed.json", "memo-demo"]
    );
}

#[test]
fn bad_sources_give_their_own_errors_and_leave_nothing_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let plugins = Plugins::at_home(&home);

    let missing = tmp.path().join("nope");
    let err = plugins
        .install(&InstallSource::Folder(missing), false)
        .unwrap_err();
    assert!(matches!(err, PluginError::SourceMissing { .. }), "{err}");

    let file = tmp.path().join("file.txt");
    std::fs::write(&file, "x").unwrap();
    let err = plugins
        .install(&InstallSource::Folder(file), false)
        .unwrap_err();
    assert!(matches!(err, PluginError::NotAFolder { .. }), "{err}");

    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let err = plugins
        .install(&InstallSource::Folder(empty.clone()), false)
        .unwrap_err();
    assert!(matches!(err, PluginError::NoManifest { .. }), "{err}");
    assert!(
        err.to_string().contains(".claude-plugin/plugin.json"),
        "{err}"
    );

    std::fs::create_dir_all(empty.join(".claude-plugin")).unwrap();
    std::fs::write(empty.join(".claude-plugin/plugin.json"), "{\"name\": ").unwrap();
    let err = plugins
        .install(&InstallSource::Folder(empty.clone()), false)
        .unwrap_err();
    assert!(matches!(err, PluginError::InvalidManifest { .. }), "{err}");
    assert!(err.to_string().contains("invalid JSON"), "{err}");

    std::fs::write(
        empty.join(".claude-plugin/plugin.json"),
        r#"{"name": "../../evil"}"#,
    )
    .unwrap();
    let err = plugins
        .install(&InstallSource::Folder(empty), false)
        .unwrap_err();
    assert!(matches!(err, PluginError::InvalidName { .. }), "{err}");
    assert!(!tmp.path().join("evil").exists());

    let err = plugins
        .install(&InstallSource::Git("not a url".into()), false)
        .unwrap_err();
    assert!(matches!(err, PluginError::InvalidGitUrl { .. }), "{err}");

    let gone = format!("file://{}/no-such-repo", tmp.path().display());
    let err = plugins
        .install(&InstallSource::Git(gone), false)
        .unwrap_err();
    assert!(matches!(err, PluginError::GitClone { .. }), "{err}");
    assert!(err.to_string().contains("no-such-repo"), "{err}");

    // A repository that is not a plugin: cloned, refused, removed.
    let repo = tmp.path().join("not-a-plugin");
    std::fs::create_dir_all(&repo).unwrap();
    std::fs::write(repo.join("README.md"), "hi").unwrap();
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "init"]);
    let url = format!("file://{}", repo.display());
    let err = plugins
        .install(&InstallSource::Git(url), false)
        .unwrap_err();
    assert!(matches!(err, PluginError::NoManifest { .. }), "{err}");

    // Nothing half-installed: no copies, no staging folders, no registry.
    assert!(
        plugins_dir_names(&home).is_empty(),
        "{:?}",
        plugins_dir_names(&home)
    );
    assert!(plugins.records().unwrap().is_empty());

    for name in ["../x", "a/b"] {
        let err = plugins.set_enabled(name, true).unwrap_err();
        assert!(matches!(err, PluginError::InvalidName { .. }), "{err}");
        let err = plugins.remove(name).unwrap_err();
        assert!(matches!(err, PluginError::InvalidName { .. }), "{err}");
    }
    let err = plugins.remove("ghost").unwrap_err();
    assert!(matches!(err, PluginError::NotInstalled { .. }), "{err}");
}

#[test]
fn a_git_url_is_cloned_shallow_and_installed_without_its_history() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = source_copy(tmp.path());
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "plugin"]);
    let home = tmp.path().join("home");
    let plugins = Plugins::at_home(&home);
    let url = format!("file://{}", repo.display());
    let record = plugins
        .install(&InstallSource::Git(url.clone()), false)
        .unwrap();
    assert_eq!(record.source, Source::Git { url: url.clone() });
    let copy = home.join("plugins/memo-demo");
    assert!(copy.join("commands/greet.md").is_file());
    assert!(!copy.join(".git").exists());
    assert_eq!(
        plugins_dir_names(&home),
        vec!["installed.json", "memo-demo"]
    );
    let err = plugins
        .install(&InstallSource::Git(url), false)
        .unwrap_err();
    assert!(matches!(err, PluginError::AlreadyInstalled { .. }), "{err}");
    assert_eq!(
        plugins_dir_names(&home),
        vec!["installed.json", "memo-demo"]
    );
}

#[test]
fn disabling_hides_every_part_from_sessions_and_removing_deletes_only_memos_copy() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let source = source_copy(tmp.path());
    let before = snapshot(&source);
    let plugins = Plugins::at_home(&home);
    plugins
        .install(&InstallSource::Folder(source.clone()), false)
        .unwrap();
    assert!(!session_hooks(memo_only(&home)).is_empty());

    let record = plugins.set_enabled("memo-demo", false).unwrap();
    assert!(!record.enabled);
    assert_eq!(
        session_dirs(memo_only(&home)),
        memo_context::PluginDirs::default()
    );
    assert!(session_hooks(memo_only(&home)).is_empty());
    assert!(session_mcp_servers(memo_only(&home), &|_| None)
        .servers
        .is_empty());
    assert!(agent_dirs(memo_only(&home)).is_empty());
    // Still installed and listed.
    assert!(!plugins.list().unwrap()[0].record.enabled);

    plugins.set_enabled("memo-demo", true).unwrap();
    assert_eq!(agent_dirs(memo_only(&home)).len(), 1);

    plugins.remove("memo-demo").unwrap();
    assert!(!home.join("plugins/memo-demo").exists());
    assert!(plugins.records().unwrap().is_empty());
    assert_eq!(plugins_dir_names(&home), vec!["installed.json"]);
    assert_eq!(
        snapshot(&source),
        before,
        "remove touched the source folder"
    );
}

#[test]
fn a_damaged_registry_is_reported_and_never_overwritten() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(home.join("plugins")).unwrap();
    std::fs::write(home.join("plugins/installed.json"), "{ damaged").unwrap();
    let plugins = Plugins::at_home(&home);
    let err = plugins
        .install(&InstallSource::Folder(fixture()), false)
        .unwrap_err();
    assert!(matches!(err, PluginError::Registry { .. }), "{err}");
    assert_eq!(
        std::fs::read_to_string(home.join("plugins/installed.json")).unwrap(),
        "{ damaged"
    );
    assert_eq!(plugins_dir_names(&home), vec!["installed.json"]);
    // Sessions go on without plugins.
    assert!(session_hooks(memo_only(&home)).is_empty());
}

#[test]
fn links_inside_the_folder_are_copied_as_what_they_point_to_and_links_out_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("linked");
    std::fs::create_dir_all(src.join(".claude-plugin")).unwrap();
    std::fs::create_dir_all(src.join("shared")).unwrap();
    std::fs::write(src.join("shared/hello.md"), "Say hello.").unwrap();
    std::fs::write(
        src.join(".claude-plugin/plugin.json"),
        r#"{"name": "linked"}"#,
    )
    .unwrap();
    std::os::unix::fs::symlink(src.join("shared"), src.join("commands")).unwrap();
    let home = tmp.path().join("home");
    let plugins = Plugins::at_home(&home);
    plugins
        .install(&InstallSource::Folder(src.clone()), false)
        .unwrap();
    let copied = home.join("plugins/linked/commands");
    assert!(!copied.is_symlink(), "the copy holds the files, not a link");
    assert_eq!(
        std::fs::read_to_string(copied.join("hello.md")).unwrap(),
        "Say hello."
    );

    // A link out of the folder: nothing is installed, the user is told which link.
    let outside = tmp.path().join("secrets");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("key"), "k").unwrap();
    let leaky = tmp.path().join("leaky");
    std::fs::create_dir_all(leaky.join(".claude-plugin")).unwrap();
    std::fs::write(
        leaky.join(".claude-plugin/plugin.json"),
        r#"{"name": "leaky"}"#,
    )
    .unwrap();
    std::os::unix::fs::symlink(&outside, leaky.join("agents")).unwrap();
    let err = plugins
        .install(&InstallSource::Folder(leaky), false)
        .unwrap_err();
    assert!(
        matches!(err, memo_plugins::PluginError::LinkOutside { .. }),
        "{err}"
    );
    assert!(!home.join("plugins/leaky").exists());
    let left: Vec<_> = std::fs::read_dir(home.join("plugins"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "no staging left behind: {left:?}");
}

#[test]
fn a_folder_holding_memos_home_is_not_copied_into_itself_and_a_replace_keeps_the_switch() {
    let tmp = tempfile::tempdir().unwrap();
    // The plugin's folder holds the Memo home (a plugin developed inside it).
    let src = tmp.path().join("dev");
    let home = src.join("memo-home");
    std::fs::create_dir_all(src.join(".claude-plugin")).unwrap();
    std::fs::write(src.join(".claude-plugin/plugin.json"), r#"{"name": "dev"}"#).unwrap();
    let plugins = Plugins::at_home(&home);
    plugins
        .install(&InstallSource::Folder(src.clone()), false)
        .unwrap();
    assert!(!home.join("plugins/dev/memo-home/plugins").exists());

    plugins.set_enabled("dev", false).unwrap();
    let again = plugins.install(&InstallSource::Folder(src), true).unwrap();
    assert!(
        !again.enabled,
        "a plugin turned off stays off when replaced"
    );
}

#[test]
fn folders_an_interrupted_install_left_are_cleared_once_stale() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let plugins_dir = home.join("plugins");
    let old = plugins_dir.join(".staging-old");
    let fresh = plugins_dir.join(".removed-fresh");
    std::fs::create_dir_all(old.join("inside")).unwrap();
    std::fs::create_dir_all(&fresh).unwrap();
    // Two hours old, as a process killed mid-install leaves it.
    let then = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
    std::fs::File::open(&old)
        .unwrap()
        .set_modified(then)
        .unwrap();
    let plugins = Plugins::at_home(&home);
    plugins
        .install(&InstallSource::Folder(source_copy(tmp.path())), false)
        .unwrap();
    assert!(!old.exists(), "the stale staging folder is gone");
    assert!(
        fresh.exists(),
        "a recent one may be another install's: kept"
    );
}

/// Memo's own plugins only (no user home: Claude Code's are not looked for).
fn memo_only(home: &Path) -> memo_plugins::Homes<'_> {
    memo_plugins::Homes {
        memo: Some(home),
        user: None,
        folder: None,
    }
}
