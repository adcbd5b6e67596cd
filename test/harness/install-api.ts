/**
 * @module Installs the machine-api CRDs and admission webhooks into the test control plane, wired
 * to a webhook server by URL + caBundle. Reused by every integration test that needs the API.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  ApiextensionsV1Api,
  type KubeConfig,
  type KubernetesObject,
  KubernetesObjectApi,
  PatchStrategy,
} from '@kubernetes/client-node'
import { API_GROUP, HUB_VERSION } from '../../src/api/group'
import { KIND_DEFINITIONS } from '../../src/api/kinds'
import { admissionWebhook, crdsFor, statusWebhook } from '../../src/dev/install-api'
import { ignoreNotFound, type Kubectl, kubectl as testKubectl, uniqueName, waitFor } from './kube'

/** The API installed for a test run; `uninstall` removes the (cluster-scoped) webhook configurations. */
export interface InstalledApi {
  webhookConfigurationName: string
  uninstall(): Promise<void>
}

const FIELD_MANAGER = 'machine-api-test'

/**
 * Applies the CRDs (server-side apply, so re-installing points them at the new server) and
 * uniquely named webhook configurations; resolves once the apiserver calls the webhook.
 */
export async function installApi(
  kc: KubeConfig,
  webhook: { url: string; caBundle: string },
  /** kubectl for the target control plane (default: the test run's shared one). */
  kubectl: Kubectl = testKubectl,
): Promise<InstalledApi> {
  const objects = KubernetesObjectApi.makeApiClient(kc)
  const apply = (object: KubernetesObject) =>
    objects.patch(object, undefined, undefined, FIELD_MANAGER, true, PatchStrategy.ServerSideApply)
  await applyWithKubectl(kubectl, crdsFor(webhook.url, webhook.caBundle))
  await waitForEstablished(kc, kubectl)

  const name = uniqueName('machine-api-test')
  const configurations: KubernetesObject[] = [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name },
      webhooks: [
        admissionWebhook('mutate.machine-api.dev', `${webhook.url}/mutate`, webhook.caBundle),
      ],
    } as KubernetesObject,
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name },
      webhooks: [
        admissionWebhook('validate.machine-api.dev', `${webhook.url}/validate`, webhook.caBundle),
        statusWebhook(`${webhook.url}/validate`, webhook.caBundle),
      ],
    } as KubernetesObject,
  ]
  for (const configuration of configurations) await apply(configuration)
  await waitForWebhooks(objects)
  return {
    webhookConfigurationName: name,
    uninstall: async () => {
      for (const configuration of configurations)
        await objects.delete(configuration).catch(ignoreNotFound)
    },
  }
}

// kubectl, not the typed client: its serializer drops `x-kubernetes-*` keys it has no model name for.
async function applyWithKubectl(kubectl: Kubectl, manifests: readonly object[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'machine-api-crds-'))
  try {
    const file = join(dir, 'crds.json')
    writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: manifests }))
    await kubectl([
      'apply',
      '--server-side',
      '--force-conflicts',
      `--field-manager=${FIELD_MANAGER}`,
      '-f',
      file,
    ])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function waitForEstablished(kc: KubeConfig, kubectl: Kubectl): Promise<void> {
  const api = kc.makeApiClient(ApiextensionsV1Api)
  for (const definition of KIND_DEFINITIONS) {
    await waitFor(`CRD ${definition.plural} established`, async () => {
      const crd = await api.readCustomResourceDefinition({
        name: `${definition.plural}.${API_GROUP}`,
      })
      return crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')
    })
    // Established is not yet "served": right after a (re)create the apiserver answers 503
    // "storage is (re)initializing" for a moment. Wait until a list goes through at both versions.
    for (const version of ['v1beta1', 'v1alpha1']) {
      await waitFor(`${definition.plural} served at ${version}`, async () => {
        await kubectl([
          'get',
          `${definition.plural}.${version}.${API_GROUP}`,
          '-A',
          '--chunk-size=1',
        ])
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
