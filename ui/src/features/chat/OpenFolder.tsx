import { FolderIcon } from "../../components/icons";
import { useFolderPathForm } from "../../state/useFolderPathForm";

interface OpenFolderProps {
  onPick: () => void;
  onOpenPath: (path: string) => void;
}

/** The first screen: pick a folder natively, or type its path. */
export function OpenFolder({ onPick, onOpenPath }: OpenFolderProps) {
  const { path, setPath, problem, submit } = useFolderPathForm(onOpenPath);

  return (
    <div className="empty-state" data-testid="chat-empty">
      <div className="empty-state__badge">
        <FolderIcon className="empty-state__icon" />
      </div>
      <h2 className="empty-state__title">Open a folder to start</h2>
      <p className="empty-state__text">
        Memo works inside a project folder: it reads your code, proposes changes for you to review, and runs only the
        commands you approve.
      </p>
      <button type="button" className="button button--primary" onClick={onPick} data-testid="open-folder-button">
        Open folder…
      </button>
      <form className="path-form" onSubmit={submit}>
        <label className="path-form__label" htmlFor="folder-path">
          or type a path
        </label>
        <div className="path-form__row">
          <input
            id="folder-path"
            className="input path-form__input"
            data-testid="folder-path-input"
            placeholder="/home/you/project"
            spellCheck={false}
            autoComplete="off"
            value={path}
            onChange={(event) => setPath(event.target.value)}
          />
          <button type="submit" className="button" data-testid="folder-path-open" disabled={path.trim() === ""}>
            Open
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
