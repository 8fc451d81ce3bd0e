//! The system prompt of the foundation: the embedded base template plus an environment
//! section. Layered assembly (SOUL.md, AGENTS.md, skills, tool descriptions) builds on this.

use std::path::Path;

/// The base instructions, embedded at build time.
pub const BASE_TEMPLATE: &str = include_str!("../../../../prompts/base.md");

pub fn system_prompt(cwd: &Path, base_override: Option<&str>) -> String {
    let base = base_override.unwrap_or(BASE_TEMPLATE).trim_end();
    format!(
        "{base}\n\n# Environment\n- Working directory: {}\n- Platform: {} ({})\n",
        cwd.display(),
        std::env::consts::OS,
        std::env::consts::ARCH,
    )
}
