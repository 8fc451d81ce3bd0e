import { useCallback, useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from "react";
import { Trans } from "react-i18next";

import { ConfirmDialog } from "../../components/ConfirmDialog";
import { isImeComposing } from "../../components/ime";
import type { SkillChange, SkillInfo, SkillScopeKind, SkillsPage as SkillsList } from "../../gen/protocol";
import { t as translate, useT } from "../../i18n";
import { ipc, toIpcError, type IpcError } from "../../ipc";
import { memoPath } from "../../state/appInfo";
import { FileEditorPage } from "./FileEditorPage";

import "./skills.css";
import { PageHeader } from "../../components/PageHeader";

interface SkillsPageProps {
  /** The open folder: its project skills are listed and can be created. */
  cwd: string | null;
  /** Memo's data folder (AppInfo.memo_home): where user skills and the trash are. */
  memoHome?: string | null;
  /** Tells the settings view whether leaving would drop unsaved text (the SKILL.md editor). */
  onDirtyChange: (dirty: boolean) => void;
}

type ListState = { status: "loading" } | { status: "error"; error: IpcError } | { status: "ready"; page: SkillsList };

/** Where a failed change is reported: next to what the person was doing. */
type ErrorPlace = "page" | "form" | "rename";

interface Group {
  scope: SkillScopeKind;
  title: string;
  hint: string;
  /** Why rows in this group cannot be edited, renamed or deleted (null: they can). */
  readOnly: string | null;
}

/** The groups, in the current language (read at render: the language can change). */
function groups(): Group[] {
  return [
    // Its folder is named from the real Memo home (see userSkills), never as ~/.memo.
    { scope: "user", title: translate("settings:skills.groups.user.title"), hint: translate("settings:skills.groups.user.hint"), readOnly: null },
    {
      scope: "project",
      title: translate("settings:skills.groups.project.title"),
      hint: translate("settings:skills.groups.project.hint"),
      readOnly: null,
    },
    {
      scope: "other_agent",
      title: translate("settings:skills.groups.other_agent.title"),
      hint: "~/.claude/skills, ~/.codex/skills, ~/.agents/skills",
      readOnly: translate("settings:skills.groups.other_agent.readOnly"),
    },
    {
      scope: "plugin",
      title: translate("settings:skills.groups.plugin.title"),
      hint: translate("settings:skills.groups.plugin.hint"),
      readOnly: translate("settings:skills.groups.plugin.readOnly"),
    },
    {
      scope: "builtin",
      title: translate("settings:skills.groups.builtin.title"),
      hint: translate("settings:skills.groups.builtin.hint"),
      readOnly: translate("settings:skills.groups.builtin.readOnly"),
    },
  ];
}

/** How a skill is mentioned in a message: its name, lowercase, words joined by hyphens. */
/** Where user skills live, as labels name it: the real folder once the app info is in. */
function userSkills(memoHome: string | null): string {
  return memoHome === null ? translate("settings:skills.userFolderUnknown") : memoPath(memoHome, "skills");
}

function mentionKey(name: string): string {
  return name.trim().toLowerCase().split(/\s+/).filter(Boolean).join("-");
}

/** Settings → Skills: every skill found, enabled or not; Memo's and the project's editable. */
export function SkillsPage({ cwd, memoHome = null, onDirtyChange }: SkillsPageProps) {
  const [state, setState] = useState<ListState>({ status: "loading" });
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<SkillInfo | null>(null);
  const [editorDirty, setEditorDirty] = useState(false);
  const [leavingEditor, setLeavingEditor] = useState(false);
  const [renaming, setRenaming] = useState<{ path: string; name: string } | null>(null);
  const [deleting, setDeleting] = useState<SkillInfo | null>(null);
  const [error, setError] = useState<{ place: ErrorPlace; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const t = useT("settings");
  // Only the newest read may replace the list (a slow one must not undo a change).
  const generation = useRef(0);

  const load = useCallback(async () => {
    const mine = ++generation.current;
    try {
      const page = await ipc.listSkills({ cwd });
      if (mine === generation.current) setState({ status: "ready", page });
    } catch (raised) {
      if (mine === generation.current) setState({ status: "error", error: toIpcError("list_skills", raised) });
    }
  }, [cwd]);

  useEffect(() => {
    setState({ status: "loading" });
    void load();
  }, [load]);

  /** Applies one change; the answer is the whole list as it is afterwards. */
  const apply = async (change: SkillChange, place: ErrorPlace): Promise<boolean> => {
    setBusy(true);
    setError(null);
    const mine = ++generation.current;
    try {
      const page = await ipc.changeSkill({ change, cwd });
      if (mine === generation.current) setState({ status: "ready", page });
      return true;
    } catch (raised) {
      const failure = toIpcError("change_skill", raised);
      if (failure.code === "conflict" || failure.code === "not_found") {
        // Someone else changed config.toml or the skill folders: show what is there now.
        setError({ place, message: t("skills.listReadAgain", { message: failure.message }) });
        void load();
      } else {
        setError({ place, message: failure.message });
      }
      return false;
    } finally {
      setBusy(false);
    }
  };

  const trackEditorDirty = useCallback(
    (dirty: boolean) => {
      setEditorDirty(dirty);
      onDirtyChange(dirty);
    },
    [onDirtyChange],
  );

  const closeEditor = () => {
    setLeavingEditor(false);
    setEditing(null);
    setEditorDirty(false);
    onDirtyChange(false);
    // Saving may have changed the name or the description in the front matter.
    void load();
  };

  if (editing !== null) {
    return (
      <>
        <FileEditorPage
          key={editing.path}
          kind="skill"
          cwd={cwd}
          path={editing.path}
          title={editing.name}
          lead={t("skills.editorLead", { key: mentionKey(editing.name) })}
          onDirtyChange={trackEditorDirty}
          onSaved={() => void load()}
          toolbar={
            <div className="skills-toolbar">
              <button
                type="button"
                className="button button--quiet"
                onClick={() => (editorDirty ? setLeavingEditor(true) : closeEditor())}
                data-testid="skill-editor-back"
              >
                {t("skills.allSkills")}
              </button>
            </div>
          }
        />
        {leavingEditor && (
          <ConfirmDialog
            title={t("discard.title")}
            message={t("discard.backToList")}
            confirmLabel={t("discard.confirm")}
            cancelLabel={t("discard.keepEditing")}
            danger
            onCancel={() => setLeavingEditor(false)}
            onConfirm={closeEditor}
          />
        )}
      </>
    );
  }

  const page = state.status === "ready" ? state.page : null;
  const errorBox = (place: ErrorPlace) =>
    error?.place === place && (
      <p className="form-error" role="alert" data-testid="skills-error">
        {error.message}
      </p>
    );

  return (
    <div className="settings-page skills" data-testid="skills-page">
      <PageHeader title={t("skills.title")} lead={<Trans t={t} i18nKey="skills.lead" components={{ code: <code /> }} />}>
        {!creating && (
          <button
            type="button"
            className="button button--primary"
            onClick={() => {
              setCreating(true);
              setError(null);
            }}
            disabled={page === null}
            data-testid="skill-new"
          >
            {t("skills.new")}
          </button>
        )}
      </PageHeader>
      {errorBox("page")}
      {creating && (
        <NewSkillForm
          cwd={cwd}
          memoHome={memoHome}
          busy={busy}
          error={errorBox("form")}
          onCancel={() => {
            setCreating(false);
            if (error?.place === "form") setError(null);
          }}
          onCreate={async (change) => {
            if (await apply(change, "form")) setCreating(false);
          }}
        />
      )}
      {state.status === "loading" && <p className="settings__loading">{t("skills.looking")}</p>}
      {state.status === "error" && (
        <div className="settings-error" role="alert" data-testid="skills-load-error">
          <strong>{t("skills.listFailed")}</strong>
          <pre>{state.error.message}</pre>
          <button
            type="button"
            className="button"
            onClick={() => {
              setState({ status: "loading" });
              void load();
            }}
          >
            {t("common:retry")}
          </button>
        </div>
      )}
      {page !== null && (
        <>
          {!page.filtered && page.skills.length > 0 && (
            <p className="skills__note">
              <Trans t={t} i18nKey="skills.allOn" components={{ code: <code /> }} />
            </p>
          )}
          {page.problems.length > 0 && (
            <div className="skills-problems" data-testid="skills-problems">
              <strong className="skills-problems__title">
                {t("skills.unreadable", { count: page.problems.length })}
              </strong>
              <ul className="skills-problems__list">
                {page.problems.map((problem) => (
                  <li key={`${problem.path}\n${problem.message}`}>
                    <span className="skills-problems__path" title={problem.path}>
                      {problem.path}
                    </span>
                    <span className="skills-problems__message">{problem.message}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
          {groups().map((group) => {
            const skills = page.skills.filter((s) => s.scope === group.scope);
            // Memo's own folder (and the project's, with one open) are where new skills go:
            // show them even when empty. Other groups only when they hold something.
            const always = group.scope === "user" || (group.scope === "project" && cwd !== null);
            if (skills.length === 0 && !always) return null;
            return (
              <section key={group.scope} className="skill-group" data-testid={`skill-group-${group.scope}`} aria-label={group.title}>
                <h3 className="skill-group__title">
                  {group.title}
                  <span className="skill-group__hint">
                    {group.scope === "user" ? t("skills.userHint", { folder: userSkills(memoHome), hint: group.hint }) : group.hint}
                  </span>
                  {group.readOnly !== null && <span className="badge">{t("skills.readOnly")}</span>}
                </h3>
                {skills.length === 0 ? (
                  <p className="skill-group__empty">{t("skills.groupEmpty")}</p>
                ) : (
                  <ul className="skill-list">
                    {skills.map((skill) => (
                      <SkillRow
                        key={skill.path}
                        skill={skill}
                        readOnly={skill.editable ? null : (group.readOnly ?? t("skills.cannotChange"))}
                        busy={busy}
                        renaming={renaming?.path === skill.path ? renaming.name : null}
                        renameError={renaming?.path === skill.path ? errorBox("rename") : null}
                        onToggle={(enabled) =>
                          void apply(
                            { type: "set_enabled", path: skill.path, enabled, config_revision: page.config_revision },
                            "page",
                          )
                        }
                        onEdit={() => {
                          setError(null);
                          setEditing(skill);
                        }}
                        onStartRename={() => {
                          setError(null);
                          setRenaming({ path: skill.path, name: skill.name });
                        }}
                        onRenameDraft={(name) => setRenaming({ path: skill.path, name })}
                        onCancelRename={() => {
                          setRenaming(null);
                          if (error?.place === "rename") setError(null);
                        }}
                        onSaveRename={async () => {
                          const name = renaming?.name.trim() ?? "";
                          if (name === "") {
                            setError({ place: "rename", message: t("skills.nameMissing") });
                            return;
                          }
                          if (name === skill.name) {
                            setRenaming(null);
                            return;
                          }
                          if (await apply({ type: "rename", path: skill.path, new_name: name }, "rename")) setRenaming(null);
                        }}
                        onDelete={() => {
                          setError(null);
                          setDeleting(skill);
                        }}
                      />
                    ))}
                  </ul>
                )}
              </section>
            );
          })}
        </>
      )}
      {deleting !== null && (
        <ConfirmDialog
          title={t("skills.deleteTitle", { name: deleting.name })}
          message={t("skills.deleteMessage", {
            trash: memoHome === null ? t("skills.trashUnknown") : memoPath(memoHome, "trash", "skills"),
          })}
          confirmLabel={t("skills.moveToTrash")}
          danger
          onCancel={() => setDeleting(null)}
          onConfirm={() => {
            const path = deleting.path;
            setDeleting(null);
            void apply({ type: "delete", path }, "page");
          }}
        />
      )}
    </div>
  );
}

interface SkillRowProps {
  skill: SkillInfo;
  /** Why it cannot be changed, or null for Memo's and the project's skills. */
  readOnly: string | null;
  busy: boolean;
  /** The new name being typed, or null when not renaming. */
  renaming: string | null;
  renameError: ReactNode;
  onToggle: (enabled: boolean) => void;
  onEdit: () => void;
  onStartRename: () => void;
  onRenameDraft: (name: string) => void;
  onCancelRename: () => void;
  onSaveRename: () => void;
  onDelete: () => void;
}

function SkillRow({
  skill,
  readOnly,
  busy,
  renaming,
  renameError,
  onToggle,
  onEdit,
  onStartRename,
  onRenameDraft,
  onCancelRename,
  onSaveRename,
  onDelete,
}: SkillRowProps) {
  const t = useT("settings");
  const key = mentionKey(skill.name);
  const onRenameKey = (event: KeyboardEvent<HTMLInputElement>) => {
    // Esc while an input method composes drops the composition, not the rename.
    if (isImeComposing(event)) return;
    if (event.key === "Escape") {
      // Esc here only ends the rename (the settings view would close on it otherwise).
      event.stopPropagation();
      onCancelRename();
    }
  };
  const submitRename = (event: FormEvent) => {
    event.preventDefault();
    onSaveRename();
  };

  return (
    <li
      className={`skill-row${skill.enabled ? "" : " skill-row--off"}`}
      data-testid="skill-row"
      data-name={skill.name}
      data-enabled={skill.enabled}
    >
      <div className="skill-row__main">
        {renaming === null ? (
          <div className="skill-row__title">
            <strong className="skill-row__name">{skill.name}</strong>
            <code className="skill-row__key" title={t("skills.mentionTitle", { key })}>
              ${key}
            </code>
            {!skill.enabled && <span className="badge">{t("common:off")}</span>}
          </div>
        ) : (
          <form className="skill-rename" onSubmit={submitRename}>
            <input
              className="input skill-rename__input"
              value={renaming}
              onChange={(event) => onRenameDraft(event.target.value)}
              onKeyDown={onRenameKey}
              aria-label={t("skills.newNameFor", { name: skill.name })}
              data-testid="skill-rename-input"
              autoFocus
            />
            <button type="submit" className="button button--small button--primary" disabled={busy} data-testid="skill-rename-save">
              {t("common:save")}
            </button>
            <button type="button" className="button button--small" onClick={onCancelRename}>
              {t("common:cancel")}
            </button>
          </form>
        )}
        {renaming !== null && renameError}
        {skill.description && <p className="skill-row__description">{shownDescription(skill)}</p>}
        <span className="skill-row__path" title={skill.path}>
          {skill.path}
        </span>
        {readOnly !== null && <span className="skill-row__readonly">{readOnly}</span>}
      </div>
      <div className="skill-row__actions">
        {readOnly === null && renaming === null && (
          <>
            <button type="button" className="button button--small" onClick={onEdit} disabled={busy} data-testid="skill-edit">
              {t("common:edit")}
            </button>
            <button type="button" className="button button--small" onClick={onStartRename} disabled={busy} data-testid="skill-rename">
              {t("skills.rename")}
            </button>
            <button
              type="button"
              className="button button--small button--danger"
              onClick={onDelete}
              disabled={busy}
              data-testid="skill-delete"
            >
              {t("common:delete")}
            </button>
          </>
        )}
        <label className="skill-switch" title={skill.enabled ? t("skills.switchOn") : t("skills.switchOff")}>
          <input
            type="checkbox"
            role="switch"
            className="skill-switch__input"
            checked={skill.enabled}
            // A plugin's skill follows the plugin's own switch (Settings → Plugins).
            disabled={busy || skill.scope === "plugin"}
            onChange={(event) => onToggle(event.target.checked)}
            aria-label={t("skills.enable", { name: skill.name })}
            data-testid="skill-toggle"
          />
          <span className="skill-switch__track" aria-hidden="true" />
        </label>
      </div>
    </li>
  );
}

interface NewSkillFormProps {
  cwd: string | null;
  memoHome: string | null;
  busy: boolean;
  /** The server's answer to the last attempt, if it refused. */
  error: ReactNode;
  onCancel: () => void;
  onCreate: (change: SkillChange) => Promise<void>;
}

function NewSkillForm({ cwd, memoHome, busy, error, onCancel, onCreate }: NewSkillFormProps) {
  const t = useT("settings");
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [scope, setScope] = useState<SkillScopeKind>("user");
  // The starting text of SKILL.md's body, in the language of the page when the form opened.
  const [body, setBody] = useState(() => t("skills.starterBody"));
  const [checked, setChecked] = useState(false);

  // Without a folder there is no project to put a skill in.
  const effectiveScope: SkillScopeKind = cwd === null ? "user" : scope;
  const nameMissing = name.trim() === "";
  const descriptionMissing = description.trim() === "";

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (nameMissing || descriptionMissing || busy) return;
    void onCreate({ type: "create", scope: effectiveScope, name: name.trim(), description: description.trim(), body });
  };

  return (
    <form
      className="settings-card skill-form"
      onSubmit={submit}
      onKeyDown={(event) => {
        // Esc while an input method composes drops the composition, not the form.
        if (isImeComposing(event)) return;
        if (event.key === "Escape") {
          // Esc leaves the form, not the settings view.
          event.stopPropagation();
          onCancel();
        }
      }}
      noValidate
      data-testid="skill-form"
    >
      <h3 className="settings-card__title">{t("skills.new")}</h3>
      <div className="field-row">
        <label className="field">
          <span className="field__label">{t("skills.form.name")}</span>
          <input
            className="input"
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder={t("skills.form.namePlaceholder")}
            aria-invalid={checked && nameMissing}
            autoFocus
            data-testid="skill-name"
          />
          {checked && nameMissing ? (
            <span className="field__error">{t("skills.nameMissing")}</span>
          ) : (
            <span className="field__hint">{nameMissing ? t("skills.form.nameRules") : t("skills.form.mentionAs", { key: mentionKey(name) })}</span>
          )}
        </label>
        <label className="field">
          <span className="field__label">{t("skills.form.where")}</span>
          <select
            className="input"
            value={effectiveScope}
            onChange={(event) => setScope(event.target.value as SkillScopeKind)}
            data-testid="skill-scope"
          >
            <option value="user" title={userSkills(memoHome)}>
              {t("skills.form.whereUser")}
            </option>
            {cwd !== null && <option value="project">{t("skills.form.whereProject")}</option>}
          </select>
          <span className="field__hint">
            {effectiveScope === "user"
              ? t("skills.form.userHint", { folder: userSkills(memoHome) })
              : t("skills.form.projectHint")}
          </span>
        </label>
      </div>
      <label className="field">
        <span className="field__label">{t("skills.form.description")}</span>
        <input
          className="input"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          placeholder={t("skills.form.descriptionPlaceholder")}
          aria-invalid={checked && descriptionMissing}
          data-testid="skill-description"
        />
        {checked && descriptionMissing ? (
          <span className="field__error">{t("skills.form.descriptionMissing")}</span>
        ) : (
          <span className="field__hint">{t("skills.form.descriptionHint")}</span>
        )}
      </label>
      <label className="field">
        <span className="field__label">{t("skills.form.instructions")}</span>
        <textarea
          className="input skill-form__body"
          value={body}
          onChange={(event) => setBody(event.target.value)}
          rows={9}
          spellCheck={false}
          data-testid="skill-body"
        />
        <span className="field__hint">{t("skills.form.instructionsHint")}</span>
      </label>
      {error}
      <div className="skill-form__actions">
        <button type="submit" className="button button--primary" disabled={busy} data-testid="skill-create">
          {busy ? t("skills.form.creating") : t("skills.form.create")}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          {t("common:cancel")}
        </button>
      </div>
    </form>
  );
}

/**
 * What a skill's row says it does. A built-in skill's SKILL.md is Memo's own
 * English, written for the model, so the row shows the catalog's sentence in the
 * person's language instead; everyone else's skill is shown as its author wrote it.
 */
function shownDescription(skill: SkillInfo): string {
  if (skill.scope !== "builtin") return skill.description;
  return translate(`settings:skills.builtinDescription.${skill.name}`, { defaultValue: skill.description });
}
