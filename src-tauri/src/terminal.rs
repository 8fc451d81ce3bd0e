//! The embedded terminal's link to the window: each terminal's messages go to the channel
//! the UI passed to `terminal_open`, and terminal errors become `IpcError`s.

use memo_protocol::TerminalMessage;
use memo_terminal::{TerminalError, TerminalSink};

use crate::error::IpcError;
use crate::page_channel::PageChannel;

/// One terminal's channel to the window. A newtype because the trait belongs to another
/// crate.
pub struct ChannelSink(pub PageChannel<TerminalMessage>);

impl TerminalSink for ChannelSink {
    fn send(&self, message: TerminalMessage) -> bool {
        self.0.send(&message)
    }
}

impl From<TerminalError> for IpcError {
    fn from(error: TerminalError) -> Self {
        IpcError::new(error.code(), error.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_protocol::{ErrorCode, TerminalId};

    #[test]
    fn a_closed_terminal_is_not_found_for_the_ui() {
        let error = IpcError::from(TerminalError::NotFound(TerminalId(4)));
        assert_eq!(error.code, ErrorCode::NotFound);
        assert_eq!(error.message, "terminal 4 is not open");
        assert!(!error.retryable);
    }
}
