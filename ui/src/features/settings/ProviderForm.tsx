import { useId, useState, type FormEvent } from "react";

import type { ConnectionReport, ModelProfileInput, ProviderInput, ProviderSettings } from "../../gen/protocol";
import { t as translate, useT } from "../../i18n";
import { say } from "../../i18n/phrase";
import { ipc, toIpcError } from "../../ipc";
import { freeName, keySourceText, providerNameProblem, providerPresets, wireApiTitle, wireApis } from "./presets";
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
  /** Start with this base URL (a server found on this machine that listed no model). */
  initialBaseUrl?: string;
  onSave: (request: ProviderSave) => Promise<SaveOutcome>;
  onCancel?: () => void;
  /** "Save" by default; onboarding says "Start using it". */
  submitLabel?: string;
  /**
   * Reads config.toml again (true once read), offered when a save met a file changed on
   * disk; what was typed stays in the form.
   */
  onReload?: () => Promise<boolean>;
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

/** The profile's fields as the form edits them (numbers as typed). */
interface ProfileText {
  context_window: string;
  input_price_per_mtok: string;
  output_price_per_mtok: string;
  thinking_budget_tokens: string;
  temperature: string;
  supports_vision: boolean;
}

type Field = keyof ProviderInput | keyof ProfileText | "make_current";

const FIELDS: readonly Field[] = [
  "name",
  "api",
  "model",
  "base_url",
  "env_api_key",
  "context_window",
  "input_price_per_mtok",
  "output_price_per_mtok",
  "thinking_budget_tokens",
  "temperature",
  "supports_vision",
  "make_current",
];

/** A field's name in messages about it, in the current language; an unknown one as it is. */
function fieldLabel(field: string): string {
  return (FIELDS as readonly string[]).includes(field) ? translate(`settings:providerForm.fields.${field}`) : field;
}

/** Fields named in one message: "Model, Temperature". */
function fieldList(fields: readonly string[]): string {
  return fields
    .map((field) => translate("settings:providerForm.quoted", { field }))
    .join(translate("settings:providerForm.listSeparator"));
}

/** What the form was filled from: the provider's entry in config.toml as last read. */
interface Source {
  input: ProviderInput | null;
  profile: ProfileText;
  current: boolean;
}

function profileText(p: ModelProfileInput | null): ProfileText {
  const base = p ?? EMPTY_PROFILE;
  return {
    context_window: numberText(base.context_window),
    input_price_per_mtok: numberText(base.input_price_per_mtok),
    output_price_per_mtok: numberText(base.output_price_per_mtok),
    thinking_budget_tokens: numberText(base.thinking_budget_tokens),
    temperature: numberText(base.temperature),
    supports_vision: base.supports_vision ?? false,
  };
}

function sourceOf(existing: ProviderSettings | null, profile: ModelProfileInput | null): Source {
  return {
    input: existing ? fromExisting(existing) : null,
    profile: profileText(profile),
    current: existing === null || existing.is_current,
  };
}

function sameSource(a: Source, b: Source): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Three-way merge of one group of fields after config.toml was read again: a field the
 * person left alone takes the file's new value (named in `adopted`), one they changed
 * keeps theirs; `clashes` names those the file changed too (to something else).
 */
function mergeFields<T extends object>(mine: T, was: T, now: T, adopted: string[], clashes: string[]): T {
  const next = { ...mine };
  for (const field of Object.keys(now) as (keyof T)[]) {
    if (Object.is(mine[field], was[field])) {
      next[field] = now[field];
      if (!Object.is(now[field], was[field])) adopted.push(fieldLabel(String(field)));
    } else if (!Object.is(now[field], was[field]) && !Object.is(now[field], mine[field])) {
      clashes.push(fieldLabel(String(field)));
    }
  }
  return next;
}

function fromExisting(p: ProviderSettings): ProviderInput {
  return { name: p.name, api: p.api, model: p.model, base_url: p.base_url, env_api_key: p.env_api_key };
}

