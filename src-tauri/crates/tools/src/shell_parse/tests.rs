//! Tests of the shell reader: the original hand-written parser's cases, kept unchanged,
//! and the constructs the grammar now reads.

use super::*;

fn words(script: &Script) -> Vec<Vec<Vec<String>>> {
    script
        .pipelines
        .iter()
        .map(|p| p.commands.iter().map(|c| c.words.clone()).collect())
        .collect()
}

#[test]
fn splits_lists_pipelines_and_quotes() {
    let s = parse("cd 'my dir' && ls -la | grep \"a b\"; echo x || true & sleep 1");
    assert_eq!(
        words(&s),
        vec![
            vec![vec!["cd", "my dir"]],
            vec![vec!["ls", "-la"], vec!["grep", "a b"]],
            vec![vec!["echo", "x"]],
            vec![vec!["true"]],
            vec![vec!["sleep", "1"]],
        ]
    );
}

#[test]
fn redirections_substitutions_and_comments() {
    let s = parse("echo hi 2>&1 >/dev/sda # rm -rf /\ncat <(curl x) \"$(pwd)\"");
    let echo = &s.pipelines[0].commands[0];
    assert_eq!(echo.words, vec!["echo", "hi"]);
    assert_eq!(echo.redirects.len(), 2);
    assert!(!echo.redirects[0].writes());
    assert_eq!(echo.redirects[1].target, "/dev/sda");
    assert!(echo.redirects[1].writes());
    let cat = &s.pipelines[1].commands[0];
    assert_eq!(cat.words, vec!["cat", SUBSTITUTION, "$PWD"]);
    assert_eq!(
        cat.substitutions[0].pipelines[0].commands[0].words,
        vec!["curl", "x"]
    );
}

#[test]
fn heredoc_bodies_are_data_and_subshells_split() {
    let s = parse("cat <<'EOF' > notes.txt\nrm -rf /\nEOF\n(cd a; make) | tee log");
    assert_eq!(
        words(&s),
        vec![
            vec![vec!["cat"]],
            vec![vec!["cd", "a"]],
            vec![vec!["make"], vec!["tee", "log"]],
        ]
    );
}

#[test]
fn heredoc_bodies_go_to_the_command_that_opened_them() {
    let s = parse("cat <<A > out\nhello\nA\nbash <<-'B'\n\trm -rf ~\n\tB\necho done");
    assert_eq!(s.pipelines[0].commands[0].heredocs, ["hello\n"]);
    assert_eq!(s.pipelines[1].commands[0].heredocs, ["rm -rf ~\n"]);
    assert!(s.pipelines[2].commands[0].heredocs.is_empty());
}

#[test]
fn escapes_and_unterminated_quotes_do_not_panic() {
    let s = parse("r\\m -rf \"/");
    assert_eq!(s.pipelines[0].commands[0].words[0], "rm");
    let _ = parse("$(((((");
    let _ = parse("`unterminated");
    let _ = parse("echo > ");
}

fn first(script: &Script) -> &SimpleCommand {
    &script.pipelines[0].commands[0]
}

#[test]
fn compound_commands_are_read() {
    let s = parse(
        "if [ -f x ]; then rm a; else rm b; fi; for f in a b; do echo $f; done; case $x in y) rm c;; esac; f() { rm d; }; while true; do rm e; done",
    );
    let all: Vec<Vec<String>> = s
        .pipelines
        .iter()
        .flat_map(|p| p.commands.iter().map(|c| c.words.clone()))
        .filter(|w| !w.is_empty())
        .collect();
    for expected in [
        vec!["rm", "a"],
        vec!["rm", "b"],
        vec!["echo", "a"],
        vec!["echo", "b"],
        vec!["rm", "c"],
        vec!["rm", "d"],
        vec!["rm", "e"],
    ] {
        assert!(
            all.contains(&expected.iter().map(|s| s.to_string()).collect()),
            "{expected:?} in {all:?}"
        );
    }
    assert!(!s.unreadable);
}

