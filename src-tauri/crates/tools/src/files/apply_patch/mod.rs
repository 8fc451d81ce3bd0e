//! `apply_patch`: edits files by string replacement (`old_string`/`new_string`, several
//! `edits`, `replace_all`) or by a `*** Begin Patch` multi-file patch.
//!
//! Both forms are first turned into a plan — the full old and new text of every file
//! involved — without touching the disk. The preview shows the plan's diff cut into
//! hunks; the run recomputes the same plan and writes exactly the hunks the user
//! accepted. Nothing is written unless the whole plan could be built (all or none).

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use memo_protocol::{DiffHunk, EditChoice, FileDiff, Phrase, RiskLevel};
use serde::Deserialize;
use serde_json::json;

use crate::files::diff::{call_key, FileHunks, PreviewMemory};
use crate::files::edit::{apply_edits, apply_edits_seeing, Edit};
use crate::files::fsutil::{self, display_path, read_text, real_cwd, Staged};
use crate::files::line_index::FileKey;
use crate::files::patch_format::{self, PatchOp};
use crate::{
    parse_args, Tool, ToolContext, ToolError, ToolInvocation, ToolOutput, ToolPreview, ToolResult,
};
use memo_protocol::ToolView;

mod view;

const NAME: &str = "apply_patch";

/// See the module docs. Holds the hunks of recent previews so a partially accepted
/// change is refused (not misapplied) when the file changed after the user saw it.
#[derive(Default)]
pub struct ApplyPatchTool {
    previews: PreviewMemory,
    plans: PlanCache,
}

/// Plans kept from the preview for the run, so an approved edit does not read and
/// rebuild every file a second time. Each is reused only while every file it involves
/// is unchanged (same inode, size and mtime); otherwise the run plans afresh.
#[derive(Default, Clone)]
struct PlanCache(Arc<Mutex<VecDeque<CachedPlan>>>);

struct CachedPlan {
    key: String,
    plan: Arc<Plan>,
    stamps: Vec<Option<FileKey>>,
}

/// Plans remembered at once, and the largest kept: bounded memory whatever the model
/// previews.
const PLAN_CACHE_ENTRIES: usize = 4;
const PLAN_CACHE_MAX_BYTES: usize = 16 * 1024 * 1024;

impl PlanCache {
    fn put(&self, key: String, plan: Arc<Plan>) {
        let size: usize = plan.changes.iter().map(|c| c.old.len() + c.new.len()).sum();
        if size > PLAN_CACHE_MAX_BYTES {
            return;
        }
        let stamps = stamps(&plan);
        if let Ok(mut cache) = self.0.lock() {
            cache.retain(|c| c.key != key);
            cache.push_back(CachedPlan { key, plan, stamps });
            while cache.len() > PLAN_CACHE_ENTRIES {
                cache.pop_front();
            }
        }
    }

    /// The plan previewed for `key`, if its files are as they were.
    fn take(&self, key: &str) -> Option<Arc<Plan>> {
        let mut cache = self.0.lock().ok()?;
        let at = cache.iter().position(|c| c.key == key)?;
        let entry = cache.remove(at)?;
        (stamps(&entry.plan) == entry.stamps).then_some(entry.plan)
    }
}

