import { useEffect } from "react";
import { Trans } from "react-i18next";

import { MarkdownEditor } from "../../components/MarkdownEditor";
import type { EditableFileKind } from "../../gen/protocol";
import { useT } from "../../i18n";
import { useEditableFile } from "./useEditableFile";

interface FileEditorPageProps {
  kind: EditableFileKind;
  cwd: string | null;
  /** A skill's SKILL.md; unused for the other kinds. */
  path?: string | null;
  title: string;
  lead: string;
  /** Tells the settings view whether leaving would drop unsaved text. */
  onDirtyChange: (dirty: boolean) => void;
  /** Shown above the editor (a back link for skills). */
  toolbar?: React.ReactNode;
  onSaved?: () => void;
}

/** Settings → SOUL.md / Project instructions / a skill: the file in a Markdown editor. */
export function FileEditorPage({ kind, cwd, path = null, title, lead, onDirtyChange, toolbar, onSaved }: FileEditorPageProps) {
  const editor = useEditableFile({ kind, cwd, path });
  const { dirty, state } = editor;
  const t = useT("settings");

  useEffect(() => {
    onDirtyChange(dirty);
  }, [dirty, onDirtyChange]);
  // Leaving the page (not the app) is guarded by the settings view; closing the window
  // with unsaved text asks too.
  useEffect(() => {
    if (!dirty) return;
    const guard = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", guard);
    return () => window.removeEventListener("beforeunload", guard);
  }, [dirty]);

  const save = async () => {
    await editor.save();
    onSaved?.();
  };

  return (
    <div className="settings-page settings-page--editor" data-testid={`editor-page-${kind}`}>
      {toolbar}
      <header className="settings-page__header">
        <div>
          <h2 className="settings-page__title">
            {title}
            {dirty && (
              <span className="badge badge--warn" data-testid="editor-unsaved">
                {t("editor.unsaved")}
              </span>
            )}
          </h2>
          <p className="settings-page__lead">{lead}</p>
          {state.status === "ready" && (
            <p className="settings-page__path" title={state.file.path}>
              {state.file.path}
              {!state.file.exists && t("editor.newFile")}
            </p>
          )}
        </div>
        <div className="settings-page__actions">
          <button type="button" className="button" onClick={editor.reload} disabled={state.status !== "ready" || !dirty}>
            {t("editor.revert")}
          </button>
          <button
            type="button"
            className="button button--primary"
            onClick={save}
            disabled={state.status !== "ready" || !dirty || state.saving}
            data-testid="editor-save"
          >
            {state.status === "ready" && state.saving ? t("common:saving") : t("common:save")}
          </button>
        </div>
      </header>
      {state.status === "loading" && <p className="settings__loading">{t("editor.opening")}</p>}
      {state.status === "error" && (
        <p className="form-error" role="alert">
          {state.error.message}
        </p>
      )}
      {state.status === "ready" && state.conflict && (
        <div className="conflict" role="alert" data-testid="editor-conflict">
          <strong>{t("editor.conflictTitle")}</strong>
          <span>{t("editor.conflictBody")}</span>
          <div className="conflict__actions">
            <button type="button" className="button button--small" onClick={editor.reload}>
              {t("editor.discardMine")}
            </button>
            <button type="button" className="button button--small button--danger" onClick={editor.overwrite} data-testid="editor-overwrite">
              {t("editor.replaceFile")}
            </button>
          </div>
        </div>
      )}
      {state.status === "ready" && state.error && (
        <p className="form-error" role="alert" data-testid="editor-error">
          {state.error}
        </p>
      )}
      {state.status === "ready" && (
        <div className="settings-page__editor">
          <MarkdownEditor
            value={state.draft}
            resetKey={`${state.file.path}#${state.loadCount}`}
            onChange={editor.edit}
            onSave={save}
            label={title}
            testId="markdown-editor"
          />
        </div>
      )}
      <p className="settings-page__foot">
        <Trans t={t} i18nKey="editor.foot" components={{ kbd: <kbd /> }} />
      </p>
    </div>
  );
}
