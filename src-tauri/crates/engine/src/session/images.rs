//! Images of a user message: checked before a turn starts (count, media type, base64,
//! size, and whether the session's model takes images at all), so a refused message
//! sends nothing and records no turn; and kept out of requests to a model without vision
//! after a switch, so a session with images in its history stays usable.

use std::sync::Arc;

use base64::Engine as _;
use memo_model::Message;
use memo_protocol::{ErrorKind, ImageInput};

/// Images one message may carry.
pub const MAX_IMAGES: usize = 8;
/// Decoded bytes one image may have (5 MiB, Anthropic's limit; OpenAI's and Gemini's
/// inline limits are larger).
pub const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;
/// The media types all three wire APIs accept.
pub const MEDIA_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/// Why the images of a message cannot be sent, as the `error` event says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub kind: ErrorKind,
    pub message: String,
}

/// Checks a message's images for `model` (`vision`: its profile's `supports_vision`).
pub fn check(images: &[ImageInput], model: &str, vision: bool) -> Result<(), Refusal> {
    if images.is_empty() {
        return Ok(());
    }
    if !vision {
        return Err(Refusal {
            kind: ErrorKind::Config,
            message: format!(
                "{model} does not take images (set supports_vision = true in \
                 [model_profiles.\"{model}\"] if it does)"
            ),
        });
    }
    let invalid = |message: String| Refusal {
        kind: ErrorKind::InvalidOp,
        message,
    };
    if images.len() > MAX_IMAGES {
        return Err(invalid(format!(
            "a message can carry at most {MAX_IMAGES} images; this one has {}",
            images.len()
        )));
    }
    for (i, image) in images.iter().enumerate() {
        let what = match &image.name {
            Some(name) if !name.is_empty() => format!("image {} ({name})", i + 1),
            _ => format!("image {}", i + 1),
        };
        if !MEDIA_TYPES.contains(&image.media_type.as_str()) {
            return Err(invalid(format!(
                "{what} has media type {:?}; expected one of {}",
                image.media_type,
                MEDIA_TYPES.join(", ")
            )));
        }
        // The size first, from the length: a huge image is refused without decoding it.
        let size = decoded_len(&image.data);
        if size > MAX_IMAGE_BYTES {
            return Err(invalid(format!(
                "{what} is {} bytes; an image may have at most {MAX_IMAGE_BYTES} bytes (5 MiB)",
                size
            )));
        }
        match base64::engine::general_purpose::STANDARD.decode(image.data.as_bytes()) {
            Ok(bytes) if bytes.is_empty() => {
                return Err(invalid(format!("{what} is empty")));
            }
            Ok(_) => {}
            Err(error) => {
                return Err(invalid(format!(
                    "{what} is not valid base64 (standard alphabet, padded): {error}"
                )));
            }
        }
    }
    Ok(())
}

/// The bytes `data` decodes to, if it is valid base64.
fn decoded_len(data: &str) -> usize {
    let padding = data.bytes().rev().take_while(|b| *b == b'=').count().min(2);
    (data.len() / 4 * 3).saturating_sub(padding)
}

/// The history as a model without vision may receive it: images that earlier messages
/// carried (to another model, before a switch) are replaced by a note in the text.
/// Unchanged, and not copied, when the model takes images or there are none.
pub fn for_model(history: Arc<Vec<Message>>, vision: bool) -> Arc<Vec<Message>> {
    let has_images = history
        .iter()
        .any(|m| matches!(m, Message::User { images, .. } if !images.is_empty()));
    if vision || !has_images {
        return history;
    }
    Arc::new(history.iter().map(without_images).collect())
}

/// `message` with its images replaced by a note saying they were left out.
pub fn without_images(message: &Message) -> Message {
    match message {
        Message::User { text, images } if !images.is_empty() => {
            let note = match images.len() {
                1 => "[1 image not shown: the current model does not take images]".to_owned(),
                n => format!("[{n} images not shown: the current model does not take images]"),
            };
            let text = if text.is_empty() {
                note
            } else {
                format!("{text}\n\n{note}")
            };
            Message::user(text)
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use memo_model::ImagePart;

    fn image(media_type: &str, data: &str) -> ImageInput {
        ImageInput {
            media_type: media_type.into(),
            data: data.into(),
            name: Some("shot.png".into()),
        }
    }

    fn refusal(images: &[ImageInput]) -> Refusal {
        check(images, "m", true).unwrap_err()
    }

    #[test]
    fn valid_images_pass_and_none_always_pass() {
        assert_eq!(check(&[], "m", false), Ok(()));
        let ok = [
            image("image/png", "iVBORw0KGgo="),
            image("image/webp", "UklGRg=="),
        ];
        assert_eq!(check(&ok, "m", true), Ok(()));
    }

    #[test]
    fn a_model_without_vision_is_named_with_the_setting() {
        let err = check(&[image("image/png", "iVBORw0KGgo=")], "llama3", false).unwrap_err();
        assert_eq!(err.kind, ErrorKind::Config);
        assert_eq!(
            err.message,
            "llama3 does not take images (set supports_vision = true in \
             [model_profiles.\"llama3\"] if it does)"
        );
    }

    #[test]
    fn bad_images_are_refused_with_the_reason() {
        let nine = vec![image("image/png", "iVBORw0KGgo="); 9];
        assert!(refusal(&nine).message.contains("at most 8 images"));
        let svg = refusal(&[image("image/svg+xml", "PHN2Zz4=")]);
        assert_eq!(svg.kind, ErrorKind::InvalidOp);
        assert!(
            svg.message.contains("image 1 (shot.png)"),
            "{}",
            svg.message
        );
        assert!(svg.message.contains("image/svg+xml"), "{}", svg.message);
        for data in ["not base64!", "iVBORw0KGgo", "iVBO\nRw0KGgo="] {
            let err = refusal(&[image("image/png", data)]);
            assert!(
                err.message.contains("not valid base64"),
                "{data:?}: {}",
                err.message
            );
        }
        assert!(refusal(&[image("image/png", "")])
            .message
            .contains("is empty"));
        let big = "A".repeat((MAX_IMAGE_BYTES / 3 + 1) * 4);
        let err = refusal(&[image("image/jpeg", &big)]);
        assert!(
            err.message.contains("at most 5242880 bytes"),
            "{}",
            err.message
        );
        // Exactly 5 MiB is allowed.
        let limit = "A".repeat(MAX_IMAGE_BYTES / 3 * 4) + "AAA=";
        assert_eq!(decoded_len(&limit), MAX_IMAGE_BYTES);
        assert_eq!(check(&[image("image/jpeg", &limit)], "m", true), Ok(()));
    }

    #[test]
    fn a_model_without_vision_gets_a_note_instead_of_images() {
        let png = ImagePart {
            media_type: "image/png".into(),
            data: "iVBORw0KGgo=".into(),
        };
        let history = Arc::new(vec![
            Message::User {
                text: "what is this?".into(),
                images: vec![png.clone(), png],
            },
            Message::user("and now?"),
        ]);
        assert!(Arc::ptr_eq(&for_model(history.clone(), true), &history));
        let sent = for_model(history, false);
        assert_eq!(
            sent[0],
            Message::user(
                "what is this?\n\n[2 images not shown: the current model does not take images]"
            )
        );
        assert_eq!(sent[1], Message::user("and now?"));
    }
}
