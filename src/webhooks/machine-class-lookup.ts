/** @module Looks MachineClasses up in the apiserver, for the "class does not exist yet" warning. */
import { ApiException, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node'
import { API_GROUP, HUB_VERSION } from '../api/group'
import type { MachineClassExists } from './admission/validate'

/**
 * A MachineClassExists backed by GET on the apiserver: true when found, false on 404, undefined
 * on any other error (a warning is not worth failing admission over).
 */
export function machineClassLookup(kubeConfig: KubeConfig): MachineClassExists {
  const api = kubeConfig.makeApiClient(CustomObjectsApi)
  return async (namespace, name) => {
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
}
