//! What an edit call is and did, as people read it: each file with its kind (added,
//! changed, deleted, moved), its diff and the hunks or edits a person accepted.

use memo_protocol::{EditKind, EditedFile, FileEditView, ToolView};

use super::{Kind, Plan, Request, Unit};
use crate::files::diff::FileHunks;
use crate::files::fsutil::{display_path, real_cwd};
use crate::files::patch_format::{self, PatchOp};
use crate::ToolContext;

impl Plan {
    /// The files of the plan and their diffs. `accepted` are approval hunks (indices
    /// into [`Plan::units`], across the files); `accepted_edits` a several-edit call's.
    pub(super) fn view(
        &self,
        hunks: &[FileHunks<'_>],
        accepted: Option<&[u32]>,
        accepted_edits: Option<&[u32]>,
    ) -> ToolView {
        let units = self.units(hunks);
        let files = self
            .changes
            .iter()
            .zip(hunks)
            .enumerate()
            .map(|(ci, (c, fh))| {
                let (from, to, change) = match (&c.kind, &c.dest) {
                    (Kind::Add, _) => ("/dev/null".to_owned(), c.display.clone(), EditKind::Add),
                    (Kind::Delete, _) => {
                        (c.display.clone(), "/dev/null".to_owned(), EditKind::Delete)
                    }
                    (Kind::Update, Some((_, dest))) => (
                        c.display.clone(),
                        dest.clone(),
                        EditKind::Move {
                            from: c.display.clone(),
                        },
                    ),
                    (Kind::Update, None) => {
                        (c.display.clone(), c.display.clone(), EditKind::Modify)
                    }
                };
                // The approval numbers hunks across every file; each file counts its own.
                let applied_hunks = accepted.map(|accepted| {
                    units
                        .iter()
                        .enumerate()
                        .filter(|(i, (unit_ci, _, _, _))| {
                            *unit_ci == ci && accepted.contains(&(*i as u32))
                        })
                        .filter_map(|(_, (_, unit, _, _))| match unit {
                            Unit::Hunk(h) => Some(*h as u32),
                            Unit::Rename | Unit::Empty => None,
                        })
                        .collect()
                });
                let path = if matches!(change, EditKind::Delete) {
                    from.clone()
                } else {
                    to.clone()
                };
                EditedFile {
                    diff: Some(fh.file_diff(&path, &from, &to)),
                    path,
                    change,
                    applied_hunks,
                    applied_edits: accepted_edits.map(<[u32]>::to_vec),
                }
            })
            .collect();
        ToolView::FileEdit(FileEditView { files })
    }
}

/// The files a call names, from its arguments alone (no file is read): before it runs.
pub(super) fn of_request(ctx: &ToolContext, request: &Request) -> ToolView {
    let cwd = real_cwd(&ctx.cwd);
    let shown = |path: &str| display_path(&cwd, &ctx.resolve(path));
    let file = |path: String, change: EditKind| EditedFile {
        path,
        change,
        diff: None,
        applied_hunks: None,
        applied_edits: None,
    };
    let files = match request {
        Request::Edits { file_path, .. } => vec![file(shown(file_path), EditKind::Modify)],
        Request::Patch(patch) => patch_format::parse(patch)
            .unwrap_or_default()
            .into_iter()
            .map(|op| match op {
                PatchOp::Add { path, .. } => file(shown(&path), EditKind::Add),
                PatchOp::Delete { path } => file(shown(&path), EditKind::Delete),
                PatchOp::Update {
                    path,
                    move_to: Some(dest),
                    ..
                } => file(shown(&dest), EditKind::Move { from: shown(&path) }),
                PatchOp::Update { path, .. } => file(shown(&path), EditKind::Modify),
            })
            .collect(),
    };
    ToolView::FileEdit(FileEditView { files })
}
