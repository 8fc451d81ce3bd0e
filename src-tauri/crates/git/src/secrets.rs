//! Staged files that look like secrets, flagged before a commit: by their name (an `.env`,
//! a private key file) and by what their added lines hold (a private key block, a
//! provider's key format). A flag asks the person to look; it does not stop them.

use memo_protocol::{SecretFlag, SecretKind};

/// File names that hold secrets by convention (matched on the last part of the path).
fn secret_name(name: &str) -> Option<SecretKind> {
    let lower = name.to_ascii_lowercase();
    if lower == ".env" || (lower.starts_with(".env.") && !is_env_template(&lower)) {
        return Some(SecretKind::EnvFile);
    }
    let keys = ["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"];
    if keys.contains(&lower.as_str()) {
        return Some(SecretKind::SshKey);
    }
    let suffixes = [".pem", ".key", ".p12", ".pfx", ".keystore", ".jks"];
    if suffixes.iter().any(|s| lower.ends_with(s)) {
        return Some(SecretKind::KeyStore);
    }
    if matches!(
        lower.as_str(),
        ".netrc" | ".npmrc" | ".pypirc" | "credentials.json"
    ) {
        return Some(SecretKind::CredentialsFile);
    }
    None
}

/// `.env.example` and the like are meant to be committed.
fn is_env_template(lower: &str) -> bool {
    ["example", "sample", "template", "dist", "defaults"]
        .iter()
        .any(|t| lower.ends_with(t))
}

/// What an added line looks like, if it looks like a secret.
fn secret_line(line: &str) -> Option<SecretKind> {
    if line.contains("-----BEGIN") && line.contains("PRIVATE KEY") {
        return Some(SecretKind::PrivateKey);
    }
    let words = line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'));
    for word in words {
        let prefixed = |prefix: &str, min: usize| word.starts_with(prefix) && word.len() >= min;
        if prefixed("AKIA", 20)
            && word[4..]
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        {
            return Some(SecretKind::AwsKey);
        }
        if prefixed("ghp_", 36) || prefixed("github_pat_", 40) || prefixed("glpat-", 20) {
            return Some(SecretKind::ForgeToken);
        }
        if prefixed("sk-ant-", 30)
            || prefixed("sk-proj-", 30)
            || (prefixed("sk-", 40) && !word.contains("--"))
        {
            return Some(SecretKind::ProviderKey);
        }
        if prefixed("AIza", 39) {
            return Some(SecretKind::GoogleKey);
        }
        if prefixed("xoxb-", 20) || prefixed("xoxp-", 20) {
            return Some(SecretKind::SlackToken);
        }
    }
    None
}

/// Flags for the staged diff `patch` (`git diff --cached` output, several files).
pub fn flag_secrets(patch: &str) -> Vec<SecretFlag> {
    let mut flags = Vec::new();
    let mut path: Option<String> = None;
    let mut line_no: u32 = 0;
    let mut flagged_file = false;
    for line in patch.lines() {
        if let Some(rest) = line.strip_prefix("+++ ") {
            let name = rest.strip_prefix("b/").unwrap_or(rest).to_owned();
            flagged_file = false;
            if name != "/dev/null" {
                let last = name.rsplit('/').next().unwrap_or(&name);
                if let Some(looks_like) = secret_name(last) {
                    flags.push(SecretFlag {
                        path: name.clone(),
                        line: None,
                        looks_like,
                    });
                    flagged_file = true;
                }
            }
            path = Some(name);
        } else if line.starts_with("@@") {
            line_no = line
                .split_once(" +")
                .and_then(|(_, rest)| rest.split([',', ' ']).next())
                .and_then(|n| n.parse().ok())
                .unwrap_or(1);
        } else if let Some(added) = line.strip_prefix('+') {
            if let (Some(path), false) = (&path, flagged_file) {
                if let Some(looks_like) = secret_line(added) {
                    flags.push(SecretFlag {
                        path: path.clone(),
                        line: Some(line_no),
                        looks_like,
                    });
                    // One flag per file is enough to make the person look.
                    flagged_file = true;
                }
            }
            line_no += 1;
        } else if line.starts_with(' ') {
            line_no += 1;
        }
    }
    flags
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_added_lines_that_look_like_secrets_are_flagged_once_per_file() {
        let patch = "diff --git a/.env b/.env\n--- /dev/null\n+++ b/.env\n@@ -0,0 +1 @@\n+TOKEN=x\n\
diff --git a/.env.example b/.env.example\n--- /dev/null\n+++ b/.env.example\n@@ -0,0 +1 @@\n+TOKEN=\n\
diff --git a/src/cfg.py b/src/cfg.py\n--- a/src/cfg.py\n+++ b/src/cfg.py\n@@ -3,2 +3,4 @@\n a = 1\n+KEY = \"AKIAIOSFODNN7EXAMPLE\"\n+OTHER = \"AKIAIOSFODNN7EXAMPLF\"\n b = 2\n\
diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1,2 @@\n x\n+use sk-... as the key, see --task-list\n";
        let flags = flag_secrets(patch);
        assert_eq!(flags.len(), 2, "{flags:?}");
        assert_eq!(flags[0].path, ".env");
        assert_eq!(flags[0].line, None);
        assert_eq!(flags[1].path, "src/cfg.py");
        assert_eq!(flags[1].line, Some(4));
        assert_eq!(flags[1].looks_like, SecretKind::AwsKey);
    }

    #[test]
    fn a_private_key_block_and_key_files_are_flagged() {
        assert_eq!(
            secret_line("-----BEGIN OPENSSH PRIVATE KEY-----"),
            Some(SecretKind::PrivateKey)
        );
        assert_eq!(secret_name("id_ed25519"), Some(SecretKind::SshKey));
        assert_eq!(secret_name("server.pem"), Some(SecretKind::KeyStore));
        assert_eq!(secret_name("main.rs"), None);
        // Made up, and put together here so that no scanner takes the test for a key.
        let made_up = format!(
            "let x = \"{}-{}\";",
            "sk-ant-api03", "abcdefghijklmnopqrstuvwxyz"
        );
        assert_eq!(secret_line(&made_up), Some(SecretKind::ProviderKey));
    }
}
