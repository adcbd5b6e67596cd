/**
 * @module The provider access a Machine records with its instance: which provider made it and the
 * secret-free facts that provider said its exists and delete need (`ProviderResult.access`),
 * kept under `status.providerStatus.access` in the status write that records the instance (no
 * write of its own; a crash before it leaves nothing recorded, and the class is read as before).
 * While the Machine is deleted its provider is called with them instead of a fresh read of the
 * MachineClass, so a deletion reads no class and a class deleted first does not block it.
 */
import type { Machine } from '../../api/v1beta1/machine'
import type { JsonObject, ProviderResult } from '../../providers/actuator'
import type { ProviderFailure } from '../runtime/classify'
import type { MachineProvider } from './provider-context'

/** The key of `status.providerStatus` the Machine controller owns. */
export const accessKey = 'access'

/** The recorded access: the provider's name and its facts. */
export interface RecordedAccess {
  provider: string
  facts: JsonObject
}

/**
 * The `status.providerStatus` to write for `result`: the provider's own, plus its access when
 * it reported one and the run knows the provider's name.
 */
export function providerStatusWithAccess(
  result: ProviderResult,
  provider: string | undefined,
): JsonObject {
  if (!result.access || !provider) return result.providerStatus
  return { ...result.providerStatus, [accessKey]: { provider, facts: result.access } }
}

/** The access recorded on `machine`, if any. */
export function recordedAccess(machine: Machine): RecordedAccess | undefined {
  const status = machine.status?.providerStatus as Record<string, unknown> | undefined
  const access = status?.[accessKey] as { provider?: unknown; facts?: unknown } | undefined
  if (typeof access?.provider !== 'string' || access.provider === '') return undefined
  const facts = access.facts
  if (typeof facts !== 'object' || facts === null || Array.isArray(facts)) return undefined
  return { provider: access.provider, facts: facts as JsonObject }
}

/**
 * Failures that may mean the recorded access went stale: the credentials were refused, or the
 * Secret it names is gone (both what rotating a class's credentialsSecretRef looks like). The
 * class is then read fresh and the call made once more with it.
 */
export function accessMayBeStale(failure: ProviderFailure): boolean {
  return failure.reason === 'Unauthorized' || failure.reason === 'SecretNotFound'
}

/**
 * Calls `recorded` (the provider with the recorded access) until a call fails as stale access;
 * then `fresh()` (the provider as the MachineClass, read fresh, gives it) makes that call once
 * more and every later one. Without a fresh provider (the class is gone, or the read failed) the
 * first failure stands.
 */
export function refreshingOnStaleAccess(
  recorded: MachineProvider,
  fresh: () => Promise<MachineProvider | undefined>,
): MachineProvider {
  let current = recorded
  let refreshed = false
  return {
    async call(use) {
      const result = await current.call(use)
      if (result.ok || refreshed || !accessMayBeStale(result.failure)) return result
      refreshed = true
      const next = await fresh().catch(() => undefined)
      if (!next) return result
      current = next
      return current.call(use)
    },
  }
}
