import { useCallback, useEffect, useRef, useState } from "react";

import type { ModelProfileInput, ProviderChange, ProviderInput, ProviderSettingsPage } from "../../gen/protocol";
import { t } from "../../i18n";
import { IpcError, ipc, toIpcError } from "../../ipc";

export type ProviderSettingsState =
  | { status: "loading" }
  | { status: "ready"; page: ProviderSettingsPage }
  | { status: "error"; error: IpcError };

export interface ProviderSave {
  original: string | null;
  provider: ProviderInput;
  makeCurrent: boolean;
  /** A key typed in the form, for the OS keychain; empty: leave the stored one. */
  key: string;
  /** The model's profile; null leaves it unchanged. */
  profile: ModelProfileInput | null;
}

/** What a save did: a failure to store the key does not undo the saved provider. */
export interface SaveOutcome {
  keyError: string | null;
}

export interface ProviderSettingsController {
  state: ProviderSettingsState;
  /** Reads config.toml again (its new revision); true once the page is read. */
  reload: () => Promise<boolean>;
  save: (request: ProviderSave) => Promise<SaveOutcome>;
  change: (change: ProviderChange) => Promise<void>;
}

/** config.toml's providers, changed one edit at a time with the file's revision. */
export function useProviderSettings(onChanged?: () => void): ProviderSettingsController {
  const [state, setState] = useState<ProviderSettingsState>({ status: "loading" });
  // Answers to superseded reads (a later read, a save that came back first) are dropped:
  // an older page would bring back an older revision, and the next save a conflict.
  const latest = useRef(0);
  const alive = useRef(true);

  const reload = useCallback(async (): Promise<boolean> => {
    const request = ++latest.current;
    const current = () => alive.current && request === latest.current;
    try {
      const page = await ipc.providerSettings();
      if (current()) setState({ status: "ready", page });
      return true;
    } catch (raised) {
      if (current()) setState({ status: "error", error: toIpcError("provider_settings", raised) });
      return false;
    }
  }, []);

  useEffect(() => {
    // StrictMode mounts twice in development; the discarded mount's answer is dropped.
    alive.current = true;
    void reload();
    return () => {
      alive.current = false;
    };
  }, [reload]);

  const revision = state.status === "ready" ? state.page.revision : null;

  const apply = useCallback(
    async (change: ProviderChange, at: string) => {
      const page = await ipc.updateProviders({ change, revision: at });
      latest.current++;
      if (alive.current) setState({ status: "ready", page });
      return page;
    },
    [],
  );

  const change = useCallback(
    async (edit: ProviderChange) => {
      if (revision === null) throw new IpcError("update_providers", "unavailable", t("settings:stillLoading"), true);
      await apply(edit, revision);
      onChanged?.();
    },
    [apply, revision, onChanged],
  );

  const save = useCallback(
    async (request: ProviderSave): Promise<SaveOutcome> => {
      if (revision === null) throw new IpcError("update_providers", "unavailable", t("settings:stillLoading"), true);
      let page = await apply(
        { type: "save", original: request.original, provider: request.provider, make_current: request.makeCurrent },
        revision,
      );
      if (request.profile !== null) {
        page = await apply({ type: "save_profile", key: request.provider.model.trim(), profile: request.profile }, page.revision);
      }
      let keyError: string | null = null;
      if (request.key.trim() !== "") {
        try {
          await ipc.setApiKey({ provider: request.provider.name.trim(), key: request.key });
          // The key's source shows in the list; read it again.
          setState({ status: "ready", page: await ipc.providerSettings() });
        } catch (raised) {
          keyError = toIpcError("set_api_key", raised).message;
        }
      }
      onChanged?.();
      return { keyError };
    },
    [apply, revision, onChanged],
  );

  return { state, reload, save, change };
}
