/** @module Reads keys of Secrets in one namespace: what providers get instead of a client. */

import type { KubeClient } from '../kube/kube-client'
import { coreTypes, type KubeObject } from '../kube/resource'
import type { SecretReader } from './actuator'

/** A SecretReader limited to `namespace`; a missing Secret or key reads as undefined. */
export function namespacedSecretReader(kube: KubeClient, namespace: string): SecretReader {
  return {
    async readSecret(name, key) {
      const secret = await kube.get<KubeObject & { data?: Record<string, string> }>(
        coreTypes.secret,
        {
          namespace,
          name,
        },
      )
      const value = secret?.data?.[key]
      return value === undefined ? undefined : Buffer.from(value, 'base64')
    },
  }
}
