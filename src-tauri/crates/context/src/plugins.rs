//! Where installed plugins keep commands and skills. memo-plugins reads the plugin format
//! and hands the folders over with the plugin's name; here they only become more roots
//! to search, whose commands and skills carry that name as a namespace
//! (`/plugin:command`, `plugin:skill`), so two plugins never shadow each other or the
//! user's own files.

use std::path::PathBuf;

/// A folder (or a single Markdown file) that belongs to the plugin `namespace`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamespacedPath {
    pub namespace: String,
    pub path: PathBuf,
}

impl NamespacedPath {
    pub fn new(namespace: impl Into<String>, path: impl Into<PathBuf>) -> NamespacedPath {
        NamespacedPath {
            namespace: namespace.into(),
            path: path.into(),
        }
    }
}

/// The command and skill roots of every enabled plugin.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PluginDirs {
    pub commands: Vec<NamespacedPath>,
    pub skills: Vec<NamespacedPath>,
}
