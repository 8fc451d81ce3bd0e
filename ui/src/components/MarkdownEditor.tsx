import { useEffect, useRef } from "react";

import { markdown } from "@codemirror/lang-markdown";
import { languages } from "@codemirror/language-data";
import { defaultHighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { EditorState } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import { basicSetup } from "codemirror";

interface MarkdownEditorProps {
  /** The text shown when the editor is created or when `resetKey` changes. */
  value: string;
  /** Changes when the document is replaced from outside (a file loaded or reloaded). */
  resetKey: string;
  onChange: (text: string) => void;
  /** Ctrl/Cmd+S. */
  onSave?: () => void;
  readOnly?: boolean;
  label: string;
  testId?: string;
}

// Colours come from the app's CSS variables, so light and dark follow the OS like the rest.
const theme = EditorView.theme({
  "&": {
    height: "100%",
    color: "var(--text)",
    backgroundColor: "var(--bg-elevated)",
    fontSize: "13px",
  },
  ".cm-content": { fontFamily: "var(--font-mono)", caretColor: "var(--text)", padding: "12px 0" },
  ".cm-gutters": {
    backgroundColor: "var(--bg-sidebar)",
    color: "var(--text-faint)",
    borderRight: "1px solid var(--border)",
  },
  ".cm-activeLine": { backgroundColor: "color-mix(in srgb, var(--accent-soft) 45%, transparent)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--accent-soft)" },
  "&.cm-focused": { outline: "none" },
  "&.cm-focused .cm-cursor": { borderLeftColor: "var(--text)" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection": {
    backgroundColor: "color-mix(in srgb, var(--accent) 30%, transparent)",
  },
  ".cm-scroller": { overflow: "auto" },
});

/** A CodeMirror 6 Markdown editor (code fences highlighted in their own language). */
export function MarkdownEditor({ value, resetKey, onChange, onSave, readOnly = false, label, testId }: MarkdownEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // The latest callbacks, read by the editor's listeners without recreating it.
  const handlers = useRef({ onChange, onSave });
  handlers.current = { onChange, onSave };

  useEffect(() => {
    if (host.current === null) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          markdown({ codeLanguages: languages }),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          EditorView.lineWrapping,
          theme,
          EditorState.readOnly.of(readOnly),
          EditorView.contentAttributes.of({ "aria-label": label, ...(testId ? { "data-testid": testId } : {}) }),
          keymap.of([
            {
              key: "Mod-s",
              preventDefault: true,
              run: () => {
                handlers.current.onSave?.();
                return true;
              },
            },
          ]),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) handlers.current.onChange(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // Recreated only when the document is replaced from outside or the mode changes;
    // typing must not rebuild the editor (it would lose the cursor and undo history).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [resetKey, readOnly, label]);

  return <div ref={host} className="markdown-editor" />;
}
