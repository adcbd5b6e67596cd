/**
 * @module Plays the kubelet for aws Machines on moto: registers a kwok-kept Node for every
 * instance under its private DNS name, as it would boot on EC2, until the test finishes.
 */
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node'
import { onTestFinished } from 'vitest'
import type { KubeClient } from '../../../src/kube/kube-client'
import { kwokNodeAnnotation } from '../../harness/nodes'
import { machinesOf } from './objects'

/** Registers a Node for each launched Machine of `namespace` every 300 ms. */
export function playKubelet(kc: KubeConfig, kube: KubeClient, namespace: string): void {
  const core = kc.makeApiClient(CoreV1Api)
  let stopped = false
  const loop = (async () => {
    while (!stopped) {
      for (const m of await machinesOf(kube, namespace)) {
        const name = m.status?.addresses?.find((a) => a.type === 'InternalDNS')?.address
        if (!m.spec?.providerID || !name || m.metadata.deletionTimestamp) continue
        if (m.status?.nodeRef) continue
        await core
          .createNode({
            body: {
              metadata: { name, annotations: { [kwokNodeAnnotation]: 'fake' } },
              spec: { providerID: m.spec.providerID },
            },
          })
          .catch(() => {})
      }
      await new Promise((resolve) => setTimeout(resolve, 300))
    }
  })()
  onTestFinished(async () => {
    stopped = true
    await loop
  })
}
