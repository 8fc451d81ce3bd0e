import { useCallback, useEffect, useId, useRef, useState } from "react";
import { Trans } from "react-i18next";

import { LogoMark, Spinner } from "../../components/icons";
import type { LocalServer, ProviderInput } from "../../gen/protocol";
import { useT } from "../../i18n";
import { say } from "../../i18n/phrase";
import { ipc, toIpcError, type IpcError } from "../../ipc";
import { ProviderForm } from "../settings/ProviderForm";
import { freeName } from "../settings/presets";
import { useProviderSettings, type ProviderSave, type SaveOutcome } from "../settings/useProviderSettings";
// ProviderForm's layout rules live with the settings screen.
import "../settings/settings.css";
import "./onboarding.css";

interface OnboardingProps {
  /** A provider was saved: the app reloads its providers and shows the chat. */
  onDone: () => void;
  onOpenSettings: () => void;
}

type ProbeState =
  | { status: "probing" }
  | { status: "done"; servers: LocalServer[] }
  | { status: "error"; error: IpcError };

/** How many models get a button of their own; the rest go in a list. */
const SHOWN_MODELS = 6;

/** The ports `probe_local_servers` checks, in the order it checks them. */
const PORTS_CHECKED = [11434, 8080, 1234, 8000];

/** How to start each server this screen looks for: commands, the same in every language. */
const START = {
  ollamaServe: "ollama serve",
  ollamaPull: "ollama pull qwen2.5-coder",
  llamaServer: "llama-server -m model.gguf --port 8080",
  vllmServe: "vllm serve <model>",
};

/** The servers' own names, as their makers spell them. */
const SERVER_NAMES = { ollama: "Ollama", llamaCpp: "llama.cpp", lmStudio: "LM Studio", vllm: "vLLM" };

/** `llama.cpp` → `llama-cpp`: the provider name a found server gets (before `freeName`). */
function providerBaseName(kind: string): string {
  return kind.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "local";
}

/**
 * The first-run screen, shown while no provider is configured: one click on a model a
 * server on this machine already serves, or a cloud provider with its key.
 */
export function Onboarding({ onDone, onOpenSettings }: OnboardingProps) {
  const t = useT("onboarding");
  const controller = useProviderSettings();
  const { state, reload } = controller;
  const [probe, setProbe] = useState<ProbeState>({ status: "probing" });
  // Only the newest probe may report: a rescan makes an earlier answer stale.
  const probeGeneration = useRef(0);
  const [saving, setSaving] = useState<string | null>(null);
  // A found server that listed no model, to set up by hand in the form below.
  const [manualUrl, setManualUrl] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<IpcError | null>(null);
  const headingId = useId();

  const scan = useCallback(() => {
    const generation = ++probeGeneration.current;
    setProbe({ status: "probing" });
    setSaveError(null);
    ipc.probeLocalServers().then(
      (servers) => {
        if (probeGeneration.current === generation) setProbe({ status: "done", servers });
      },
      (raised: unknown) => {
        if (probeGeneration.current === generation) {
          setProbe({ status: "error", error: toIpcError("probe_local_servers", raised) });
        }
      },
    );
  }, []);

  useEffect(() => {
    scan();
    return () => {
      // Unmounted: no answer is wanted any more.
      probeGeneration.current++;
    };
  }, [scan]);

  const page = state.status === "ready" ? state.page : null;
  const takenNames = page ? page.providers.map((p) => p.name) : [];

  const chooseLocal = async (server: LocalServer, model: string) => {
    if (page === null || saving !== null) return;
    const provider: ProviderInput = {
      name: freeName(providerBaseName(server.kind), takenNames),
      api: "openai",
      model,
      base_url: server.base_url,
      env_api_key: null,
    };
    setSaving(`${server.base_url}\n${model}`);
    setSaveError(null);
    try {
      // The server's own context size, when it says: a small one gets the compact prompt.
      const profile =
        server.context_window === undefined
          ? null
          : {
              context_window: server.context_window,
              input_price_per_mtok: null,
              output_price_per_mtok: null,
              cached_input_price_per_mtok: null,
              thinking_budget_tokens: null,
              supports_vision: null,
              temperature: null,
            };
      await controller.save({ original: null, provider, makeCurrent: true, key: "", profile });
      onDone();
    } catch (raised) {
      const failure = toIpcError("update_providers", raised);
      setSaveError(failure);
      if (failure.code === "conflict") reload();
    } finally {
      setSaving(null);
    }
  };

  const saveCloud = async (request: ProviderSave): Promise<SaveOutcome> => {
    try {
      const outcome = await controller.save(request);
      // A key the keychain refused is reported by the form; the person fixes it there.
      if (outcome.keyError === null) onDone();
      return outcome;
    } catch (raised) {
      const failure = toIpcError("update_providers", raised);
      if (failure.code === "conflict") reload();
      throw failure;
    }
  };

  return (
    <div className="onboarding" role="region" aria-labelledby={headingId} data-testid="onboarding">
      <div className="onboarding__inner">
        <header className="onboarding__header">
          <LogoMark className="onboarding__logo" />
          <h1 className="onboarding__title" id={headingId}>
            {t("title")}
          </h1>
          <p className="onboarding__lead">{t("lead")}</p>
        </header>

        {state.status === "error" ? (
          <ConfigError message={state.error.message} code={state.error.code} onOpenSettings={onOpenSettings} onRetry={reload} />
        ) : (
          <>
            <section className="onboarding__section" aria-label={t("local.title")}>
              <div className="onboarding__section-head">
                <div>
                  <h2 className="onboarding__section-title">{t("local.title")}</h2>
                  <p className="onboarding__section-lead">{t("local.lead")}</p>
                </div>
                {probe.status === "done" && probe.servers.length > 0 && (
                  <button
                    type="button"
                    className="button button--quiet"
                    onClick={scan}
                    disabled={saving !== null}
                    data-testid="onboarding-rescan"
                  >
                    {t("lookAgain")}
                  </button>
                )}
              </div>
              <LocalServers
                probe={probe}
                ready={page !== null}
                saving={saving}
                onUse={chooseLocal}
                onRescan={scan}
                onByHand={setManualUrl}
              />
              {saveError && (
                <p className="form-error" role="alert" data-testid="onboarding-error" data-code={saveError.code}>
                  {saveError.message}
                </p>
              )}
            </section>

            <div className="onboarding__or" aria-hidden="true">
              <span>{t("or")}</span>
            </div>

            <section className="onboarding__section" aria-label={t("cloud.title")}>
              <div className="onboarding__section-head">
                <div>
                  <h2 className="onboarding__section-title">{t("cloud.title")}</h2>
                  <p className="onboarding__section-lead">{t("cloud.lead")}</p>
                </div>
              </div>
              <div className="settings-card onboarding__cloud">
                {page === null ? (
                  <p className="onboarding__muted">
                    <Spinner /> {t("cloud.reading")}
                  </p>
                ) : (
                  <ProviderForm
                    // A server found here that listed no model: the form starts from its URL.
                    key={manualUrl ?? "cloud"}
                    existing={null}
                    profile={null}
                    takenNames={takenNames}
                    initialPreset={manualUrl ? "custom" : "openai"}
                    {...(manualUrl ? { initialBaseUrl: manualUrl } : {})}
                    onSave={saveCloud}
                    submitLabel={t("cloud.submit")}
                  />
                )}
              </div>
            </section>

            <p className="onboarding__footer">
              <Trans
                t={t}
                i18nKey="footer"
                components={{ settings: <button type="button" className="onboarding__link" onClick={onOpenSettings} /> }}
              />
            </p>
          </>
        )}
        {/* The user guide in the page's language (the docs catalog names it). A name, not a
            link: the docs are not published at any address the window could open. */}
        <p className="onboarding__footer" data-testid="onboarding-guide">
          <Trans t={t} i18nKey="guide" values={{ path: t("docs:userGuide") }} components={{ code: <code /> }} />
        </p>
      </div>
    </div>
  );
}

