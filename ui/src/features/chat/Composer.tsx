import { memo, useEffect, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { Trans } from "react-i18next";

import { isImeComposing } from "../../components/ime";
import { SendIcon, StopIcon } from "../../components/icons";
import type { Completion, CompletionKind, ImageInput } from "../../gen/protocol";
import { useT } from "../../i18n";
import { drafts, type PastedText } from "../../state/drafts";
import { IMAGE_TYPES, describeImageProblem, imageUrl, readImages, type ImageProblem } from "./images";
import { applyCompletion, completionTrigger, type CompletionTrigger } from "./completion";
import { LARGE_PASTE_CHARS, messageWithPastes, summarizePaste } from "./pastes";

/** Waits this long after the last keystroke before asking for suggestions. */
const SUGGEST_DELAY_MS = 60;

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
  onSend: (text: string, images: ImageInput[]) => Promise<boolean>;
  onStop: () => void;
  /**
   * Whose draft this is: read from the window's drafts when the composer mounts or the key
   * changes (another session in front), and kept there as it changes.
   */
  draftKey?: string | null;
  /** Suggestions after `/`, `@` or `$`; absent: no completion. */
  complete?: ((kind: CompletionKind, typed: string) => Promise<Completion[]>) | undefined;
}

/**
 * Prefills already put in a box. The composer mounts again with the same one still in the
 * chat state (back from Settings, from another session): it must not replace the draft
 * typed since.
 */
const takenPrefills = new WeakSet<object>();

interface Suggestions {
  trigger: CompletionTrigger;
  items: Completion[];
  active: number;
}

