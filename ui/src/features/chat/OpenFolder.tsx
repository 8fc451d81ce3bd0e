import { FolderIcon } from "../../components/icons";
import { useT } from "../../i18n";
import { useFolderPathForm } from "../../state/useFolderPathForm";

interface OpenFolderProps {
  onPick: () => void;
  onOpenPath: (path: string) => void;
}

/** The first screen: pick a folder natively, or type its path. */
export function OpenFolder({ onPick, onOpenPath }: OpenFolderProps) {
  const t = useT("chat");
  const { path, setPath, problem, submit } = useFolderPathForm(onOpenPath);

  return (
    <div className="empty-state" data-testid="chat-empty">
      <div className="empty-state__badge">
        <FolderIcon className="empty-state__icon" />
      </div>
      <h2 className="empty-state__title">{t("openFolder.title")}</h2>
      <p className="empty-state__text">{t("openFolder.text")}</p>
      <button type="button" className="button button--primary" onClick={onPick} data-testid="open-folder-button">
        {t("openFolder.pick")}
      </button>
      <form className="path-form" onSubmit={submit}>
        <label className="path-form__label" htmlFor="folder-path">
          {t("openFolder.typePath")}
        </label>
        <div className="path-form__row">
          <input
            id="folder-path"
            className="input path-form__input"
            data-testid="folder-path-input"
            placeholder={t("openFolder.pathPlaceholder")}
            spellCheck={false}
            autoComplete="off"
            value={path}
            onChange={(event) => setPath(event.target.value)}
          />
          <button type="submit" className="button" data-testid="folder-path-open" disabled={path.trim() === ""}>
            {t("common:open")}
          </button>
        </div>
        {problem && (
          <p className="path-form__error" role="alert">
            {problem}
          </p>
        )}
      </form>
    </div>
  );
}