function ConfigError({
  message,
  code,
  onOpenSettings,
  onRetry,
}: {
  message: string;
  code: string;
  onOpenSettings: () => void;
  onRetry: () => void;
}) {
  const t = useT("onboarding");
  const isConfig = code === "config";
  return (
    <div className="onboarding__problem" role="alert" data-testid="onboarding-error" data-code={code}>
      <strong className="onboarding__problem-title">
        {isConfig ? t("problem.configTitle") : t("problem.readTitle")}
      </strong>
      <pre className="onboarding__problem-message">{message}</pre>
      <p className="onboarding__problem-text">
        {isConfig ? t("problem.configText") : t("problem.readText")}
      </p>
      <div className="onboarding__problem-actions">
        <button type="button" className="button button--primary" onClick={onOpenSettings} data-testid="onboarding-open-settings">
          {t("openSettings")}
        </button>
        <button type="button" className="button" onClick={onRetry}>
          {t("problem.checkAgain")}
        </button>
      </div>
    </div>
  );
}

interface LocalServersProps {
  probe: ProbeState;
  /** The config page is loaded, so a choice can be saved. */
  ready: boolean;
  /** `base_url\nmodel` of the choice being saved. */
  saving: string | null;
  onUse: (server: LocalServer, model: string) => void;
  onRescan: () => void;
  /** Opens the manual form with this base URL filled in. */
  onByHand: (baseUrl: string) => void;
}

