//! Integration tests of the mock LLM server over real HTTP, one binary to keep
//! link time down.

mod anthropic;
mod binary;
mod common;
mod control;
mod delivery;
mod gemini;
mod openai;
