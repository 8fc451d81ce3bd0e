//! Running shell commands: the exec tools on a PTY, the sessions that outlive a call,
//! their live output, the text of their results, the command fingerprints rules match,
//! the Landlock sandbox, commands in an editor's terminal (ACP), and the other agents' shell tool shapes.

pub(crate) mod command;
pub mod fingerprint;
pub mod hosted;
pub(crate) mod live;
pub mod output;
pub mod sandbox;
pub(crate) mod session;
pub(crate) mod shell_compat;
pub(crate) mod shells;
