import { EXTERNAL_AGENT_PROVIDER_PREFIX } from "../gen/protocol";

/** The external agent a provider value names (`acp:claude` → `claude`), if it is one. */
export function externalAgentOf(provider: string | null | undefined): string | null {
  return provider?.startsWith(EXTERNAL_AGENT_PROVIDER_PREFIX) ? provider.slice(EXTERNAL_AGENT_PROVIDER_PREFIX.length) : null;
}

/** The provider value a new session on external agent `name` is chosen with. */
export function externalAgentChoice(name: string): string {
  return `${EXTERNAL_AGENT_PROVIDER_PREFIX}${name}`;
}
