use serde::{Deserialize, Serialize};
use std::fmt;
use ts_rs::TS;

macro_rules! string_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
        pub struct $name(pub String);

        impl $name {
            pub fn new(value: impl Into<String>) -> Self {
                Self(value.into())
            }

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<&str> for $name {
            fn from(value: &str) -> Self {
                Self(value.to_owned())
            }
        }

        impl From<String> for $name {
            fn from(value: String) -> Self {
                Self(value)
            }
        }
    };
}

string_id!(
    /// A conversation; stable across restarts (it is the primary key in the store).
    SessionId
);
string_id!(
    /// One user turn inside a session: the user's input and every model step it caused.
    TurnId
);
string_id!(
    /// The id a provider gave a tool call (or one we synthesised when it gave none).
    ToolCallId
);
string_id!(
    /// One pending approval question.
    ApprovalId
);