// Memoized: the chat view renders once a frame while an answer streams; the composer need not.
export const Composer = memo(function Composer({
  disabled,
  busy,
  running,
  placeholder,
  prefill,
  onSend,
  onStop,
  complete,
  draftKey = null,
}: ComposerProps) {
  const t = useT("chat");
  const [saved] = useState(() => (draftKey === null ? null : drafts.get(draftKey)));
  const [draft, setDraft] = useState(saved?.text ?? "");
  const [images, setImages] = useState<ImageInput[]>(saved?.images ?? []);
  const [pastes, setPastes] = useState<PastedText[]>(saved?.pastes ?? []);
  // Put in words when shown, so they follow a change of language.
  const [imageProblem, setImageProblem] = useState<ImageProblem[] | null>(null);
  const [dragging, setDragging] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const [caret, setCaret] = useState(0);
  const [suggestions, setSuggestions] = useState<Suggestions | null>(null);
  // Esc closes the list until the word changes.
  const [dismissed, setDismissed] = useState<string | null>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  // Where the space a completion added ends, until the next key: a space typed right there
  // (the habit after a finished word) is that space, not a second one.
  const softSpace = useRef<number | null>(null);

  const trigger = complete ? completionTrigger(draft, caret) : null;
  const triggerKey = trigger ? `${trigger.kind}:${trigger.start}:${trigger.typed}` : null;
  useEffect(() => {
    if (!complete || trigger === null || triggerKey === dismissed) {
      setSuggestions(null);
      return;
    }
    let live = true;
    const timer = window.setTimeout(() => {
      complete(trigger.kind, trigger.typed).then(
        (items) => live && setSuggestions(items.length > 0 ? { trigger, items, active: 0 } : null),
        () => live && setSuggestions(null),
      );
    }, SUGGEST_DELAY_MS);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
    // The trigger object is rebuilt each render; its key says when it really changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [triggerKey, dismissed, complete]);

  const accept = (item: Completion) => {
    if (!suggestions) return;
    const next = applyCompletion(draft, caret, suggestions.trigger, item.value);
    setDraft(next.text);
    setCaret(next.caret);
    setSuggestions(null);
    const added = next.text.slice(0, next.caret).endsWith(" ") && !item.value.endsWith(" ");
    softSpace.current = added ? next.caret : null;
    const element = input.current;
    if (element) {
      element.focus();
      requestAnimationFrame(() => element.setSelectionRange(next.caret, next.caret));
    }
  };

  // Another session came to the front: its draft comes in, this one stays in the store. A
  // folder's draft that is being sent has just become its new session's: it moves along,
  // so a failed send leaves it in the box, and a sent one is cleared from where it is now.
  /** The draft a send in flight took its message from (moved along when promoted). */
  const sending = useRef<string | null>(null);
  const [shownKey, setShownKey] = useState(draftKey);
  if (shownKey !== draftKey) {
    setShownKey(draftKey);
    if (sending.current !== null && sending.current === shownKey && shownKey.startsWith("folder:") && draftKey?.startsWith("session:")) {
      sending.current = draftKey;
      drafts.set(shownKey, { text: "", images: [], pastes: [] });
    } else {
      const next = draftKey === null ? null : drafts.get(draftKey);
      setDraft(next?.text ?? "");
      setImages(next?.images ?? []);
      setPastes(next?.pastes ?? []);
      setImageProblem(null);
      setSuggestions(null);
      setDismissed(null);
      setCaret(next?.text.length ?? 0);
    }
  }
  const keyNow = useRef(draftKey);
  keyNow.current = draftKey;

  // Kept as it changes, so nothing is lost when this composer goes (Settings, another
  // session) or the app quits.
  useEffect(() => {
    if (draftKey !== null) drafts.set(draftKey, { text: draft, images, pastes });
  }, [draftKey, draft, images, pastes]);

  useEffect(() => {
    if (!prefill || takenPrefills.has(prefill)) return;
    takenPrefills.add(prefill);
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

  const canSend = !disabled && !busy && !running && (draft.trim() !== "" || images.length > 0 || pastes.length > 0);

  const addFiles = async (files: readonly File[]) => {
    if (files.length === 0) return;
    const read = await readImages(files, images.length);
    if (read.images.length > 0) setImages((current) => [...current, ...read.images]);
    setImageProblem(read.problems.length > 0 ? read.problems : null);
  };

  const submit = async () => {
    if (!canSend) return;
    const text = draft.trim();
    const sent = images;
    const sentPastes = pastes;
    // Keep the draft until the session took it, so a failure loses nothing.
    sending.current = draftKey;
    const ok = await onSend(messageWithPastes(text, sentPastes), sent);
    const from = sending.current;
    sending.current = null;
    if (ok) {
      // Cleared in the store too: this composer may show another draft by now, or be gone.
      if (from !== null) drafts.sent(from, { text, images: sent, pastes: sentPastes });
      if (keyNow.current !== from) return;
      setDraft((current) => (current.trim() === text ? "" : current));
      setImages((current) => (current === sent ? [] : current));
      setPastes((current) => (current === sentPastes ? [] : current));
      setImageProblem(null);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // An input method's keys while it composes (Enter picks a candidate, the arrows move
    // among them, Space often takes the first): never a send, a move in the list, a stop.
    if (isImeComposing(event)) {
      softSpace.current = null;
      return;
    }
    const soft = softSpace.current;
    softSpace.current = null;
    if (event.key === " " && soft === caret && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      return;
    }
    if (suggestions) {
      const count = suggestions.items.length;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        setSuggestions({ ...suggestions, active: (suggestions.active + step + count) % count });
        return;
      }
      if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        const item = suggestions.items[suggestions.active];
        if (item) accept(item);
        return;
      }
      if (event.key === "Escape") {
        event.preventDefault();
        setDismissed(triggerKey);
        return;
      }
    }
    // Esc interrupts, as in terminal agents; the draft stays.
    if (event.key === "Escape" && running) {
      event.preventDefault();
      onStop();
      return;
    }
    if (event.key === "Enter" && !event.shiftKey) {
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
      {suggestions && (
        <ul className="composer__suggestions" id="composer-suggestions" role="listbox" data-testid="composer-suggestions">
          {suggestions.items.map((item, index) => (
            <li
              key={item.value}
              role="option"
              aria-selected={index === suggestions.active}
              className={`composer__suggestion${index === suggestions.active ? " composer__suggestion--active" : ""}`}
              data-testid="composer-suggestion"
              // mousedown, not click: the textarea must keep its focus and caret.
              onMouseDown={(event) => {
                event.preventDefault();
                accept(item);
              }}
            >
              <span className="composer__suggestion-value">{item.value}</span>
              {item.detail && <span className="composer__suggestion-detail">{item.detail}</span>}
            </li>
          ))}
        </ul>
      )}
      {(images.length > 0 || pastes.length > 0 || imageProblem) && (
        <div className="composer__attachments" data-testid="composer-images">
          {images.map((image, index) => (
            <figure key={`${index}-${image.data.length}`} className="composer__image">
              <img src={imageUrl(image)} alt={image.name ?? t("composer.image")} />
              <button
                type="button"
                className="composer__image-remove"
                aria-label={image.name ? t("composer.removeNamedImage", { name: image.name }) : t("composer.removeImage")}
                onClick={() => setImages((current) => current.filter((_, i) => i !== index))}
              >
                ×
              </button>
            </figure>
          ))}
          {pastes.map((paste) => {
            const { firstLine, lines, tokens } = summarizePaste(paste.text);
            return (
              <div key={paste.id} className="composer__paste" data-testid="composer-paste" title={firstLine}>
                <span className="composer__paste-line">{firstLine || t("composer.pastedText")}</span>
                <span className="composer__paste-meta">
                  {t("composer.pasteSize", { count: lines, tokens: tokens.toLocaleString("en-US") })}
                </span>
                <button
                  type="button"
                  className="composer__paste-remove"
                  aria-label={t("composer.removePaste")}
                  title={t("composer.removePaste")}
                  onClick={() => setPastes((current) => current.filter((p) => p.id !== paste.id))}
                >
                  ×
                </button>
              </div>
            );
          })}
          {imageProblem && (
            <p className="composer__image-problem" role="alert" data-testid="composer-image-problem">
              {imageProblem.map(describeImageProblem).join(t("composer.problemSeparator"))}
            </p>
          )}
        </div>
      )}
      <div
        className={`composer__box${disabled ? " composer__box--disabled" : ""}${dragging ? " composer__box--drop" : ""}`}
        onDragOver={(event) => {
          if (disabled || !event.dataTransfer.types.includes("Files")) return;
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          if (disabled) return;
          event.preventDefault();
          setDragging(false);
          void addFiles([...event.dataTransfer.files]);
        }}
      >
        <button
          type="button"
          className="icon-button composer__attach"
          onClick={() => picker.current?.click()}
          disabled={disabled}
          title={t("composer.attachTitle")}
          aria-label={t("composer.attach")}
          data-testid="attach-image"
        >
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path
              d="M20 11.5l-7.6 7.6a4.8 4.8 0 0 1-6.8-6.8l8-8a3.2 3.2 0 0 1 4.5 4.5l-8 8a1.6 1.6 0 0 1-2.3-2.3l7.3-7.3"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.7"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
        </button>
        <input
          ref={picker}
          type="file"
          accept={IMAGE_TYPES.join(",")}
          multiple
          hidden
          data-testid="image-picker"
          onChange={(event) => {
            void addFiles([...(event.target.files ?? [])]);
            event.target.value = "";
          }}
        />
        <textarea
          ref={input}
          className="composer__input"
          placeholder={placeholder}
          aria-label={t("composer.message")}
          data-testid="composer-input"
          rows={1}
          value={draft}
          disabled={disabled}
          onChange={(event) => {
            setDraft(event.target.value);
            setCaret(event.target.selectionStart);
          }}
          onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          onPaste={(event) => {
            const files = [...event.clipboardData.files].filter((f) => f.type.startsWith("image/"));
            if (files.length > 0) {
              event.preventDefault();
              void addFiles(files);
              return;
            }
            // Never into the box: there it takes seconds to land and fills the screen.
            const text = event.clipboardData.getData("text/plain");
            if (text.length > LARGE_PASTE_CHARS) {
              event.preventDefault();
              setPastes((current) => [...current, { id: Math.max(0, ...current.map((p) => p.id)) + 1, text }]);
            }
          }}
          aria-autocomplete={complete ? "list" : undefined}
          aria-controls={suggestions ? "composer-suggestions" : undefined}
        />
        {running ? (
          <button type="button" className="button button--stop composer__send" onClick={onStop} data-testid="stop-button">
            <StopIcon className="button__icon" />
            {t("composer.stop")}
          </button>
        ) : (
          <button type="submit" className="button button--primary composer__send" disabled={!canSend} data-testid="send-button">
            <SendIcon className="button__icon" />
            {t("composer.send")}
          </button>
        )}
      </div>
      <p className="composer__hint">
        <Trans t={t} i18nKey={running ? "composer.hintRunning" : "composer.hint"} components={{ kbd: <kbd /> }} />
      </p>
    </form>
  );
});
