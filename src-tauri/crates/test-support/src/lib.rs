//! Mock LLM server.
