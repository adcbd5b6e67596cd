/**
 * The admission webhooks review creates and spec changes only: with the webhook unreachable, a
 * Machine's labels, annotations and finalizers still change (its deletion completes), while a
 * spec change is refused as before (the webhooks fail closed).
 */
import { describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import { admissionWebhook } from '../../../src/dev/install-api'
import { errorMessage } from '../../../src/errors'
import type { KubeObject, ResourceType } from '../../../src/kube/resource'
import { uniqueName, waitFor } from '../../harness/kube'
import { useFileNamespace, useKubeClient, useMachineApi } from '../../harness/machine-api'

const api = useMachineApi()
const ns = useFileNamespace(() => api().kc, 'api-metadata')
const kube = useKubeClient(api)

const validatingConfigurations: ResourceType = {
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  kind: 'ValidatingWebhookConfiguration',
  plural: 'validatingwebhookconfigurations',
  namespaced: false,
}

/** Our validating webhook, as installed, but pointed where nothing answers; this namespace only. */
function unreachableWebhook(name: string): KubeObject {
  const webhook = admissionWebhook(
    'unreachable.machine-api.dev',
    'https://127.0.0.1:1/validate',
    '',
  )
  const { caBundle: _, ...clientConfig } = webhook.clientConfig
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name },
    webhooks: [
      {
        ...webhook,
        clientConfig,
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns() } },
      },
    ],
  } as KubeObject
}

async function failure(write: Promise<unknown>): Promise<string> {
  try {
    await write
  } catch (error) {
    return errorMessage(error)
  }
  return ''
}

describe('with the admission webhook unreachable', () => {
  it('metadata updates and a finalizer removal go through; a spec change is refused', async () => {
    const ref = { namespace: ns(), name: 'meta' }
    await kube().create(machineApiTypes.machine, {
      apiVersion: 'machine-api.dev/v1beta1',
      kind: 'Machine',
      metadata: { ...ref, finalizers: ['example.com/hold'] },
      spec: { providerSpec: { provider: 'test', value: { instanceType: 't3.small' } } },
    } as KubeObject)
    const configuration = uniqueName('unreachable')
    await kube().create(validatingConfigurations, unreachableWebhook(configuration))
    try {
      const specChange = { spec: { nodeDrainTimeout: '7m' } }
      const refused = await waitFor('the unreachable webhook in effect', async () => {
        const message = await failure(kube().mergePatch(machineApiTypes.machine, ref, specChange))
        return message.includes('unreachable.machine-api.dev') && message
      })
      expect(refused).toContain('failed calling webhook')

      await kube().mergePatch(machineApiTypes.machine, ref, {
        metadata: { labels: { role: 'web' }, annotations: { note: 'kept' } },
      })
      await kube().delete(machineApiTypes.machine, ref)
      await kube().mergePatch(machineApiTypes.machine, ref, { metadata: { finalizers: null } })
      await waitFor('the Machine gone', async () => {
        return (await kube().get(machineApiTypes.machine, ref)) === undefined
      })
    } finally {
      await kube().delete(validatingConfigurations, { name: configuration })
    }
  })
})
