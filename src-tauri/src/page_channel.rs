//! The shell's channels to the page: what a command streams to a `Channel` the UI passed
//! it (a session's events, the activity list, a terminal's output, the window's signals).
//!
//! The UI side is Tauri's own `Channel` class (`@tauri-apps/api/core`); only the delivery
//! is Memo's. Tauri's Rust `Channel` runs every message, and each channel's end, as a
//! script through WebKit's evaluate call, and WebKit then reads the script's result in a
//! JavaScript context of the app process, even when nobody asks for it: the first one
//! brings up a JavaScript engine there that stays (measured: ~3 MiB of the app's memory).
//! Here the page fetches instead: messages wait in the window's [`Mailbox`] and the page
//! takes them with `receive_messages`, a request that stays open until there are some.
//! Nothing runs while nothing is sent, on either side.
//!
//! Each channel's messages are numbered from 0 so the page's `Channel` puts them in order;
//! a message without a body after the last is the channel's end, which lets the page
//! forget it.

use std::pin::pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use memo_protocol::PageMessage;
use serde::{Deserialize, Deserializer, Serialize};
use tokio::sync::Notify;

/// How a channel crosses IPC from the page (`Channel.toJSON()` in `@tauri-apps/api`).
const CHANNEL_PREFIX: &str = "__CHANNEL__:";
/// Bytes of messages the page has not taken yet past which a channel counts as gone: a
/// page that stopped taking them (hung, or reloading) must not grow the app without end.
/// Terminals wait for the page's acknowledgement and sessions coalesce their deltas, so a
/// live page stays far below it.
const MAX_PENDING_BYTES: usize = 64 << 20;

/// A channel as a command receives it: the id of the page's callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChannelId(u32);

impl<'de> Deserialize<'de> for ChannelId {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.strip_prefix(CHANNEL_PREFIX)
            .and_then(|id| id.parse().ok())
            .map(ChannelId)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "not a channel: `{text}` (expected `{CHANNEL_PREFIX}<id>`)"
                ))
            })
    }
}

/// The window's messages that the page has not taken yet.
#[derive(Default)]
pub struct Mailbox {
    queue: Mutex<Queue>,
    posted: Notify,
}

#[derive(Default)]
struct Queue {
    messages: Vec<PageMessage>,
    bytes: usize,
    /// Counts calls to `receive`: only the latest one takes messages.
    receiver: u64,
}

impl Mailbox {
    fn queue(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues `message`; false when the page has left too much untaken.
    fn post(&self, message: PageMessage) -> bool {
        let bytes = message.message.as_ref().map_or(0, |m| m.get().len());
        {
            let mut queue = self.queue();
            if queue.bytes + bytes > MAX_PENDING_BYTES {
                return false;
            }
            queue.bytes += bytes;
            queue.messages.push(message);
        }
        self.posted.notify_waiters();
        true
    }

    /// Waits until messages are there and takes them all, in the order they were sent. A
    /// later call (the page reloaded while an earlier one waited) ends the earlier one's
    /// wait with nothing.
    pub async fn receive(&self) -> Vec<PageMessage> {
        let me = {
            let mut queue = self.queue();
            queue.receiver += 1;
            queue.receiver
        };
        self.posted.notify_waiters();
        loop {
            // Registered before the queue is looked at, so a post in between still wakes it.
            let mut posted = pin!(self.posted.notified());
            posted.as_mut().enable();
            {
                let mut queue = self.queue();
                if queue.receiver != me {
                    return Vec::new();
                }
                if !queue.messages.is_empty() {
                    queue.bytes = 0;
                    return std::mem::take(&mut queue.messages);
                }
            }
            posted.await;
        }
    }

    /// Drops what the page has not taken: a page that (re)loads has none of the channels.
    pub fn clear(&self) {
        let mut queue = self.queue();
        queue.messages.clear();
        queue.bytes = 0;
    }
}

/// Messages of type `T` to one channel of the page, in order. Dropping it ends the channel.
pub struct PageChannel<T> {
    mailbox: Arc<Mailbox>,
    id: ChannelId,
    /// The next message's index: taken only by a message the mailbox accepted, so the
    /// page never waits for one that was not sent.
    next: Mutex<u32>,
    message: std::marker::PhantomData<fn(T)>,
}

impl<T: Serialize> PageChannel<T> {
    pub fn new(mailbox: Arc<Mailbox>, id: ChannelId) -> Self {
        Self {
            mailbox,
            id,
            next: Mutex::new(0),
            message: std::marker::PhantomData,
        }
    }

