//! An ACP prompt as the message Memo's engine takes.
//!
//! Text is the message. A file the person mentioned — a resource link, or an embedded
//! resource with a `file://` URI — becomes an `@path` reference, so the engine attaches
//! it as it attaches the window's: through the deny rules for secrets and the size
//! limits, read from disk. Other embedded text (a selection, an unsaved buffer) is put in
//! the message as context, capped. Images go with the message as images.

use std::path::Path;

use crate::schema as acp;
use memo_protocol::{ImageInput, UserInput};

/// Characters of one embedded non-file resource kept in the message.
const EMBEDDED_TEXT_MAX: usize = 100 * 1024;

/// Why a prompt could not be taken.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum InputError {
    #[error("the prompt is empty")]
    Empty,
    #[error("Memo cannot take {0} in a prompt")]
    Unsupported(&'static str),
}

pub fn user_input(blocks: &[acp::ContentBlock], cwd: &Path) -> Result<UserInput, InputError> {
    let mut text = String::new();
    let mut context = String::new();
    let mut images = Vec::new();
    let add = |part: &str, text: &mut String| {
        if !text.is_empty() && !text.ends_with(char::is_whitespace) {
            text.push(' ');
        }
        text.push_str(part);
    };
    for block in blocks {
        match block {
            acp::ContentBlock::Text(t) => add(&t.text, &mut text),
            acp::ContentBlock::Image(image) => images.push(ImageInput {
                media_type: image.mime_type.clone(),
                data: image.data.clone(),
                name: None,
            }),
            acp::ContentBlock::ResourceLink(link) => match file_path(&link.uri) {
                Some(path) => add(&mention(&path, cwd), &mut text),
                None => add(&format!("[{}]({})", link.name, link.uri), &mut text),
            },
            acp::ContentBlock::Resource(embedded) => match &embedded.resource {
                acp::EmbeddedResourceResource::TextResourceContents(resource) => {
                    match file_path(&resource.uri) {
                        Some(path) => add(&mention(&path, cwd), &mut text),
                        None => push_context(&mut context, &resource.uri, &resource.text),
                    }
                }
                acp::EmbeddedResourceResource::BlobResourceContents(blob) => {
                    match blob.mime_type.as_deref() {
                        Some(mime) if mime.starts_with("image/") => images.push(ImageInput {
                            media_type: mime.to_owned(),
                            data: blob.blob.clone(),
                            name: None,
                        }),
                        _ => return Err(InputError::Unsupported("binary resources")),
                    }
                }
            },
            acp::ContentBlock::Audio(_) => return Err(InputError::Unsupported("audio")),
        }
    }
    if !context.is_empty() {
        text.push_str("\n\n");
        text.push_str(&context);
    }
    if text.trim().is_empty() && images.is_empty() {
        return Err(InputError::Empty);
    }
    Ok(UserInput {
        images,
        ..UserInput::text(text)
    })
}

/// The local path of a `file://` URI (percent-escapes decoded), if it is one.
fn file_path(uri: &str) -> Option<String> {
    let rest = uri.strip_prefix("file://")?;
    // `file://host/path`: only the local host's files are this machine's.
    let path = match rest.strip_prefix("localhost") {
        Some(path) => path,
        None => rest,
    };
    if !path.starts_with('/') {
        return None;
    }
    percent_decode(path)
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// `@path`, relative to the workspace when inside it, quoted when it has spaces.
fn mention(path: &str, cwd: &Path) -> String {
    let shown = Path::new(path)
        .strip_prefix(cwd)
        .ok()
        .filter(|rel| !rel.as_os_str().is_empty())
        .map(|rel| rel.display().to_string())
        .unwrap_or_else(|| path.to_owned());
    if shown.contains(char::is_whitespace) || shown.contains('"') {
        format!("@\"{}\"", shown.replace('"', "\\\""))
    } else {
        format!("@{shown}")
    }
}

fn push_context(context: &mut String, uri: &str, text: &str) {
    let mut end = text.len().min(EMBEDDED_TEXT_MAX);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let cut = if end < text.len() { "\n[… cut]" } else { "" };
    context.push_str(&format!(
        "<context uri=\"{uri}\">\n{}{cut}\n</context>\n",
        &text[..end]
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(t: &str) -> acp::ContentBlock {
        acp::ContentBlock::Text(acp::TextContent::new(t))
    }

    #[test]
    fn files_become_mentions_the_engine_attaches_and_other_text_becomes_context() {
        let cwd = Path::new("/work/app");
        let blocks = vec![
            text("fix"),
            acp::ContentBlock::ResourceLink(acp::ResourceLink::new(
                "a.rs",
                "file:///work/app/src/a.rs",
            )),
            text("and"),
            acp::ContentBlock::Resource(acp::EmbeddedResource::new(
                acp::EmbeddedResourceResource::TextResourceContents(
                    acp::TextResourceContents::new(
                        "fn b() {}",
                        "file:///work/app/my%20notes/%E7%AC%94%E8%AE%B0.md",
                    ),
                ),
            )),
            acp::ContentBlock::Resource(acp::EmbeddedResource::new(
                acp::EmbeddedResourceResource::TextResourceContents(
                    acp::TextResourceContents::new("let x = 1;", "zed://selection/1"),
                ),
            )),
        ];
        let input = user_input(&blocks, cwd).unwrap();
        assert_eq!(
            input.text,
            "fix @src/a.rs and @\"my notes/笔记.md\"\n\n<context uri=\"zed://selection/1\">\nlet x = 1;\n</context>\n"
        );
    }

    #[test]
    fn images_go_with_the_message_and_audio_is_refused() {
        let image = acp::ContentBlock::Image(acp::ImageContent::new("aGk=", "image/png"));
        let input = user_input(&[text("what is this?"), image], Path::new("/w")).unwrap();
        assert_eq!(
            input.images,
            [ImageInput {
                media_type: "image/png".into(),
                data: "aGk=".into(),
                name: None
            }]
        );
        let audio = acp::ContentBlock::Audio(acp::AudioContent::new("AAAA", "audio/wav"));
        assert_eq!(
            user_input(&[audio], Path::new("/w")),
            Err(InputError::Unsupported("audio"))
        );
        assert_eq!(
            user_input(&[text("  ")], Path::new("/w")),
            Err(InputError::Empty)
        );
    }

    #[test]
    fn only_local_file_uris_are_paths() {
        assert_eq!(file_path("file:///a/b").as_deref(), Some("/a/b"));
        assert_eq!(file_path("file://localhost/a").as_deref(), Some("/a"));
        assert_eq!(file_path("file://other-host/a"), None);
        assert_eq!(file_path("https://x/a"), None);
        assert_eq!(file_path("file:///a%zz"), None);
    }
}