function LocalServers({ probe, ready, saving, onUse, onRescan, onByHand }: LocalServersProps) {
  const t = useT("onboarding");
  if (probe.status === "probing") {
    return (
      <div className="onboarding__probing" role="status" data-testid="onboarding-probing">
        <Spinner className="onboarding__spinner" />
        {t("probing")}
      </div>
    );
  }
  if (probe.status === "error") {
    return (
      <div className="onboarding__empty">
        <p className="form-error" role="alert" data-testid="onboarding-error" data-code={probe.error.code}>
          {t("probeError", { message: probe.error.message })}
        </p>
        <button type="button" className="button" onClick={onRescan} data-testid="onboarding-rescan">
          {t("lookAgain")}
        </button>
      </div>
    );
  }
  if (probe.servers.length === 0) {
    return (
      <div className="onboarding__empty" data-testid="onboarding-none-found">
        <p className="onboarding__empty-text">
          {t("noneFound", {
            ports: t("ports", {
              list: PORTS_CHECKED.slice(0, -1).join(t("portsSeparator")),
              last: PORTS_CHECKED[PORTS_CHECKED.length - 1],
            }),
          })}
        </p>
        <ul className="onboarding__hints">
          <li>
            <span className="onboarding__hint-name">{SERVER_NAMES.ollama}</span>
            <span className="onboarding__hint-how">
              <code>{START.ollamaServe}</code>
              <span className="onboarding__muted">{t("hints.then")}</span>
              <code>{START.ollamaPull}</code>
            </span>
          </li>
          <li>
            <span className="onboarding__hint-name">{SERVER_NAMES.llamaCpp}</span>
            <span className="onboarding__hint-how">
              <code>{START.llamaServer}</code>
            </span>
          </li>
          <li>
            <span className="onboarding__hint-name">{SERVER_NAMES.lmStudio}</span>
            <span className="onboarding__hint-how onboarding__muted">{t("hints.lmStudio")}</span>
          </li>
          <li>
            <span className="onboarding__hint-name">{SERVER_NAMES.vllm}</span>
            <span className="onboarding__hint-how">
              <code>{START.vllmServe}</code>
            </span>
          </li>
        </ul>
        <button type="button" className="button" onClick={onRescan} data-testid="onboarding-rescan">
          {t("lookAgain")}
        </button>
      </div>
    );
  }
  return (
    <ul className="onboarding__servers">
      {probe.servers.map((server) => (
        <ServerCard
          key={`${server.kind} ${server.base_url}`}
          server={server}
          ready={ready}
          saving={saving}
          onUse={(model) => onUse(server, model)}
          onByHand={onByHand}
        />
      ))}
    </ul>
  );
}

function ServerCard({
  server,
  ready,
  saving,
  onUse,
  onByHand,
}: {
  server: LocalServer;
  ready: boolean;
  saving: string | null;
  onUse: (model: string) => void;
  onByHand: (baseUrl: string) => void;
}) {
  const t = useT("onboarding");
  const shown = server.models.slice(0, SHOWN_MODELS);
  const rest = server.models.slice(SHOWN_MODELS);
  const [other, setOther] = useState(rest[0] ?? "");
  const selectId = useId();
  const busy = saving !== null;
  const isSaving = (model: string) => saving === `${server.base_url}\n${model}`;
  const chosenOther = rest.includes(other) ? other : (rest[0] ?? "");

  return (
    <li className="settings-card onboarding__server" data-testid="local-server" data-kind={server.kind}>
      <div className="onboarding__server-head">
        <span className="onboarding__server-dot" aria-hidden="true" />
        <strong className="onboarding__server-label">{server.label}</strong>
        <span className="badge badge--ok">{t("server.running")}</span>
        <code className="onboarding__server-url">{server.base_url}</code>
      </div>
      {server.models.length === 0 ? (
        <div className="onboarding__server-empty">
          <p className="onboarding__muted" data-testid="local-server-no-models">
            {server.no_models ? t("server.answered", { said: say(server.no_models) }) : t("server.noModel")}
            {server.kind === "ollama" ? (
              <Trans t={t} i18nKey="server.pullOllama" values={{ command: START.ollamaPull }} components={{ code: <code /> }} />
            ) : (
              t("server.loadOne")
            )}
          </p>
          <button type="button" className="button" onClick={() => onByHand(server.base_url)} data-testid="local-server-by-hand">
            {t("server.byHand")}
          </button>
        </div>
      ) : (
        <>
          <div className="onboarding__models">
            {shown.map((model) => (
              <button
                key={model}
                type="button"
                className="button onboarding__model"
                onClick={() => onUse(model)}
                disabled={!ready || busy}
                title={t("server.use", { model })}
                data-testid="local-model-use"
                data-model={model}
              >
                {isSaving(model) && <Spinner />}
                <span className="onboarding__model-name">{t("server.use", { model })}</span>
              </button>
            ))}
          </div>
          {rest.length > 0 && (
            <div className="onboarding__more">
              <label className="onboarding__more-label" htmlFor={selectId}>
                {t("server.more", { count: rest.length })}
              </label>
              <select
                id={selectId}
                className="input onboarding__more-select"
                value={chosenOther}
                onChange={(event) => setOther(event.target.value)}
                disabled={busy}
                data-testid="local-model-more"
              >
                {rest.map((model) => (
                  <option key={model} value={model}>
                    {model}
                  </option>
                ))}
              </select>
              <button
                type="button"
                className="button"
                onClick={() => onUse(chosenOther)}
                disabled={!ready || busy || chosenOther === ""}
                data-testid="local-model-use"
                data-model={chosenOther}
              >
                {isSaving(chosenOther) && <Spinner />}
                {t("server.useIt")}
              </button>
            </div>
          )}
        </>
      )}
    </li>
  );
}