function presetInput(id: string, taken: readonly string[]): ProviderInput {
  const presets = providerPresets();
  const preset = presets.find((p) => p.id === id) ?? presets[0];
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
  initialBaseUrl,
  onSave,
  onCancel,
  submitLabel,
  onReload,
}: ProviderFormProps) {
  const t = useT("settings");
  const id = useId();
  const [preset, setPreset] = useState(initialPreset);
  const [input, setInput] = useState<ProviderInput>(() =>
    existing
      ? fromExisting(existing)
      : { ...presetInput(initialPreset, takenNames), ...(initialBaseUrl ? { base_url: initialBaseUrl } : {}) },
  );
  const [key, setKey] = useState("");
  const base = profile ?? EMPTY_PROFILE;
  const [texts, setTexts] = useState<ProfileText>(() => profileText(profile));
  const setText = (patch: Partial<ProfileText>) => setTexts((current) => ({ ...current, ...patch }));
  const [makeCurrent, setMakeCurrent] = useState(existing === null || existing.is_current);
  // Set when a failed test took the tick away, so the form can say why (and give it back
  // if a later test passes); a tick the person changes themselves clears it.
  const [untickedByTest, setUntickedByTest] = useState(false);
  const alreadyCurrent = existing?.is_current === true;
  const [test, setTest] = useState<TestState>({ status: "idle" });
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<{ message: string; conflict: boolean } | null>(null);
  const [reloading, setReloading] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  // config.toml read again (Reload, a save, the page's own re-read): fields the person left
  // alone follow the file, what they typed stays, and a field both changed is named. Never
  // a silent reset, and never a save that quietly puts back what someone else changed.
  const [source, setSource] = useState<Source>(() => sourceOf(existing, profile));
  const latestSource = sourceOf(existing, profile);
  if (!sameSource(source, latestSource)) {
    setSource(latestSource);
    const adopted: string[] = [];
    const clashes: string[] = [];
    if (source.input !== null && latestSource.input !== null) {
      setInput(mergeFields(input, source.input, latestSource.input, adopted, clashes));
    }
    setTexts(mergeFields(texts, source.profile, latestSource.profile, adopted, clashes));
    const current = mergeFields(
      { make_current: makeCurrent },
      { make_current: source.current },
      { make_current: latestSource.current },
      adopted,
      clashes,
    );
    setMakeCurrent(current.make_current);
    const said = [
      adopted.length > 0 ? t("providerForm.adopted", { count: adopted.length, fields: fieldList(adopted) }) : null,
      clashes.length > 0 ? t("providerForm.clashes", { fields: fieldList(clashes) }) : null,
    ].filter((part): part is string => part !== null);
    if (said.length > 0) setNotice(t("providerForm.fileChanged", { what: said.join(t("providerForm.partSeparator")) }));
  }

  const keyStored = existing?.key.source ?? null;
  const presets = providerPresets();
  const presetInfo = presets.find((p) => p.id === preset);
  const others = existing ? takenNames.filter((n) => n !== existing.name) : takenNames;
  const nameProblem = providerNameProblem(input.name) ?? (others.includes(input.name.trim()) ? t("providerForm.nameTaken") : null);
  // Why Save is off, said beside it: a greyed-out button alone does not say what is missing.
  const missingName = nameProblem !== null;
  const missingModel = input.model.trim() === "";
  const saveBlocked =
    missingName && missingModel
      ? t("providerForm.saveBlocked.both")
      : missingName
        ? t("providerForm.saveBlocked.name")
        : missingModel
          ? t("providerForm.saveBlocked.model")
          : null;

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
    const window = parseNumber(texts.context_window);
    const inPrice = parseNumber(texts.input_price_per_mtok);
    const outPrice = parseNumber(texts.output_price_per_mtok);
    const budget = parseNumber(texts.thinking_budget_tokens);
    const temp = parseNumber(texts.temperature);
    for (const [field, value] of [
      ["context_window", window],
      ["input_price_per_mtok", inPrice],
      ["output_price_per_mtok", outPrice],
      ["thinking_budget_tokens", budget],
    ] as const) {
      if (value !== null && (!Number.isFinite(value) || value < 0)) return t("providerForm.notANumber", { field: fieldLabel(field) });
    }
    if (temp !== null && (!Number.isFinite(temp) || temp < 0 || temp > 2)) return t("providerForm.temperatureRange");
    return {
      ...base,
      context_window: window,
      input_price_per_mtok: inPrice,
      output_price_per_mtok: outPrice,
      thinking_budget_tokens: budget,
      supports_vision: texts.supports_vision ? true : null,
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
      settleTest(await ipc.testConnection({ provider: input, key: key.trim() === "" ? null : key }));
    } catch (raised) {
      const failure = toIpcError("test_connection", raised);
      const phrase = { code: "connect_failed", detail: failure.message } as const;
      settleTest({ ok: false, outcome: "other", message: failure.message, phrase, elapsed_ms: 0 });
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (nameProblem !== null) return;
    const profileOrProblem = profileInput();
    if (typeof profileOrProblem === "string") {
      setError({ message: profileOrProblem, conflict: false });
      return;
    }
    const touched =
      profile !== null ||
      Object.entries(profileOrProblem).some(([field, value]) => value !== EMPTY_PROFILE[field as keyof ModelProfileInput]);
    setSaving(true);
    setError(null);
    setNotice(null);
    try {
      const outcome = await onSave({
        original: existing?.name ?? null,
        provider: { ...input, name: input.name.trim(), model: input.model.trim() },
        makeCurrent,
        key,
        profile: touched ? profileOrProblem : null,
      });
      if (outcome.keyError !== null) {
        setError({
          message: input.env_api_key
            ? t("providerForm.keyNotStoredEnv", { error: outcome.keyError, variable: input.env_api_key })
            : t("providerForm.keyNotStored", { error: outcome.keyError }),
          conflict: false,
        });
      } else {
        setKey("");
      }
    } catch (raised) {
      const failure = toIpcError("update_providers", raised);
      setError({ message: failure.message, conflict: failure.code === "conflict" });
    } finally {
      setSaving(false);
    }
  };

  // After a conflict: the file's new revision, with what was typed still in the form.
  const reload = async () => {
    if (!onReload) return;
    setReloading(true);
    try {
      if (await onReload()) {
        setError(null);
        setNotice((said) => said ?? t("providerForm.readAgain"));
      }
    } finally {
      setReloading(false);
    }
  };

  return (
    <form className="provider-form" onSubmit={submit} data-testid="provider-form" aria-label={t("providerForm.label")}>
      {existing === null && (
        <label className="field">
          <span className="field__label">{t("providerForm.service")}</span>
          <select
            className="input"
            value={preset}
            onChange={(event) => choosePreset(event.target.value)}
            data-testid="provider-preset"
          >
            {presets.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="field-row">
        <label className="field">
          <span className="field__label">{t("providerForm.fields.name")}</span>
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
          <span className="field__label">{t("providerForm.fields.api")}</span>
          <select
            className="input"
            value={input.api}
            title={wireApiTitle(input.api)}
            onChange={(event) => set({ api: event.target.value })}
            data-testid="provider-api"
          >
            {wireApis().map((api) => (
              <option key={api.value} value={api.value} title={api.full}>
                {api.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className="field">
        <span className="field__label">{t("providerForm.fields.base_url")}</span>
        <input
          className="input"
          value={input.base_url ?? ""}
          placeholder={t("providerForm.baseUrlPlaceholder")}
          onChange={(event) => set({ base_url: event.target.value === "" ? null : event.target.value })}
          data-testid="provider-base-url"
        />
      </label>
      <label className="field">
        <span className="field__label">{t("providerForm.fields.model")}</span>
        <input
          className="input"
          value={input.model}
          placeholder={t("providerForm.modelPlaceholder")}
          onChange={(event) => set({ model: event.target.value })}
          data-testid="provider-model"
        />
      </label>
      <div className="field-row">
        <label className="field">
          <span className="field__label">{t("providerForm.apiKey")}</span>
          <input
            className="input"
            type="password"
            autoComplete="off"
            value={key}
            placeholder={
              keyStored
                ? t("providerForm.keyStoredPlaceholder", { source: keySourceText(keyStored) })
                : t("providerForm.keyPlaceholder")
            }
            onChange={(event) => {
              setKey(event.target.value);
              setTest({ status: "idle" });
            }}
            data-testid="provider-key"
          />
          <span className="field__hint">{presetInfo && existing === null ? presetInfo.keyHint : t("providerForm.keyNeverShown")}</span>
        </label>
        <label className="field">
          <span className="field__label">{t("providerForm.envLabel")}</span>
          <input
            className="input"
            value={input.env_api_key ?? ""}
            placeholder={t("providerForm.envPlaceholder")}
            onChange={(event) => set({ env_api_key: event.target.value === "" ? null : event.target.value })}
            data-testid="provider-env"
          />
        </label>
      </div>
      <details className="provider-form__advanced">
        <summary>{t("providerForm.profileSummary")}</summary>
        <div className="field-row">
          <label className="field">
            <span className="field__label">{t("providerForm.contextWindowTokens")}</span>
            <input
              className="input"
              inputMode="numeric"
              value={texts.context_window}
              placeholder="120000"
              onChange={(event) => setText({ context_window: event.target.value })}
              data-testid="profile-context-window"
            />
          </label>
          <label className="field">
            <span className="field__label">{t("providerForm.fields.temperature")}</span>
            <input
              className="input"
              inputMode="decimal"
              value={texts.temperature}
              placeholder={t("providerForm.temperaturePlaceholder")}
              title={t("providerForm.temperatureTitle")}
              onChange={(event) => setText({ temperature: event.target.value })}
              data-testid="profile-temperature"
            />
          </label>
          <label className="field">
            <span className="field__label">{t("providerForm.thinkingBudgetTokens")}</span>
            <input
              className="input"
              inputMode="numeric"
              value={texts.thinking_budget_tokens}
              placeholder={t("providerForm.thinkingPlaceholder")}
              onChange={(event) => setText({ thinking_budget_tokens: event.target.value })}
            />
          </label>
        </div>
        <div className="field-row">
          <label className="field">
            <span className="field__label">{t("providerForm.inputPrice")}</span>
            <input className="input" inputMode="decimal" value={texts.input_price_per_mtok} onChange={(event) => setText({ input_price_per_mtok: event.target.value })} />
          </label>
          <label className="field">
            <span className="field__label">{t("providerForm.outputPrice")}</span>
            <input className="input" inputMode="decimal" value={texts.output_price_per_mtok} onChange={(event) => setText({ output_price_per_mtok: event.target.value })} />
          </label>
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={texts.supports_vision} onChange={(event) => setText({ supports_vision: event.target.checked })} />
          {t("providerForm.takesImages")}
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
        {t("providerForm.fields.make_current")}
      </label>
      {untickedByTest && (
        <p className="field__hint provider-form__untick" id={`${id}-untick`} data-testid="provider-make-current-why">
          {t("providerForm.untickedByTest")}
        </p>
      )}
      {test.status === "done" && (
        <p
          className={`connection-report connection-report--${test.report.ok ? "ok" : "failed"}`}
          role="status"
          data-testid="connection-report"
          data-outcome={test.report.outcome}
        >
          {say(test.report.phrase)}
        </p>
      )}
      {error && (
        <p className="form-error" role="alert" data-testid="provider-form-error">
          {error.message}
          {error.conflict && onReload && (
            <>
              {" "}
              <button
                type="button"
                className="button button--small"
                onClick={() => void reload()}
                disabled={reloading}
                data-testid="provider-form-reload"
              >
                {reloading ? t("reloading") : t("reload")}
              </button>
            </>
          )}
        </p>
      )}
      {notice && !error && (
        <p className="form-hint" role="status" data-testid="provider-form-notice">
          {notice}
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
          title={input.model.trim() === "" ? t("providerForm.testNeedsModel") : t("providerForm.testTitle")}
          data-testid="provider-test"
        >
          {test.status === "running" ? t("providerForm.testing") : t("providerForm.test")}
        </button>
        <span className="provider-form__spacer" />
        {onCancel && (
          <button type="button" className="button button--quiet" onClick={onCancel}>
            {t("common:cancel")}
          </button>
        )}
        <button
          type="submit"
          className="button button--primary"
          disabled={saving || saveBlocked !== null}
          title={saveBlocked ?? undefined}
          data-testid="provider-save"
        >
          {saving ? t("common:saving") : (submitLabel ?? t("common:save"))}
        </button>
      </div>
    </form>
  );
}
