//! The agent engine.
