/** @module Looks MachineClasses up in the apiserver, for the "class does not exist yet" warning. */
import { ApiException, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node'
import { API_GROUP, HUB_VERSION } from '../api/group'
import type { MachineClassExists } from './admission/validate'

/**
 * How long a lookup may take. The apiserver waits at most the webhook's timeoutSeconds (5 s) for
 * the whole review; a slow apiserver must cost the warning, never the admission.
 */
export const defaultLookupTimeoutMs = 1000

/**
 * A MachineClassExists backed by GET on the apiserver: true when found, false on 404, undefined
 * on any other error or after `timeoutMs` (a warning is not worth failing admission over).
 */
export function machineClassLookup(
  kubeConfig: KubeConfig,
  options: { timeoutMs?: number } = {},
): MachineClassExists {
  const api = kubeConfig.makeApiClient(CustomObjectsApi)
  const timeoutMs = options.timeoutMs ?? defaultLookupTimeoutMs
  const lookup = async (namespace: string, name: string) => {
    try {
      await api.getNamespacedCustomObject({
        group: API_GROUP,
        version: HUB_VERSION,
        namespace,
        plural: 'machineclasses',
        name,
      })
      return true
    } catch (error) {
      if (error instanceof ApiException && error.code === 404) return false
      return undefined
    }
  }
  return async (namespace, name) => {
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), timeoutMs)
    })
    try {
      return await Promise.race([lookup(namespace, name), late])
    } finally {
      clearTimeout(timer)
    }
  }
}
