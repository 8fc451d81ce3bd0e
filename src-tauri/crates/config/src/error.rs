use std::path::PathBuf;

/// Problems with the Memo home or config.toml. Every variant names the file, because
/// that is what the user has to open to fix it.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot find the home directory; set MEMO_HOME to the Memo directory")]
    NoHome,

    #[error("cannot read {}: {source}", .path.display())]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// Syntax or content error at a position in the file, formatted like a compiler
    /// diagnostic: `/home/u/.memo/config.toml:7:7: providers.deepseek[0].api: <message>`.
    #[error("{}:{line}:{column}: {}{message}", .path.display(), key_prefix(.key))]
    Invalid {
        path: PathBuf,
        /// 1-based.
        line: usize,
        /// 1-based, in characters.
        column: usize,
        /// The key path, e.g. `providers.deepseek[0].api`, when one applies.
        key: Option<String>,
        message: String,
    },

    /// The file changed on disk since it was read; saving would lose that change.
    #[error("{} changed on disk since it was opened; reload it and make the change again (nothing was written)", .path.display())]
    Conflict { path: PathBuf },

    #[error("cannot write {}: {source}", .path.display())]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },

    /// An edit that cannot be made (a duplicate name, a provider that is not there).
    #[error("{}: {message}", .path.display())]
    Edit { path: PathBuf, message: String },

    #[error("no model provider is configured in {}; add one, e.g.\n\n[[providers.deepseek]]\nname = \"deepseek\"\nenv_api_key = \"DEEPSEEK_API_KEY\"\nmodel = \"deepseek-chat\"\nbase_url = \"https://api.deepseek.com\"", .path.display())]
    NoProviders { path: PathBuf },

    #[error("no provider named {name:?} in {} (configured: {})", .path.display(), .available.join(", "))]
    UnknownProvider {
        name: String,
        path: PathBuf,
        available: Vec<String>,
    },
}

fn key_prefix(key: &Option<String>) -> String {
    key.as_ref().map(|k| format!("{k}: ")).unwrap_or_default()
}
