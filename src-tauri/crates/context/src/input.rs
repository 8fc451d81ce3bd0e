//! Turns what the user typed into what the model receives: `$skill` mentions load the
//! skill's instructions and `@path` references attach files. The typed text itself is
//! kept unchanged at the top of the message.

use std::path::Path;

use memo_protocol::{AttachmentKind, InputAttachment, InputExpansion};

use crate::attach::{attach_checked, AttachLimits, DenyCheck};
use crate::skills::{Skill, SkillSet};
use crate::text::attr;

/// What expansion needs to know about the session.
#[derive(Debug, Clone, Copy)]
pub struct InputContext<'a> {
    pub cwd: &'a Path,
    pub workspace_root: &'a Path,
    /// The OS home folder, for `@~/...`.
    pub home: Option<&'a Path>,
    pub skills: &'a SkillSet,
    pub limits: AttachLimits,
    /// The user's read-deny rules: files they cover are not attached.
    pub denied: Option<DenyCheck<'a>>,
}

/// Expands `text` (the typed message, or a command's prompt). Returns `None` when the
/// model would receive exactly `typed` anyway.
pub fn expand(
    typed: &str,
    text: &str,
    command: Option<String>,
    ctx: InputContext<'_>,
) -> Option<InputExpansion> {
    let mut blocks = Vec::new();
    let mut attachments = Vec::new();
    let mut notices = Vec::new();

    let mut loaded: Vec<&Skill> = Vec::new();
    for mention in skill_mentions(text) {
        let Some(skill) = ctx.skills.for_mention(&mention) else {
            continue;
        };
        if loaded.contains(&skill) {
            continue;
        }
        loaded.push(skill);
        match skill.read_body() {
            Ok(body) => {
                let block = skill_block(skill, &body);
                attachments.push(InputAttachment {
                    kind: AttachmentKind::Skill,
                    reference: format!("${mention}"),
                    path: skill.display_path(),
                    files: 1,
                    chars: body.chars().count() as u64,
                    truncated: false,
                });
                blocks.push(block);
            }
            Err(err) => notices.push(format!("${mention}: skill not loaded ({err})")),
        }
    }

    let files = attach_checked(
        text,
        ctx.cwd,
        ctx.workspace_root,
        ctx.home,
        ctx.limits,
        ctx.denied,
    );
    attachments.extend(files.attachments);
    notices.extend(files.notices);
    if !files.block.is_empty() {
        blocks.push(files.block);
    }

    if blocks.is_empty() && notices.is_empty() && command.is_none() && text == typed {
        return None;
    }
    let mut prompt = text.trim_end().to_owned();
    for block in blocks {
        prompt.push_str("\n\n");
        prompt.push_str(&block);
    }
    Some(InputExpansion {
        prompt,
        command,
        attachments,
        notices,
    })
}

/// A skill's instructions as the model receives them (in a message or from `read_skill`).
pub fn skill_block(skill: &Skill, body: &str) -> String {
    let mut block = format!(
        "<skill name=\"{}\" path=\"{}\">\n",
        attr(&skill.name),
        attr(&skill.display_path())
    );
    if let Some(dir) = skill.base_dir() {
        block.push_str(&format!(
            "Base directory for relative paths: {}\n\n",
            dir.display()
        ));
    }
    block.push_str(body);
    block.push_str("\n</skill>");
    block
}

/// `$name` at the start of the text, after whitespace or an opening bracket, or after
/// Chinese (see [`crate::cjk`]).
pub fn skill_mentions(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut prev: Option<char> = None;
    for (i, c) in text.char_indices() {
        let boundary =
            prev.is_none_or(|p| crate::cjk::starts_word_after(p) || matches!(p, '(' | '['));
        prev = Some(c);
        if c != '$' || !boundary {
            continue;
        }
        let rest = &text[i + 1..];
        let len = rest
            .find(|ch: char| !(ch.is_alphanumeric() || matches!(ch, '-' | '_' | '.' | ':')))
            .unwrap_or(rest.len());
        let name = rest[..len].trim_end_matches(['.', ':']);
        if !name.is_empty() && !out.iter().any(|n| n == name) {
            out.push(name.to_owned());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_are_words_starting_with_a_dollar() {
        assert_eq!(
            skill_mentions("use $code-review, then ($pdf)."),
            vec!["code-review", "pdf"]
        );
        assert_eq!(
            skill_mentions("costs US$5 and echo a$b"),
            Vec::<String>::new()
        );
        assert_eq!(skill_mentions("$pdf and $pdf."), vec!["pdf"]);
        // Chinese runs words together: after a Chinese character or mark `$` starts one.
        assert_eq!(
            skill_mentions("用$周报 写一下，再看（$pdf）"),
            vec!["周报", "pdf"]
        );
    }

    #[test]
    fn nothing_to_expand_gives_none() {
        let skills = SkillSet::default();
        let dir = tempfile::tempdir().unwrap();
        let ctx = InputContext {
            cwd: dir.path(),
            workspace_root: dir.path(),
            home: None,
            skills: &skills,
            limits: AttachLimits::default(),
            denied: None,
        };
        assert_eq!(expand("hello $HOME", "hello $HOME", None, ctx), None);
        let missing = expand("read @nope.txt", "read @nope.txt", None, ctx).unwrap();
        assert_eq!(missing.prompt, "read @nope.txt");
        assert_eq!(missing.notices.len(), 1);
    }
}
