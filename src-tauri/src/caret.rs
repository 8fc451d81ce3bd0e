//! The caret stops blinking after a while without input, as it does in GTK's own text
//! boxes (`gtk-cursor-blink-timeout`, 10 s by default). WebKitGTK ignores that timeout and
//! blinks the caret for as long as a text box has focus, and without compositing (see
//! `rendering.rs`) every blink repaints the window. Measured idle with a text box focused:
//! 1.3–1.8 % of a core for Memo's window after a turn, 0.7 % for a bare hello-world page,
//! and 0.1 % for the same page with the caret steady.
//!
//! After the timeout Memo sets GTK's blink period (`gtk-cursor-blink-time`) to the longest
//! GTK allows, and the next key press, click or return to the window puts the user's
//! period back. The caret stays shown meanwhile. Turning `gtk-cursor-blink` off instead
//! would be the obvious switch, but WebKit 2.50 then costs more while idle, not less
//! (measured: 2.1 % of a core against 0.7 % blinking). Nothing polls: one timer runs per
//! quiet spell.
//!
//! Only when the user's settings blink the caret and stop it after a timeout; otherwise
//! nothing changes.

use std::time::{Duration, Instant};

/// How early a timer may fire and still count as on time.
const SLACK: Duration = Duration::from_millis(50);

/// The blink period while the caret rests: a toggle every ~12 days, GTK's largest value.
const RESTING_PERIOD_MS: i32 = i32::MAX;

/// What to do to the caret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Nothing,
    StartBlinking,
    StopBlinking,
}

/// When the caret blinks: the last input, and whether blinking is on.
#[derive(Debug)]
pub struct Blink {
    timeout: Duration,
    last_input: Instant,
    blinking: bool,
    /// A timer is pending; the next input need not start one.
    timer_pending: bool,
}

impl Blink {
    /// Blinking, as at start, with `timeout` of quiet before it stops.
    pub fn new(timeout: Duration, now: Instant) -> Self {
        Self {
            timeout,
            last_input: now,
            blinking: true,
            timer_pending: false,
        }
    }

    /// Input came: blinking goes on again if it was off. Returns the change, and how long
    /// a timer should wait when one must be started.
    pub fn input(&mut self, now: Instant) -> (Change, Option<Duration>) {
        self.last_input = now;
        let change = if self.blinking {
            Change::Nothing
        } else {
            self.blinking = true;
            Change::StartBlinking
        };
        (change, self.arm(self.timeout))
    }

    /// The timer fired: blinking stops if the quiet lasted the whole timeout, else a timer
    /// for what is left of it.
    pub fn timer(&mut self, now: Instant) -> (Change, Option<Duration>) {
        self.timer_pending = false;
        let quiet = now.saturating_duration_since(self.last_input);
        // Timers fire to the millisecond, at times a little early: that is on time.
        if quiet + SLACK >= self.timeout {
            if self.blinking {
                self.blinking = false;
                return (Change::StopBlinking, None);
            }
            return (Change::Nothing, None);
        }
        (Change::Nothing, self.arm(self.timeout - quiet))
    }

    /// The timer to start, if none is pending.
    fn arm(&mut self, after: Duration) -> Option<Duration> {
        if self.timer_pending {
            return None;
        }
        self.timer_pending = true;
        Some(after)
    }
}