fn stamps(plan: &Plan) -> Vec<Option<FileKey>> {
    plan.changes
        .iter()
        .flat_map(|c| std::iter::once(&c.path).chain(c.dest.as_ref().map(|(p, _)| p)))
        .map(|p| std::fs::metadata(p).ok().map(|m| FileKey::of(&m)))
        .collect()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Input {
    file_path: Option<String>,
    old_string: Option<String>,
    new_string: Option<String>,
    #[serde(default)]
    replace_all: bool,
    edits: Option<Vec<Edit>>,
    input: Option<String>,
    patch: Option<String>,
}

enum Request {
    Edits { file_path: String, edits: Vec<Edit> },
    Patch(String),
}

impl Input {
    fn into_request(self) -> Result<Request, ToolError> {
        let patch = match (self.input, self.patch) {
            (Some(_), Some(_)) => {
                return Err(ToolError::invalid_input(
                    "give the patch in `input` or `patch`, not both",
                ))
            }
            (a, b) => a.or(b),
        };
        let single = self.old_string.is_some() || self.new_string.is_some();
        if let Some(patch) = patch {
            if self.file_path.is_some() || single || self.edits.is_some() {
                return Err(ToolError::invalid_input(
                    "a `*** Begin Patch` patch names its files itself; do not combine it with file_path, old_string/new_string or edits",
                ));
            }
            return Ok(Request::Patch(patch));
        }
        let file_path = self.file_path.ok_or_else(|| {
            ToolError::invalid_input(
                "give file_path with old_string/new_string or edits, or a `*** Begin Patch` patch in `input`",
            )
        })?;
        let edits = match (self.edits, self.old_string, self.new_string) {
            (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
                return Err(ToolError::invalid_input(
                    "use either old_string/new_string or edits, not both",
                ))
            }
            (Some(edits), None, None) => edits,
            (None, Some(old_string), Some(new_string)) => vec![Edit {
                old_string,
                new_string,
                replace_all: self.replace_all,
            }],
            (None, Some(_), None) => return Err(ToolError::invalid_input("new_string is missing")),
            (None, None, Some(_)) => return Err(ToolError::invalid_input("old_string is missing")),
            (None, None, None) => {
                return Err(ToolError::invalid_input(
                    "nothing to do: give old_string and new_string, or edits",
                ))
            }
        };
        Ok(Request::Edits { file_path, edits })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Add,
    Update,
    Delete,
}

/// One file of a plan: its whole text before and after (LF line endings).
#[derive(Debug, Clone)]
struct Change {
    kind: Kind,
    path: PathBuf,
    display: String,
    /// Update File + Move to: where the file goes.
    dest: Option<(PathBuf, String)>,
    old: String,
    new: String,
    crlf: bool,
    mode: Option<u32>,
}

/// What one approval hunk stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    /// A content hunk of the change's diff.
    Hunk(usize),
    /// The move of an Update File + Move to.
    Rename,
    /// Creating or deleting a file with no lines, which has no content hunk.
    Empty,
}

struct Plan {
    changes: Vec<Change>,
    /// A several-edit call's replacements (line endings as the file's), to apply a
    /// subset of them when the person accepts only some; empty otherwise.
    edits: Vec<Edit>,
    /// What each of those edits alone changes, for the approval card.
    choices: Vec<EditChoice>,
}

impl Plan {
    fn hunks(&self) -> Vec<FileHunks<'_>> {
        self.changes
            .iter()
            .map(|c| FileHunks::new(&c.old, &c.new))
            .collect()
    }

    /// The approval hunks in order: (change index, unit, header, text).
    fn units(&self, hunks: &[FileHunks<'_>]) -> Vec<(usize, Unit, String, String)> {
        let multi = self.changes.len() > 1;
        let mut out = Vec::new();
        for (ci, (c, fh)) in self.changes.iter().zip(hunks).enumerate() {
            if let Some((_, dest)) = &c.dest {
                out.push((
                    ci,
                    Unit::Rename,
                    format!("rename {} -> {dest}", c.display),
                    format!("rename from {}\nrename to {dest}\n", c.display),
                ));
            }
            if fh.hunks.is_empty() && c.kind != Kind::Update {
                let what = if c.kind == Kind::Add {
                    "new empty file"
                } else {
                    "delete empty file"
                };
                out.push((
                    ci,
                    Unit::Empty,
                    format!("{what} {}", c.display),
                    String::new(),
                ));
            }
            for (hi, h) in fh.hunks.iter().enumerate() {
                let header = if multi {
                    format!("{} {}", h.header, c.display)
                } else {
                    h.header.clone()
                };
                out.push((ci, Unit::Hunk(hi), header, h.text.clone()));
            }
        }
        out
    }

    fn file_diff(&self, hunks: &[FileHunks<'_>]) -> FileDiff {
        let mut unified = String::new();
        for (c, fh) in self.changes.iter().zip(hunks) {
            let (from, to) = match c.kind {
                Kind::Add => ("/dev/null".to_owned(), c.display.clone()),
                Kind::Delete => (c.display.clone(), "/dev/null".to_owned()),
                Kind::Update => {
                    let to = c.dest.as_ref().map_or(&c.display, |(_, d)| d);
                    if c.dest.is_some() {
                        unified.push_str(&format!("rename from {}\nrename to {to}\n", c.display));
                    }
                    (c.display.clone(), to.clone())
                }
            };
            if !fh.hunks.is_empty() || c.kind != Kind::Update {
                unified.push_str(&fh.unified(&from, &to));
            }
        }
        let hunks = self
            .units(hunks)
            .into_iter()
            .enumerate()
            .map(|(i, (_, _, header, text))| DiffHunk {
                index: i as u32,
                header,
                text,
            })
            .collect();
        FileDiff {
            path: self
                .changes
                .iter()
                .map(|c| c.display.clone())
                .collect::<Vec<_>>()
                .join(", "),
            unified,
            hunks,
            edits: self.choices.clone(),
        }
    }

    /// The plan with only the `accepted` edits of a several-edit call, applied in order
    /// to the file as previewed. An accepted edit that only matches the text a refused
    /// one would have made fails, and nothing is written.
    fn with_edits(&self, accepted: &[u32]) -> Result<(Plan, String), ToolError> {
        let (Some(change), false) = (self.changes.first(), self.edits.is_empty()) else {
            return Err(ToolError::invalid_input(
                "this change is not made of several edits; accept it whole or by hunk",
            ));
        };
        let total = self.edits.len();
        let kept: Vec<Edit> = self
            .edits
            .iter()
            .enumerate()
            .filter(|(i, _)| accepted.contains(&(*i as u32)))
            .map(|(_, e)| e.clone())
            .collect();
        let refused: Vec<String> = (0..total)
            .filter(|i| !accepted.contains(&(*i as u32)))
            .map(|i| (i + 1).to_string())
            .collect();
        let note = format!(
            "the user accepted {} of the {total} edits and refused edit(s) {}",
            kept.len(),
            refused.join(", ")
        );
        let new = if kept.is_empty() {
            change.old.clone()
        } else {
            apply_edits(&change.old, &kept, &change.display).map_err(|e| {
                ToolError::invalid_input(format!(
                    "{note}, and without them the accepted ones no longer apply: {} Nothing was written.",
                    e.message
                ))
            })?
        };
        let plan = Plan {
            changes: vec![Change {
                new,
                ..change.clone()
            }],
            edits: Vec::new(),
            choices: Vec::new(),
        };
        Ok((plan, note))
    }

    /// What a session grant covers: exactly the files this call touches.
    fn fingerprint(&self) -> String {
        let mut paths: Vec<String> = self
            .changes
            .iter()
            .flat_map(|c| std::iter::once(&c.path).chain(c.dest.as_ref().map(|(p, _)| p)))
            .map(|p| p.display().to_string())
            .collect();
        paths.sort();
        paths.dedup();
        format!("write:{}", paths.join(","))
    }

    fn why(&self, hunks: &[FileHunks<'_>]) -> Vec<Phrase> {
        self.changes
            .iter()
            .zip(hunks)
            .map(|(c, fh)| {
                let (add, del) = fh
                    .hunks
                    .iter()
                    .fold((0, 0), |(a, d), h| (a + h.added, d + h.removed));
                let (added, removed) = (add as u64, del as u64);
                let path = c.display.clone();
                match (c.kind, &c.dest) {
                    (Kind::Add, _) => Phrase::CreateFile { path, added },
                    (Kind::Delete, _) => Phrase::DeleteFile { path, removed },
                    (Kind::Update, Some((_, to))) => Phrase::MoveFile {
                        path,
                        to: to.clone(),
                        added,
                        removed,
                    },
                    (Kind::Update, None) => Phrase::EditFile {
                        path,
                        added,
                        removed,
                    },
                }
            })
            .collect()
    }
}

impl ApplyPatchTool {
    pub fn new() -> Self {
        Self::default()
    }
}

fn signature(units: &[(usize, Unit, String, String)]) -> Vec<String> {
    units.iter().map(|u| format!("{}\n{}", u.2, u.3)).collect()
}

/// Reads the files and computes every new text; touches nothing.
fn plan(ctx: &ToolContext, request: Request) -> Result<Plan, ToolError> {
    let cwd = real_cwd(&ctx.cwd);
    let mut changes = Vec::new();
    let mut choices = Vec::new();
    let mut kept_edits = Vec::new();
    match request {
        Request::Edits {
            file_path,
            mut edits,
        } => {
            let path = ctx.writable(&file_path)?;
            let display = display_path(&cwd, &path);
            match read_text(&path)? {
                None if edits.len() == 1 && edits[0].old_string.is_empty() => changes.push(Change {
                    kind: Kind::Add,
                    path,
                    display,
                    dest: None,
                    old: String::new(),
                    new: std::mem::take(&mut edits[0].new_string),
                    crlf: false,
                    mode: None,
                }),
                None => {
                    return Err(ToolError::invalid_input(format!(
                        "{display} does not exist. To create it, use write_file (or apply_patch with an empty old_string)."
                    )))
                }
                Some(file) => {
                    // Strings the model sends use `\n`; in a file normalized from CRLF,
                    // or one with no CR at all, a stray `\r\n` from the model means `\n`.
                    if file.crlf || !file.text.contains('\r') {
                        for e in &mut edits {
                            e.old_string = e.old_string.replace("\r\n", "\n");
                            e.new_string = e.new_string.replace("\r\n", "\n");
                        }
                    }
                    let new = if edits.len() > 1 {
                        let total = edits.len();
                        let new = apply_edits_seeing(&file.text, &edits, &display, |i, a, b| {
                            choices.push(edit_choice(i, total, a, b))
                        })?;
                        kept_edits = edits;
                        new
                    } else {
                        apply_edits(&file.text, &edits, &display)?
                    };
                    changes.push(Change {
                        kind: Kind::Update,
                        path,
                        display,
                        dest: None,
                        old: file.text,
                        new,
                        crlf: file.crlf,
                        mode: Some(file.mode),
                    });
                }
            }
        }
        Request::Patch(patch) => {
            for op in patch_format::parse(&patch)? {
                changes.push(plan_op(ctx, &cwd, op)?);
            }
        }
    }
    let mut seen: Vec<&PathBuf> = Vec::new();
    for c in &changes {
        for p in std::iter::once(&c.path).chain(c.dest.as_ref().map(|(p, _)| p)) {
            if seen.contains(&p) {
                return Err(ToolError::invalid_input(format!(
                    "{} appears more than once in the patch; put all its changes in one section",
                    display_path(&cwd, p)
                )));
            }
            seen.push(p);
        }
    }
    Ok(Plan {
        changes,
        edits: kept_edits,
        choices,
    })
}

/// Edit `i` of `total` as the card shows it: the hunks between the text before it and
/// after it.
fn edit_choice(i: usize, total: usize, before: &str, after: &str) -> EditChoice {
    // The first line it changes (a hunk starts with context lines).
    let line = before
        .lines()
        .zip(after.lines())
        .take_while(|(a, b)| a == b)
        .count()
        + 1;
    EditChoice {
        index: i as u32,
        label: format!("Edit {} of {total} · line {line}", i + 1),
        hunks: FileHunks::new(before, after).diff_hunks(),
    }
}

fn plan_op(ctx: &ToolContext, cwd: &std::path::Path, op: PatchOp) -> Result<Change, ToolError> {
    let must_exist = |path: &PathBuf, display: &str, what: &str| {
        read_text(path)?.ok_or_else(|| {
            ToolError::invalid_input(format!("{what} {display}: the file does not exist"))
        })
    };
    Ok(match op {
        PatchOp::Add { path, content } => {
            let real = ctx.writable(&path)?;
            let display = display_path(cwd, &real);
            if std::fs::symlink_metadata(&real).is_ok() {
                return Err(ToolError::invalid_input(format!(
                    "Add File {display}: it already exists; use Update File to change it"
                )));
            }
            Change {
                kind: Kind::Add,
                path: real,
                display,
                dest: None,
                old: String::new(),
                new: content,
                crlf: false,
                mode: None,
            }
        }
        PatchOp::Delete { path } => {
            let real = ctx.writable(&path)?;
            let display = display_path(cwd, &real);
            let file = must_exist(&real, &display, "Delete File")?;
            Change {
                kind: Kind::Delete,
                path: real,
                display,
                dest: None,
                old: file.text,
                new: String::new(),
                crlf: file.crlf,
                mode: Some(file.mode),
            }
        }
        PatchOp::Update {
            path,
            move_to,
            chunks,
        } => {
            let real = ctx.writable(&path)?;
            let display = display_path(cwd, &real);
            let file = must_exist(&real, &display, "Update File")?;
            let new = patch_format::apply_chunks(&file.text, &chunks, &display)?;
            let dest = match move_to {
                Some(to) => {
                    let to_real = ctx.writable(&to)?;
                    let to_display = display_path(cwd, &to_real);
                    if to_real != real && std::fs::symlink_metadata(&to_real).is_ok() {
                        return Err(ToolError::invalid_input(format!(
                            "Move to {to_display}: it already exists; delete it first or choose another name"
                        )));
                    }
                    (to_real != real).then_some((to_real, to_display))
                }
                None => None,
            };
            Change {
                kind: Kind::Update,
                path: real,
                display,
                dest,
                old: file.text,
                new,
                crlf: file.crlf,
                mode: Some(file.mode),
            }
        }
    })
}

/// Writes the accepted parts of `plan`. Every new file is staged before the first
/// rename, so a failure while preparing changes nothing.
fn commit(
    plan: &Plan,
    hunks: &[FileHunks<'_>],
    accepted: Option<&[u32]>,
) -> Result<String, ToolError> {
    let units = plan.units(hunks);
    let is_accepted = |gi: usize| accepted.is_none_or(|a| a.contains(&(gi as u32)));
    let mut staged: Vec<Staged> = Vec::new();
    let mut removals: Vec<PathBuf> = Vec::new();
    let mut report: Vec<String> = Vec::new();
    for (ci, (c, fh)) in plan.changes.iter().zip(hunks).enumerate() {
        let mine: Vec<(usize, Unit)> = units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.0 == ci)
            .map(|(gi, u)| (gi, u.1))
            .collect();
        let taken: Vec<Unit> = mine
            .iter()
            .filter(|(gi, _)| is_accepted(*gi))
            .map(|u| u.1)
            .collect();
        let partial = if taken.len() < mine.len() {
            format!(" ({} of {} hunks)", taken.len(), mine.len())
        } else {
            String::new()
        };
        match c.kind {
            Kind::Add if !taken.is_empty() => {
                staged.push(fsutil::stage(
                    &c.path,
                    &fsutil::encode(&c.new, false),
                    None,
                )?);
                report.push(format!(
                    "Created {} ({} lines)",
                    c.display,
                    c.new.lines().count()
                ));
            }
            Kind::Delete if !taken.is_empty() => {
                removals.push(c.path.clone());
                report.push(format!("Deleted {}", c.display));
            }
            Kind::Update => {
                // Everything accepted is the planned text itself; no need to rebuild it.
                let all = fh
                    .hunks
                    .iter()
                    .enumerate()
                    .all(|(hi, _)| taken.contains(&Unit::Hunk(hi)));
                let content = if all {
                    std::borrow::Cow::Borrowed(c.new.as_str())
                } else {
                    std::borrow::Cow::Owned(fh.apply(|hi| taken.contains(&Unit::Hunk(hi))))
                };
                let bytes = fsutil::encode(&content, c.crlf);
                let (add, del) = fh
                    .hunks
                    .iter()
                    .enumerate()
                    .filter(|(hi, _)| taken.contains(&Unit::Hunk(*hi)))
                    .fold((0, 0), |(a, d), (_, h)| (a + h.added, d + h.removed));
                match &c.dest {
                    Some((dest, dest_display)) if taken.contains(&Unit::Rename) => {
                        staged.push(fsutil::stage(dest, &bytes, c.mode)?);
                        removals.push(c.path.clone());
                        report.push(format!(
                            "Moved {} to {dest_display} (+{add} -{del}){partial}",
                            c.display
                        ));
                    }
                    _ if *content != *c.old => {
                        staged.push(fsutil::stage(&c.path, &bytes, c.mode)?);
                        report.push(format!("Updated {} (+{add} -{del}){partial}", c.display));
                    }
                    _ => report.push(format!("Left {} unchanged (no hunk accepted)", c.display)),
                }
            }
            _ => report.push(format!("Left {} unchanged (not accepted)", c.display)),
        }
    }
    for (done, s) in staged.into_iter().enumerate() {
        s.commit().map_err(|e| {
            ToolError::failed(format!(
                "{} (after {done} of the patch's files were written; check them)",
                e.message
            ))
        })?;
    }
    for path in removals {
        fsutil::remove_file(&path)?;
    }
    Ok(report.join("\n"))
}

impl Tool for ApplyPatchTool {
    fn name(&self) -> &str {
        NAME
    }

    fn description(&self) -> &str {
        "Edits files (the way to change existing ones).\n\
         One edit: file_path + old_string + new_string. old_string must match the file \
         exactly once (copy it from read_file without the `N\\t` prefixes; add lines to make \
         it unique), or set replace_all.\n\
         Several edits to one file: file_path + edits: [{old_string, new_string}], all or none.\n\
         Several files: input = a `*** Begin Patch` … `*** End Patch` patch with \
         `*** Update File: a.rs` (`@@` hunks, `-`/`+` lines), `*** Add File:`, \
         `*** Delete File:` sections.\n\
         The user may accept only some hunks; the result says which."
    }

    fn input_schema(&self) -> serde_json::Value {
        json!({
            "type": "object",
            "properties": {
                "file_path": {"type": "string"},
                "old_string": {"type": "string"},
                "new_string": {"type": "string"},
                "replace_all": {"type": "boolean"},
                "edits": {
                    "type": "array",
                    "minItems": 1,
                    "description": "Several replacements in one file, in order.",
                    "items": {
                        "type": "object",
                        "properties": {
                            "old_string": {"type": "string"},
                            "new_string": {"type": "string"},
                            "replace_all": {"type": "boolean"}
                        },
                        "required": ["old_string", "new_string"],
                        "additionalProperties": false
                    }
                },
                "input": {"type": "string", "minLength": 1},
                "patch": {"type": "string", "minLength": 1, "description": "Same as input."}
            },
            "additionalProperties": false
        })
    }

    fn advanced_params(&self) -> &'static [&'static str] {
        &["patch"]
    }

    // A small model does best with one way to edit: it mixed `edits`, `input` and
    // `old_string` when all three were offered without the long description.
    fn compact_hidden_params(&self) -> &'static [&'static str] {
        &["edits", "input"]
    }

    fn brief(&self) -> Option<&str> {
        Some("Replaces `old_string` (copied exactly from the file; it must match once) with `new_string` in `file_path`.")
    }

    fn risk(&self) -> RiskLevel {
        RiskLevel::Write
    }

    fn preview(
        &self,
        ctx: &ToolContext,
        args: &serde_json::Value,
    ) -> BoxFuture<'static, Result<ToolPreview, ToolError>> {
        let key = call_key(ctx, args);
        let parsed = parse_args::<Input>(NAME, args.clone()).and_then(Input::into_request);
        let ctx = ctx.clone();
        let computed = parsed.map(|request| {
            fsutil::blocking_in(ctx.files.clone(), NAME, move || {
                let plan = plan(&ctx, request)?;
                let hunks = plan.hunks();
                let units = plan.units(&hunks);
                let preview = ToolPreview {
                    risk: RiskLevel::Write,
                    fingerprint: plan.fingerprint(),
                    why: plan.why(&hunks),
                    command: None,
                    cwd: Some(ctx.cwd.display().to_string()),
                    diff: Some(plan.file_diff(&hunks)),
                };
                let sig = signature(&units);
                drop(hunks);
                Ok((preview, sig, Arc::new(plan)))
            })
        });
        let previews = self.previews.clone();
        let plans = self.plans.clone();
        Box::pin(async move {
            let (preview, sig, plan) = computed?.await?;
            previews.remember(key.clone(), sig);
            plans.put(key, plan);
            Ok(preview)
        })
    }

    fn view(&self, ctx: &ToolContext, args: &serde_json::Value) -> ToolView {
        match parse_args::<Input>(NAME, args.clone()).and_then(Input::into_request) {
            Ok(request) => view::of_request(ctx, &request),
            Err(_) => ToolView::other(NAME, args),
        }
    }

    fn run(&self, ctx: ToolContext, args: serde_json::Value) -> BoxFuture<'static, ToolResult> {
        self.invoke(ctx, ToolInvocation::whole(args))
    }

    fn invoke(&self, ctx: ToolContext, call: ToolInvocation) -> BoxFuture<'static, ToolResult> {
        let key = call_key(&ctx, &call.args);
        let expected = self.previews.recall(&key);
        let plans = self.plans.clone();
        Box::pin(async move {
            let request = parse_args::<Input>(NAME, call.args)?.into_request()?;
            let accepted = call.approved.hunks().map(<[u32]>::to_vec);
            let accepted_edits = call.approved.edits().map(<[u32]>::to_vec);
            fsutil::blocking_in(ctx.files.clone(), NAME, move || {
                let plan = match plans.take(&key) {
                    Some(plan) => plan,
                    None => Arc::new(plan(&ctx, request)?),
                };
                // Diffed once: the check and the commit use the same hunks.
                let hunks = plan.hunks();
                if accepted.is_some() || accepted_edits.is_some() {
                    PreviewMemory::check(expected, &signature(&plan.units(&hunks)), NAME)?;
                }
                if let Some(edits) = accepted_edits {
                    let (chosen, note) = plan.with_edits(&edits)?;
                    let chosen_hunks = chosen.hunks();
                    let report = commit(&chosen, &chosen_hunks, None)?;
                    let view = chosen.view(&chosen_hunks, None, Some(&edits));
                    return Ok(ToolOutput::text(format!("{report}\n({note})")).with_view(view));
                }
                let view = plan.view(&hunks, accepted.as_deref(), None);
                commit(&plan, &hunks, accepted.as_deref())
                    .map(|report| ToolOutput::text(report).with_view(view))
            })
            .await
        })
    }
}