#[test]
fn literal_variables_and_echo_substitutions_are_folded() {
    assert_eq!(first(&parse("$(echo rm) -rf /")).words, ["rm", "-rf", "/"]);
    assert_eq!(first(&parse("`echo rm -rf` /")).words, ["rm", "-rf", "/"]);
    let s = parse("X=rm; D=\"/etc\"; $X -rf \"$D/passwd\" ${D}");
    assert_eq!(
        s.pipelines[2].commands[0].words,
        ["rm", "-rf", "/etc/passwd", "/etc"]
    );
    // Unknown values stay as they are written.
    assert_eq!(
        first(&parse("$(which rm) -rf $Y")).words,
        [SUBSTITUTION, "-rf", "$Y"]
    );
    let s = parse("X=$(date); $X");
    assert_eq!(s.pipelines[1].commands[0].words, ["$X"]);
}

#[test]
fn quoting_forms_are_removed() {
    assert_eq!(
        first(&parse(r#"$'\x72\x6d' a"b"'c'\d "e\"f" $"g""#)).words,
        ["rm", "abcd", "e\"f", "g"]
    );
    assert_eq!(first(&parse("r\\\nm -rf /")).words, ["rm", "-rf", "/"]);
}

#[test]
fn redirections_of_groups_and_bare_redirections_are_kept() {
    let s = parse("> /etc/passwd");
    assert_eq!(first(&s).redirects[0].target, "/etc/passwd");
    assert!(first(&s).redirects[0].writes());
    let s = parse("{ echo a; echo b; } >> /etc/x");
    let targets: Vec<&str> = s
        .pipelines
        .iter()
        .flat_map(|p| &p.commands)
        .flat_map(|c| &c.redirects)
        .map(|r| r.target.as_str())
        .collect();
    assert_eq!(targets, ["/etc/x"]);
    let s = parse("cmd 3> a &> b >| c 2>&- >&2");
    let ops: Vec<(&str, bool)> = first(&s)
        .redirects
        .iter()
        .map(|r| (r.op.as_str(), r.writes()))
        .collect();
    assert_eq!(
        ops,
        [
            (">", true),
            ("&>", true),
            (">|", true),
            (">&-", false),
            (">&", false)
        ]
    );
}

#[test]
fn heredocs_herestrings_and_their_commands() {
    let s = parse("cat <<EOF | sh\nrm -rf /\nEOF");
    assert_eq!(words(&s), vec![vec![vec!["cat"], vec!["sh"]]]);
    assert_eq!(first(&s).heredocs, ["rm -rf /\n"]);
    let s = parse("python3 - <<EOF && echo ok\nprint(\"$(rm -rf ~)\")\nEOF");
    assert_eq!(first(&s).substitutions.len(), 1);
    assert_eq!(s.pipelines[1].commands[0].words, ["echo", "ok"]);
    let s = parse("cat <<'EOF'\n$(rm -rf ~)\nEOF");
    assert!(first(&s).substitutions.is_empty());
    let s = parse("bash <<< 'rm -rf ~'");
    assert_eq!(first(&s).heredocs, ["rm -rf ~\n"]);
}

#[test]
fn subshells_and_pipeline_parts_get_their_own_scope() {
    let s = parse("(cd a; make) | tee log; ls");
    let scopes: Vec<Vec<u32>> = s
        .pipelines
        .iter()
        .flat_map(|p| p.commands.iter().map(|c| c.scope.clone()))
        .collect();
    assert_eq!(scopes[0], scopes[1]);
    assert!(!scopes[0].is_empty());
    assert_ne!(scopes[1], scopes[2]);
    assert!(scopes[3].is_empty());
}

#[test]
fn syntax_errors_and_deep_nesting_are_unreadable_but_still_read() {
    let s = parse("cat <<A; rm -rf ~\nx\nA");
    assert!(s.unreadable);
    let seen: Vec<&Vec<String>> = s
        .pipelines
        .iter()
        .flat_map(|p| &p.commands)
        .map(|c| &c.words)
        .collect();
    assert!(
        seen.iter().any(|w| w.first().is_some_and(|x| x == "rm")),
        "{seen:?}"
    );
    assert!(!parse("echo ok").unreadable);
    let deep = format!("{}x{}", "$(".repeat(20), ")".repeat(20));
    assert!(parse(&deep).unreadable);
    let deeper = format!("{}x{}", "(".repeat(5000), ")".repeat(5000));
    assert!(parse(&deeper).unreadable);
}

#[test]
fn long_chains_are_not_deep_nesting() {
    let chain = "true && ".repeat(1000) + "rm x || echo y";
    let s = parse(&chain);
    assert!(!s.unreadable);
    assert_eq!(s.pipelines.len(), 1002);
    assert_eq!(s.pipelines[1000].commands[0].words, ["rm", "x"]);
}