/// Watches the window's input and sets GTK's blink period: the longest after a quiet
/// timeout, the user's again on input (Linux, where the window is WebKitGTK).
#[cfg(target_os = "linux")]
pub fn attach(window: &tauri::WebviewWindow) {
    use gtk::glib::Cast;
    use gtk::prelude::*;
    use memo_protocol::WindowSignal;
    use std::cell::{Cell, RefCell};
    use std::rc::Rc;
    use tauri::Manager;

    let page = window.clone();
    let result = window.with_webview(move |webview| {
        let Some(settings) = gtk::Settings::default() else {
            return;
        };
        let blinks: bool = settings.property("gtk-cursor-blink");
        let timeout: i32 = settings.property("gtk-cursor-blink-timeout");
        let period: i32 = settings.property("gtk-cursor-blink-time");
        // Not blinking at all, or never stopping: the user's setting stands.
        if !blinks || timeout <= 0 || timeout == i32::MAX || period == RESTING_PERIOD_MS {
            return;
        }
        let timeout = Duration::from_secs(u64::from(timeout.unsigned_abs()));

        struct Caret {
            settings: gtk::Settings,
            /// The user's blink period, read when the caret comes to rest (it may have
            /// changed since start) and put back on input.
            period: Cell<i32>,
            page: tauri::WebviewWindow,
            state: RefCell<Blink>,
        }
        fn apply(caret: &Rc<Caret>, outcome: (Change, Option<Duration>)) {
            let (change, timer) = outcome;
            match change {
                Change::StartBlinking => {
                    caret
                        .settings
                        .set_property("gtk-cursor-blink-time", caret.period.get());
                }
                Change::StopBlinking => {
                    let period: i32 = caret.settings.property("gtk-cursor-blink-time");
                    if period != RESTING_PERIOD_MS {
                        caret.period.set(period);
                    }
                    caret
                        .settings
                        .set_property("gtk-cursor-blink-time", RESTING_PERIOD_MS);
                    // WebKit reads the period when the caret is next placed: the page
                    // places it again where it is (ui/src/state/caret.ts).
                    let asked = caret
                        .page
                        .try_state::<crate::state::AppState>()
                        .is_some_and(|state| state.signals().send(WindowSignal::PlaceCaret));
                    if !asked {
                        tracing::debug!("could not ask the page to place the caret again");
                    }
                }
                Change::Nothing => {}
            }
            if let Some(after) = timer {
                let caret = Rc::clone(caret);
                // Whole seconds: GLib wakes up once for every timer due in the same second.
                let seconds = u32::try_from(after.as_secs() + u64::from(after.subsec_nanos() > 0))
                    .unwrap_or(u32::MAX);
                gtk::glib::timeout_add_seconds_local_once(seconds, move || {
                    let outcome = caret.state.borrow_mut().timer(Instant::now());
                    apply(&caret, outcome);
                });
            }
        }
        let caret = Rc::new(Caret {
            settings,
            period: Cell::new(period),
            page,
            state: RefCell::new(Blink::new(timeout, Instant::now())),
        });

        let on_input = {
            let caret = Rc::clone(&caret);
            move || {
                let outcome = caret.state.borrow_mut().input(Instant::now());
                apply(&caret, outcome);
            }
        };
        // Keys reach the web view through the window; clicks reach the web view itself.
        let widget: gtk::Widget = webview.inner().upcast();
        let input = on_input.clone();
        widget.connect_event(move |_, event| {
            use gtk::gdk::EventType;
            if matches!(
                event.event_type(),
                EventType::KeyPress | EventType::ButtonPress | EventType::TouchBegin
            ) {
                input();
            }
            gtk::glib::Propagation::Proceed
        });
        // Coming back to the window makes the caret blink again.
        if let Some(toplevel) = widget.toplevel() {
            toplevel.connect_focus_in_event(move |_, _| {
                on_input();
                gtk::glib::Propagation::Proceed
            });
        }
        // The first quiet spell starts now.
        let first = caret.state.borrow_mut().input(Instant::now());
        apply(&caret, first);
    });
    if let Err(error) = result {
        tracing::warn!(%error, "the caret keeps blinking");
    }
}

/// Other platforms' web views stop the caret themselves.
#[cfg(not(target_os = "linux"))]
pub fn attach(_window: &tauri::WebviewWindow) {}

#[cfg(test)]
mod tests {
    use super::*;

    const TIMEOUT: Duration = Duration::from_secs(10);

    #[test]
    fn the_caret_stops_after_a_quiet_timeout_and_starts_on_input() {
        let t0 = Instant::now();
        let mut blink = Blink::new(TIMEOUT, t0);
        assert_eq!(blink.input(t0), (Change::Nothing, Some(TIMEOUT)));
        assert_eq!(blink.timer(t0 + TIMEOUT), (Change::StopBlinking, None));
        // Quiet on: nothing more happens, no timer runs.
        let later = t0 + TIMEOUT * 3;
        assert_eq!(blink.input(later), (Change::StartBlinking, Some(TIMEOUT)));
        assert_eq!(blink.timer(later + TIMEOUT), (Change::StopBlinking, None));
    }

    #[test]
    fn input_meanwhile_pushes_the_stop_back_with_one_timer() {
        let t0 = Instant::now();
        let mut blink = Blink::new(TIMEOUT, t0);
        assert_eq!(blink.input(t0).1, Some(TIMEOUT));
        // Typing while the timer runs starts no second timer.
        let typed = t0 + Duration::from_secs(4);
        assert_eq!(blink.input(typed), (Change::Nothing, None));
        assert_eq!(
            blink.input(typed + Duration::from_secs(2)),
            (Change::Nothing, None)
        );
        // The timer fires 6 s after the last key: it waits the 4 s left.
        assert_eq!(
            blink.timer(t0 + TIMEOUT),
            (Change::Nothing, Some(Duration::from_secs(6)))
        );
        assert_eq!(
            blink.timer(typed + Duration::from_secs(2) + TIMEOUT),
            (Change::StopBlinking, None)
        );
    }

    #[test]
    fn a_timer_a_few_milliseconds_early_is_on_time() {
        let t0 = Instant::now();
        let mut blink = Blink::new(TIMEOUT, t0);
        blink.input(t0);
        let early = t0 + TIMEOUT - Duration::from_millis(5);
        assert_eq!(blink.timer(early), (Change::StopBlinking, None));
    }

    #[test]
    fn a_late_timer_after_blinking_stopped_changes_nothing() {
        let t0 = Instant::now();
        let mut blink = Blink::new(TIMEOUT, t0);
        blink.input(t0);
        assert_eq!(blink.timer(t0 + TIMEOUT).0, Change::StopBlinking);
        assert_eq!(blink.timer(t0 + TIMEOUT * 2), (Change::Nothing, None));
    }
}
