/** @module Looks MachineClasses up in the apiserver, for the "class does not exist yet" warning. */
import type { KubeConfig } from '@kubernetes/client-node'
import { machineApiTypes } from '../api/resource-types'
import { createKubeClient } from '../kube/dynamic-client'
import { createHttpTransport } from '../kube/http-transport'
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
  // The project's own client, not client-node's generated CustomObjectsApi: importing that
  // evaluates the package index (about 800 KiB) on the webhook's one thread right after /readyz.
  // Its deadline aborts the GET itself, so a slow apiserver holds no request past it.
  const kube = createKubeClient(
    createHttpTransport(kubeConfig, () => {}, {
      requestTimeoutMs: options.timeoutMs ?? defaultLookupTimeoutMs,
    }),
  )
  return async (namespace, name) => {
    try {
      return (await kube.get(machineApiTypes.machineClass, { namespace, name })) !== undefined
    } catch {
      return undefined
    }
  }
}