    /// Sends `message`; false once the page has stopped taking messages (or the message
    /// cannot be written as JSON, which the protocol's types always can).
    pub fn send(&self, message: &T) -> bool {
        // Written once, and not read back: `to_raw_value` trusts its own output.
        let body = match serde_json::value::to_raw_value(message) {
            Ok(body) => body,
            Err(error) => {
                tracing::error!(%error, "a channel message could not be written as JSON");
                return false;
            }
        };
        let mut next = self.next.lock().unwrap_or_else(PoisonError::into_inner);
        let posted = self.mailbox.post(PageMessage {
            channel: self.id.0,
            index: *next,
            message: Some(body),
        });
        if posted {
            *next += 1;
        }
        posted
    }
}

impl<T> Drop for PageChannel<T> {
    fn drop(&mut self) {
        // A page that stopped taking messages has nothing left to forget.
        let _ = self.mailbox.post(PageMessage {
            channel: self.id.0,
            index: *self.next.lock().unwrap_or_else(PoisonError::into_inner),
            message: None,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_channel_id_is_read_from_the_pages_form_and_anything_else_is_refused() {
        let id: ChannelId = serde_json::from_str("\"__CHANNEL__:3990325130\"").unwrap();
        assert_eq!(id, ChannelId(3_990_325_130));
        for bad in [
            "\"3990325130\"",
            "\"__CHANNEL__:\"",
            "\"__CHANNEL__:x1\"",
            "17",
        ] {
            assert!(serde_json::from_str::<ChannelId>(bad).is_err(), "{bad}");
        }
    }

    /// A page's request, waiting in the background.
    fn request(mailbox: &Arc<Mailbox>) -> tokio::task::JoinHandle<Vec<PageMessage>> {
        let mailbox = mailbox.clone();
        tokio::spawn(async move { mailbox.receive().await })
    }

    /// What a request got, failing after 5 s.
    async fn answer(request: tokio::task::JoinHandle<Vec<PageMessage>>) -> Vec<PageMessage> {
        tokio::time::timeout(Duration::from_secs(5), request)
            .await
            .unwrap()
            .unwrap()
    }

    fn bodies(messages: &[PageMessage]) -> Vec<(u32, u32, Option<String>)> {
        messages
            .iter()
            .map(|m| {
                (
                    m.channel,
                    m.index,
                    m.message.as_ref().map(|b| b.get().to_owned()),
                )
            })
            .collect()
    }

    #[tokio::test]
    async fn messages_wait_for_the_page_in_order_and_a_channels_end_follows_its_last() {
        let mailbox = Arc::new(Mailbox::default());
        let channel = PageChannel::<Vec<String>>::new(mailbox.clone(), ChannelId(7));
        assert!(channel.send(&vec!["a\u{2028}b".to_owned()]));
        let other = PageChannel::<u32>::new(mailbox.clone(), ChannelId(9));
        assert!(other.send(&5));
        assert!(channel.send(&vec![]));
        drop(channel);
        let taken = mailbox.receive().await;
        assert_eq!(
            bodies(&taken),
            [
                (7, 0, Some("[\"a\u{2028}b\"]".to_owned())),
                (9, 0, Some("5".to_owned())),
                (7, 1, Some("[]".to_owned())),
                (7, 2, None),
            ]
        );
        // As the page reads it: the end carries no message at all.
        assert_eq!(
            serde_json::to_string(&taken[3]).unwrap(),
            r#"{"channel":7,"index":2}"#
        );
    }

    #[tokio::test]
    async fn a_waiting_page_gets_a_message_as_soon_as_it_is_sent() {
        let mailbox = Arc::new(Mailbox::default());
        let waiting = request(&mailbox);
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished(), "nothing was sent yet");
        let channel = PageChannel::<&str>::new(mailbox.clone(), ChannelId(1));
        assert!(channel.send(&"hi"));
        let taken = answer(waiting).await;
        assert_eq!(bodies(&taken), [(1, 0, Some("\"hi\"".to_owned()))]);
    }

    #[tokio::test]
    async fn a_reloaded_pages_request_ends_the_old_ones_and_takes_what_comes() {
        let mailbox = Arc::new(Mailbox::default());
        let old = request(&mailbox);
        tokio::time::sleep(Duration::from_millis(50)).await;
        let new = request(&mailbox);
        assert!(answer(old).await.is_empty());
        let channel = PageChannel::<u8>::new(mailbox.clone(), ChannelId(2));
        assert!(channel.send(&1));
        let taken = answer(new).await;
        assert_eq!(bodies(&taken), [(2, 0, Some("1".to_owned()))]);
    }

    #[tokio::test]
    async fn a_page_that_stops_taking_messages_makes_its_channels_count_as_gone() {
        let mailbox = Arc::new(Mailbox::default());
        let channel = PageChannel::<String>::new(mailbox.clone(), ChannelId(3));
        let chunk = "x".repeat(1 << 20);
        let mut sent = 0;
        while channel.send(&chunk) {
            sent += 1;
            assert!(sent <= 64, "the queue has no bound");
        }
        assert!(sent >= 60);
        // What the page then takes frees the room again.
        let taken = mailbox.receive().await;
        assert_eq!(taken.len(), sent);
        assert!(channel.send(&chunk));
        // A page that loads again has none of the old channels' messages.
        mailbox.clear();
        assert!(channel.send(&"after".to_owned()));
        let taken = mailbox.receive().await;
        assert_eq!(
            bodies(&taken),
            [(3, sent as u32 + 1, Some("\"after\"".to_owned()))]
        );
    }
}
