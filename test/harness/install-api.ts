/**
 * @module Installs the machine-api CRDs and admission webhooks into the test control plane, wired
 * to a webhook server by URL + caBundle. Reused by every integration test that needs the API.
 */
import { type KubeConfig, KubernetesObjectApi } from '@kubernetes/client-node'
import { API_GROUP, HUB_VERSION } from '../../src/api/group'
import { KIND_DEFINITIONS } from '../../src/api/kinds'
import { installMachineApi, webhookConfigurations } from '../../src/dev/install-api'
import { createKubeClient } from '../../src/kube/dynamic-client'
import { createHttpTransport } from '../../src/kube/http-transport'
import type { KubeClient } from '../../src/kube/kube-client'
import { uniqueName, waitFor } from './kube'

/** The API installed for a test run; `uninstall` removes the (cluster-scoped) webhook configurations. */
export interface InstalledApi {
  webhookConfigurationName: string
  uninstall(): Promise<void>
}

/**
 * Applies the CRDs (server-side apply, so re-installing points them at the new server) and
 * uniquely named webhook configurations, as `machine-api dev` does; resolves once the apiserver
 * serves both versions and calls the webhook. Over HTTP, not kubectl: ten kubectl processes per
 * install were a second of every integration file.
 */
export async function installApi(
  kc: KubeConfig,
  webhook: { url: string; caBundle: string },
): Promise<InstalledApi> {
  const kube = createKubeClient(createHttpTransport(kc, () => {}))
  const name = uniqueName('machine-api-test')
  try {
    await installMachineApi(kube, { ...webhook, name })
    await waitForServed(kube)
    await waitForWebhooks(KubernetesObjectApi.makeApiClient(kc))
  } finally {
    kube.close()
  }
  return {
    webhookConfigurationName: name,
    uninstall: async () => {
      const client = createKubeClient(createHttpTransport(kc, () => {}))
      try {
        for (const [type] of webhookConfigurations(name, webhook.url, webhook.caBundle)) {
          await client.delete(type, { name })
        }
      } finally {
        client.close()
      }
    },
  }
}

// Established is not yet "served": right after a (re)create the apiserver answers 503 "storage
// is (re)initializing" for a moment. Wait until a list goes through at both versions.
async function waitForServed(kube: KubeClient): Promise<void> {
  for (const definition of KIND_DEFINITIONS) {
    for (const version of ['v1beta1', 'v1alpha1']) {
      const type = {
        group: API_GROUP,
        version,
        kind: definition.kind,
        plural: definition.plural,
        namespaced: true,
      }
      await waitFor(`${definition.plural} served at ${version}`, async () => {
        await kube.list(type, { limit: 1 })
        return true
      })
    }
  }
}

// Webhook configurations reach the apiserver's admission chain asynchronously; probe with dry runs.
async function waitForWebhooks(objects: KubernetesObjectApi): Promise<void> {
  const probe = {
    apiVersion: `${API_GROUP}/${HUB_VERSION}`,
    kind: 'MachineSet',
    metadata: { name: 'webhook-probe', namespace: 'default' },
    spec: {
      selector: {},
      template: { spec: { providerSpec: { provider: 'no-such-provider', value: {} } } },
    },
  }
  await waitFor('admission webhooks active', async () => {
    try {
      await objects.create(probe, undefined, 'All')
      return false
    } catch (error) {
      // Denied by /validate after /mutate filled the selector: both webhooks are live.
      const message = String((error as Error).message)
      return message.includes('is not a known provider') && !message.includes('spec.selector')
    }
  })
}
