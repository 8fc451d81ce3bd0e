//! The file tools (read, write, edit by patch or replacements, search, list, glob) and
//! what they share: path policy and read denials, diffs and previews, line indexes,
//! fuzzy matching, atomic writes, the directory walk.

pub(crate) mod apply_patch;
pub(crate) mod diff;
pub(crate) mod edit;
pub(crate) mod fsutil;
pub(crate) mod fuzzy;
pub(crate) mod glob;
pub(crate) mod grep_files;
pub mod host;
pub(crate) mod indentation;
pub(crate) mod line_index;
pub(crate) mod line_seek;
pub(crate) mod list_dir;
pub(crate) mod patch_format;
pub(crate) mod path_policy;
pub(crate) mod read_denials;
pub(crate) mod read_file;
pub mod walk;
pub(crate) mod write_file;
