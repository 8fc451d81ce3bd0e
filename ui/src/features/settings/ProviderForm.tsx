import { useId, useState, type FormEvent } from "react";

import type { ConnectionReport, ModelProfileInput, ProviderInput, ProviderSettings } from "../../gen/protocol";
import { commands, toCommandError } from "../../ipc";
import { PROVIDER_PRESETS, WIRE_APIS, freeName, providerNameProblem, wireApiTitle } from "./presets";
import type { ProviderSave, SaveOutcome } from "./useProviderSettings";

interface ProviderFormProps {
  /** The provider being edited; null adds one. */
  existing: ProviderSettings | null;
  /** The existing profile of its model, if any. */
  profile: ModelProfileInput | null;
  /** Names already used (a new provider's name must differ). */
  takenNames: readonly string[];
  /** Start from this preset (onboarding); the picker is shown for new providers. */
  initialPreset?: string;
  onSave: (request: ProviderSave) => Promise<SaveOutcome>;
  onCancel?: () => void;
  /** "Save" by default; onboarding says "Start using it". */
  submitLabel?: string;
}

type TestState = { status: "idle" } | { status: "running" } | { status: "done"; report: ConnectionReport };

const EMPTY_PROFILE: ModelProfileInput = {
  context_window: null,
  input_price_per_mtok: null,
  output_price_per_mtok: null,
  cached_input_price_per_mtok: null,
  thinking_budget_tokens: null,
  supports_vision: null,
  temperature: null,
};

function fromExisting(p: ProviderSettings): ProviderInput {
  return { name: p.name, api: p.api, model: p.model, base_url: p.base_url, env_api_key: p.env_api_key };
}

function presetInput(id: string, taken: readonly string[]): ProviderInput {
  const preset = PROVIDER_PRESETS.find((p) => p.id === id) ?? PROVIDER_PRESETS[0];
  if (preset === undefined) return { name: "", api: "openai", model: "", base_url: null, env_api_key: null };
  return { ...preset.input, name: freeName(preset.input.name, taken) };
}

/** `"12.5"` → 12.5; blank → null; anything else → NaN (reported). */
function parseNumber(text: string): number | null {
  const trimmed = text.trim();
  return trimmed === "" ? null : Number(trimmed);
}

function numberText(value: number | null): string {
  return value === null ? "" : String(value);
}

/**
 * Add or edit one provider: wire API, endpoint, model, where its key comes from (a key
 * typed here goes to the OS keychain and is never shown again), the model's profile, and a
 * real "Test connection".
 */
