import type { ProviderSummary } from "../gen/protocol";
import type { Loadable } from "./useLoadable";

/**
 * config.toml reads, has providers, and none is current: its `current_provider` names one
 * it does not define (the only way list_providers marks none). Sessions would fail to start,
 * so it is said now rather than after the first message.
 */
export function lacksCurrentProvider(providers: Loadable<ProviderSummary[]>): boolean {
  return providers.status === "ready" && providers.value.length > 0 && !providers.value.some((p) => p.is_current);
}
