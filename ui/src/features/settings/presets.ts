// Cloud providers a person can pick by name; each fills the form with what that service
// needs. The model is a sensible default the person can change.
import type { ProviderInput } from "../../gen/protocol";
import { t } from "../../i18n";

export interface ProviderPreset {
  id: string;
  label: string;
  input: ProviderInput;
  /** Where to get a key, shown next to the key field. */
  keyHint: string;
}

/** The presets, in the current language (read at render: the language can change). */
export function providerPresets(): ProviderPreset[] {
  return [
    {
      id: "openai",
      label: "OpenAI",
      input: { name: "openai", api: "openai", model: "gpt-4.1", base_url: "https://api.openai.com/v1", env_api_key: "OPENAI_API_KEY" },
      keyHint: "platform.openai.com → API keys",
    },
    {
      id: "anthropic",
      label: "Anthropic",
      input: {
        name: "anthropic",
        api: "anthropic",
        model: "claude-sonnet-4-5",
        base_url: "https://api.anthropic.com",
        env_api_key: "ANTHROPIC_API_KEY",
      },
      keyHint: "console.anthropic.com → API keys",
    },
    {
      id: "gemini",
      label: "Google Gemini",
      input: {
        name: "gemini",
        api: "gemini",
        model: "gemini-2.5-pro",
        base_url: "https://generativelanguage.googleapis.com",
        env_api_key: "GEMINI_API_KEY",
      },
      keyHint: "aistudio.google.com → Get API key",
    },
    {
      id: "deepseek",
      label: "DeepSeek",
      input: {
        name: "deepseek",
        api: "openai",
        model: "deepseek-chat",
        base_url: "https://api.deepseek.com",
        env_api_key: "DEEPSEEK_API_KEY",
      },
      keyHint: "platform.deepseek.com → API keys",
    },
    {
      id: "openrouter",
      label: "OpenRouter",
      input: {
        name: "openrouter",
        api: "openai",
        model: "anthropic/claude-sonnet-4.5",
        base_url: "https://openrouter.ai/api/v1",
        env_api_key: "OPENROUTER_API_KEY",
      },
      keyHint: "openrouter.ai → Keys",
    },
    {
      id: "custom",
      label: t("settings:presets.customLabel"),
      input: { name: "custom", api: "openai", model: "", base_url: "", env_api_key: null },
      keyHint: t("settings:presets.customKeyHint"),
    },
  ];
}

/**
 * The wire formats, each with a label short enough for the select's half of a form row (the
 * onboarding's narrow card cut "…(chat completio") and the whole name for its tooltip.
 */
export function wireApis(): readonly { value: string; label: string; full: string }[] {
  return [
    { value: "openai", label: t("settings:wire.openai"), full: t("settings:wire.openaiFull") },
    { value: "anthropic", label: "Anthropic", full: t("settings:wire.anthropicFull") },
    { value: "gemini", label: "Google Gemini", full: t("settings:wire.geminiFull") },
  ];
}

/** The whole name of wire format `api`, for a tooltip. */
export function wireApiTitle(api: string): string {
  return wireApis().find((w) => w.value === api)?.full ?? api;
}

/**
 * Where a key comes from, as the shell names it (`OS keychain`, `environment variable
 * NAME`), in the current language; anything else as it is.
 */
export function keySourceText(source: string): string {
  if (source === "OS keychain") return t("settings:keySource.keychain");
  const env = /^environment variable (\S+)$/.exec(source);
  return env?.[1] ? t("settings:keySource.env", { name: env[1] }) : source;
}

/** A name config.toml and the keychain accept: letters, digits, '-', '_', '.'. */
export function providerNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === "") return t("settings:providerForm.nameEmpty");
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(trimmed)) return t("settings:providerForm.nameInvalid");
  return null;
}

/** A name not taken yet: `base`, then `base-2`, `base-3`... */
export function freeName(base: string, taken: readonly string[]): string {
  const clean = base.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "provider";
  if (!taken.includes(clean)) return clean;
  for (let i = 2; ; i++) {
    const candidate = `${clean}-${i}`;
    if (!taken.includes(candidate)) return candidate;
  }
}
