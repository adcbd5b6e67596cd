/** @module Reads keys of Secrets in one namespace: what providers get instead of a client. */

import type { KubeClient } from '../kube/kube-client'
import type { KubeObject, ResourceType } from '../kube/resource'
import type { SecretReader } from './actuator'

export const secretType: ResourceType = {
  group: '',
  version: 'v1',
  kind: 'Secret',
  plural: 'secrets',
  namespaced: true,
}

/** A SecretReader limited to `namespace`; a missing Secret or key reads as undefined. */
export function namespacedSecretReader(kube: KubeClient, namespace: string): SecretReader {
  return {
    async readSecret(name, key) {
      const secret = await kube.get<KubeObject & { data?: Record<string, string> }>(secretType, {
        namespace,
        name,
      })
      const value = secret?.data?.[key]
      return value === undefined ? undefined : Buffer.from(value, 'base64')
    },
  }
}
