//! The directory walk shared by list_dir, glob and grep_files: gitignore-aware (also in
//! folders that are not git repositories yet), hidden files included (`.github`,
//! `.env.example` matter to a coding agent), `.git` itself never entered, symlinks not
//! followed (a link to `/` must not turn a search of the workspace into one of the disk).

use std::path::Path;

use ignore::WalkBuilder;

pub fn builder(root: &Path) -> WalkBuilder {
    let mut b = WalkBuilder::new(root);
    b.hidden(false)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(true)
        .ignore(true)
        .parents(true)
        .require_git(false)
        .follow_links(false)
        .filter_entry(|e| e.file_name() != ".git");
    b
}