export function ProviderForm({
  existing,
  profile,
  takenNames,
  initialPreset = "openai",
  onSave,
  onCancel,
  submitLabel = "Save",
}: ProviderFormProps) {
  const id = useId();
  const [preset, setPreset] = useState(initialPreset);
  const [input, setInput] = useState<ProviderInput>(() =>
    existing ? fromExisting(existing) : presetInput(initialPreset, takenNames),
  );
  const [key, setKey] = useState("");
  const base = profile ?? EMPTY_PROFILE;
  const [contextWindow, setContextWindow] = useState(numberText(base.context_window));
  const [inputPrice, setInputPrice] = useState(numberText(base.input_price_per_mtok));
  const [outputPrice, setOutputPrice] = useState(numberText(base.output_price_per_mtok));
  const [thinking, setThinking] = useState(numberText(base.thinking_budget_tokens));
  const [vision, setVision] = useState(base.supports_vision ?? false);
  const [temperature, setTemperature] = useState(numberText(base.temperature));
  const [makeCurrent, setMakeCurrent] = useState(existing === null || existing.is_current);
  // Set when a failed test took the tick away, so the form can say why (and give it back
  // if a later test passes); a tick the person changes themselves clears it.
  const [untickedByTest, setUntickedByTest] = useState(false);
  const alreadyCurrent = existing?.is_current === true;
  const [test, setTest] = useState<TestState>({ status: "idle" });
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const keyStored = existing?.key.source ?? null;
  const presetInfo = PROVIDER_PRESETS.find((p) => p.id === preset);
  const others = existing ? takenNames.filter((n) => n !== existing.name) : takenNames;
  const nameProblem = providerNameProblem(input.name) ?? (others.includes(input.name.trim()) ? "That name is taken." : null);
  // Why Save is off, said beside it: a greyed-out button alone does not say what is missing.
  const missing = [nameProblem === null ? null : "a valid name", input.model.trim() === "" ? "a model" : null].filter(
    (m): m is string => m !== null,
  );
  const saveBlocked = missing.length === 0 ? null : `To save, enter ${missing.join(" and ")}.`;

  const set = (patch: Partial<ProviderInput>) => {
    setInput((current) => ({ ...current, ...patch }));
    setTest({ status: "idle" });
  };

  const choosePreset = (next: string) => {
    setPreset(next);
    setInput(presetInput(next, takenNames));
    setTest({ status: "idle" });
  };

  const profileInput = (): ModelProfileInput | string => {
    const window = parseNumber(contextWindow);
    const inPrice = parseNumber(inputPrice);
    const outPrice = parseNumber(outputPrice);
    const budget = parseNumber(thinking);
    const temp = parseNumber(temperature);
    for (const [label, value] of [
      ["Context window", window],
      ["Input price", inPrice],
      ["Output price", outPrice],
      ["Thinking budget", budget],
    ] as const) {
      if (value !== null && (!Number.isFinite(value) || value < 0)) return `${label} must be a number, zero or more.`;
    }
    if (temp !== null && (!Number.isFinite(temp) || temp < 0 || temp > 2)) return "Temperature must be a number from 0 to 2.";
    return {
      ...base,
      context_window: window,
      input_price_per_mtok: inPrice,
      output_price_per_mtok: outPrice,
      thinking_budget_tokens: budget,
      supports_vision: vision ? true : null,
      temperature: temp,
    };
  };

  // A provider that just failed its test should not quietly become the default for every
  // new session; the person may tick it again on purpose. One that is already the default
  // stays so (saving it with the box unticked would not change that anyway).
  const settleTest = (report: ConnectionReport) => {
    setTest({ status: "done", report });
    if (alreadyCurrent) return;
    if (!report.ok && makeCurrent) {
      setMakeCurrent(false);
      setUntickedByTest(true);
    } else if (report.ok && untickedByTest) {
      setMakeCurrent(true);
      setUntickedByTest(false);
    }
  };

  const runTest = async () => {
    setTest({ status: "running" });
    try {
      settleTest(await commands.testConnection({ provider: input, key: key.trim() === "" ? null : key }));
    } catch (raised) {
      const failure = toCommandError("test_connection", raised);
      settleTest({ ok: false, outcome: "other", message: failure.message, elapsed_ms: 0 });
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (nameProblem !== null) return;
    const profileOrProblem = profileInput();
    if (typeof profileOrProblem === "string") {
      setError(profileOrProblem);
      return;
    }
    const touched =
      profile !== null ||
      Object.entries(profileOrProblem).some(([field, value]) => value !== EMPTY_PROFILE[field as keyof ModelProfileInput]);
    setSaving(true);
    setError(null);
    try {
      const outcome = await onSave({
        original: existing?.name ?? null,
        provider: { ...input, name: input.name.trim(), model: input.model.trim() },
        makeCurrent,
        key,
        profile: touched ? profileOrProblem : null,
      });
      if (outcome.keyError !== null) {
        setError(
          `The provider was saved, but the key could not be stored in the OS keychain: ${outcome.keyError}` +
            (input.env_api_key ? ` Set ${input.env_api_key} in the environment instead.` : ""),
        );
      } else {
        setKey("");
      }
    } catch (raised) {
      setError(toCommandError("update_providers", raised).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="provider-form" onSubmit={submit} data-testid="provider-form" aria-label="Provider">
      {existing === null && (
        <label className="field">
          <span className="field__label">Service</span>
          <select
            className="input"
            value={preset}
            onChange={(event) => choosePreset(event.target.value)}
            data-testid="provider-preset"
          >
            {PROVIDER_PRESETS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="field-row">
        <label className="field">
          <span className="field__label">Name</span>
          <input
            className="input"
            value={input.name}
            onChange={(event) => set({ name: event.target.value })}
            aria-invalid={nameProblem !== null}
            data-testid="provider-name"
          />
          {nameProblem && <span className="field__error">{nameProblem}</span>}
        </label>
        <label className="field">
          <span className="field__label">Wire format</span>
          <select
            className="input"
            value={input.api}
            title={wireApiTitle(input.api)}
            onChange={(event) => set({ api: event.target.value })}
            data-testid="provider-api"
          >
            {WIRE_APIS.map((api) => (
              <option key={api.value} value={api.value} title={api.full}>
                {api.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className="field">
        <span className="field__label">Base URL</span>
        <input
          className="input"
          value={input.base_url ?? ""}
          placeholder="https://… (empty: the service's public endpoint)"
          onChange={(event) => set({ base_url: event.target.value === "" ? null : event.target.value })}
          data-testid="provider-base-url"
        />
      </label>
      <label className="field">
        <span className="field__label">Model</span>
        <input
          className="input"
          value={input.model}
          placeholder="e.g. gpt-4.1"
          onChange={(event) => set({ model: event.target.value })}
          data-testid="provider-model"
        />
      </label>
      <div className="field-row">
        <label className="field">
          <span className="field__label">API key</span>
          <input
            className="input"
            type="password"
            autoComplete="off"
            value={key}
            placeholder={keyStored ? `Stored (${keyStored}); type to replace` : "Paste a key (kept in the OS keychain)"}
            onChange={(event) => {
              setKey(event.target.value);
              setTest({ status: "idle" });
            }}
            data-testid="provider-key"
          />
          <span className="field__hint">{presetInfo && existing === null ? presetInfo.keyHint : "Never shown again once stored."}</span>
        </label>
        <label className="field">
          <span className="field__label">Or from the variable</span>
          <input
            className="input"
            value={input.env_api_key ?? ""}
            placeholder="e.g. OPENAI_API_KEY"
            onChange={(event) => set({ env_api_key: event.target.value === "" ? null : event.target.value })}
            data-testid="provider-env"
          />
        </label>
      </div>
      <details className="provider-form__advanced">
        <summary>Model profile: context window, temperature, prices, thinking</summary>
        <div className="field-row">
          <label className="field">
            <span className="field__label">Context window (tokens)</span>
            <input
              className="input"
              inputMode="numeric"
              value={contextWindow}
              placeholder="120000"
              onChange={(event) => setContextWindow(event.target.value)}
              data-testid="profile-context-window"
            />
          </label>
          <label className="field">
            <span className="field__label">Temperature</span>
            <input
              className="input"
              inputMode="decimal"
              value={temperature}
              placeholder="server default"
              title="0 to 2. Small local models call tools more reliably at 0.2."
              onChange={(event) => setTemperature(event.target.value)}
              data-testid="profile-temperature"
            />
          </label>
          <label className="field">
            <span className="field__label">Thinking budget (tokens)</span>
            <input
              className="input"
              inputMode="numeric"
              value={thinking}
              placeholder="off"
              onChange={(event) => setThinking(event.target.value)}
            />
          </label>
        </div>
        <div className="field-row">
          <label className="field">
            <span className="field__label">Input $ / million tokens</span>
            <input className="input" inputMode="decimal" value={inputPrice} onChange={(event) => setInputPrice(event.target.value)} />
          </label>
          <label className="field">
            <span className="field__label">Output $ / million tokens</span>
            <input className="input" inputMode="decimal" value={outputPrice} onChange={(event) => setOutputPrice(event.target.value)} />
          </label>
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={vision} onChange={(event) => setVision(event.target.checked)} />
          The model takes images
        </label>
      </details>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={makeCurrent}
          onChange={(event) => {
            setMakeCurrent(event.target.checked);
            setUntickedByTest(false);
          }}
          aria-describedby={untickedByTest ? `${id}-untick` : undefined}
          data-testid="provider-make-current"
        />
        Use it for new sessions
      </label>
      {untickedByTest && (
        <p className="field__hint provider-form__untick" id={`${id}-untick`} data-testid="provider-make-current-why">
          Not made the default: the connection test failed. Tick it to use it anyway.
        </p>
      )}
      {test.status === "done" && (
        <p
          className={`connection-report connection-report--${test.report.ok ? "ok" : "failed"}`}
          role="status"
          data-testid="connection-report"
          data-outcome={test.report.outcome}
        >
          {test.report.message}
        </p>
      )}
      {error && (
        <p className="form-error" role="alert" data-testid="provider-form-error">
          {error}
        </p>
      )}
      {saveBlocked !== null && !saving && (
        <p className="form-missing" data-testid="provider-form-missing">
          {saveBlocked}
        </p>
      )}
      <div className="provider-form__actions" id={`${id}-actions`}>
        <button
          type="button"
          className="button"
          onClick={runTest}
          disabled={test.status === "running" || input.model.trim() === ""}
          title={input.model.trim() === "" ? "Enter a model to test the connection with" : "Send a tiny request with these settings"}
          data-testid="provider-test"
        >
          {test.status === "running" ? "Testing…" : "Test connection"}
        </button>
        <span className="provider-form__spacer" />
        {onCancel && (
          <button type="button" className="button button--quiet" onClick={onCancel}>
            Cancel
          </button>
        )}
        <button
          type="submit"
          className="button button--primary"
          disabled={saving || saveBlocked !== null}
          title={saveBlocked ?? undefined}
          data-testid="provider-save"
        >
          {saving ? "Saving…" : submitLabel}
        </button>
      </div>
    </form>
  );
}
