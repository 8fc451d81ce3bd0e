//! The embedded terminal's wire types: what one terminal sends to the UI over its channel.
//!
//! Output crosses IPC as base64 text rather than a byte array: Tauri channels carry JSON,
//! where `Vec<u8>` becomes an array of numbers (up to four characters and a comma per
//! byte, parsed one number at a time), while base64 is a flat string at 4/3 the size that
//! the browser decodes natively. Raw bytes, not text, because a read from the PTY can end in
//! the middle of a UTF-8 sequence and programs may print bytes that are not UTF-8 at all;
//! xterm.js takes the bytes and keeps a partial sequence until the next write completes it.

use serde::{Deserialize, Serialize};
use std::fmt;
use ts_rs::TS;

/// One embedded terminal of the app, unique while the app runs (never reused).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
pub struct TerminalId(pub u32);

impl fmt::Display for TerminalId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// What a terminal sends to its UI: output in order, then one `exit` as the last message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TerminalMessage {
    /// Raw bytes the terminal printed, base64-encoded (see the module docs). The UI acks
    /// the decoded byte count once it has rendered them.
    Output { data: String },
    /// The shell ended: its exit code, or `None` when a signal killed it.
    Exit { code: Option<i32> },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_have_the_shape_the_ui_reads() {
        let output = TerminalMessage::Output {
            data: "aGk=".into(),
        };
        assert_eq!(
            serde_json::to_value(&output).unwrap(),
            serde_json::json!({ "type": "output", "data": "aGk=" })
        );
        let exit = TerminalMessage::Exit { code: Some(3) };
        assert_eq!(
            serde_json::to_value(&exit).unwrap(),
            serde_json::json!({ "type": "exit", "code": 3 })
        );
        assert_eq!(serde_json::to_value(TerminalId(7)).unwrap(), 7);
    }
}
