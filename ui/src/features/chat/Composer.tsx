import { useEffect, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";

import { SendIcon, StopIcon } from "../../components/icons";

const MAX_HEIGHT_PX = 220;

interface ComposerProps {
  /** No folder open: nothing to talk about yet. */
  disabled: boolean;
  /** A message is on its way; typing is fine, sending again is not. */
  busy: boolean;
  /** A turn runs: the button stops it instead of sending. */
  running: boolean;
  placeholder: string;
  /** Replaces the draft when it changes (a rewound message to edit). */
  prefill?: { id: number; text: string } | null;
  onSend: (text: string) => Promise<boolean>;
  onStop: () => void;
}

export function Composer({ disabled, busy, running, placeholder, prefill, onSend, onStop }: ComposerProps) {
  const [draft, setDraft] = useState("");
  const input = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (!prefill) return;
    setDraft(prefill.text);
    const element = input.current;
    if (element) {
      element.focus();
      // After React wrote the value: the caret goes to the end, ready to edit.
      requestAnimationFrame(() => element.setSelectionRange(prefill.text.length, prefill.text.length));
    }
  }, [prefill]);

  // Grow with the text up to a limit, then scroll inside.
  useLayoutEffect(() => {
    const element = input.current;
    if (!element) return;
    element.style.height = "auto";
    element.style.height = `${Math.min(element.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [draft]);

  // Focus when the composer becomes usable (a folder opened, a session switched).
  useLayoutEffect(() => {
    if (!disabled) input.current?.focus();
  }, [disabled]);

  const canSend = !disabled && !busy && !running && draft.trim() !== "";

  const submit = async () => {
    if (!canSend) return;
    const text = draft.trim();
    // Keep the draft until the session took it, so a failure loses nothing.
    if (await onSend(text)) {
      setDraft((current) => (current.trim() === text ? "" : current));
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Esc interrupts, as in terminal agents; the draft stays.
    if (event.key === "Escape" && running) {
      event.preventDefault();
      onStop();
      return;
    }
    // isComposing: Enter that confirms an IME composition must not send.
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit();
  };

  return (
    <form className="composer" onSubmit={onSubmit} data-testid="composer">
      <div className={`composer__box${disabled ? " composer__box--disabled" : ""}`}>
        <textarea
          ref={input}
          className="composer__input"
          placeholder={placeholder}
          aria-label="Message"
          rows={1}
          value={draft}
          disabled={disabled}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
        />
        {running ? (
          <button type="button" className="button button--stop composer__send" onClick={onStop} data-testid="stop-button">
            <StopIcon className="button__icon" />
            Stop
          </button>
        ) : (
          <button type="submit" className="button button--primary composer__send" disabled={!canSend} data-testid="send-button">
            <SendIcon className="button__icon" />
            Send
          </button>
        )}
      </div>
      <p className="composer__hint">
        {running ? (
          <>
            <kbd>Esc</kbd> to stop
          </>
        ) : (
          <>
            <kbd>Enter</kbd> to send · <kbd>Shift</kbd>+<kbd>Enter</kbd> for a new line
          </>
        )}
      </p>
    </form>
  );
}
