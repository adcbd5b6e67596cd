/**
 * @module Installs the machine-api CRDs and admission webhooks into a cluster, wired to a webhook
 * server by URL and CA bundle (the demo's path; production installs use infra/ with cert-manager).
 */
import { setTimeout as delay } from 'node:timers/promises'
import { API_GROUP, HUB_VERSION } from '../api/group'
import { KIND_DEFINITIONS } from '../api/kinds'
import { generateCrd } from '../crd/generate'
import { errorMessage } from '../errors'
import type { KubeClient } from '../kube/kube-client'
import { coreTypes, type KubeObject, type ResourceType } from '../kube/resource'
import {
  providerStatusWriteMatchConditions,
  specWriteMatchConditions,
} from '../webhooks/match-conditions'

const fieldManager = 'machine-api-dev'
const admissionType = (kind: string, plural: string): ResourceType => ({
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  kind,
  plural,
  namespaced: false,
})

/** One admission webhook for the machine-api group only, calling `url`. */
export function admissionWebhook(name: string, url: string, caBundle: string) {
  return {
    name,
    admissionReviewVersions: ['v1'],
    clientConfig: { url, caBundle },
    rules: [
      {
        apiGroups: [API_GROUP],
        apiVersions: [HUB_VERSION],
        operations: ['CREATE', 'UPDATE'],
        resources: KIND_DEFINITIONS.map((d) => d.plural),
        scope: 'Namespaced',
      },
    ],
    matchConditions: specWriteMatchConditions,
    failurePolicy: 'Fail',
    sideEffects: 'None',
    matchPolicy: 'Equivalent',
    timeoutSeconds: 5,
  }
}

/**
 * The validating webhook for Machine status writes that change `providerStatus` (their shape is
 * bounded like a spec's). `Ignore`: a controller's status write never waits on the webhook, so a
 * Machine's provisioning and deletion go on while it is unreachable.
 */
export function statusWebhook(url: string, caBundle: string) {
  return {
    ...admissionWebhook('validate-status.machine-api.dev', url, caBundle),
    rules: [
      {
        apiGroups: [API_GROUP],
        apiVersions: [HUB_VERSION],
        operations: ['UPDATE'],
        resources: ['machines/status'],
        scope: 'Namespaced',
      },
    ],
    matchConditions: providerStatusWriteMatchConditions,
    failurePolicy: 'Ignore',
  }
}

/** The CRDs with their conversion webhook pointed at `url`/convert. */
export function crdsFor(url: string, caBundle: string): KubeObject[] {
  return KIND_DEFINITIONS.map((definition) => {
    const crd = generateCrd(definition) as {
      spec: { conversion: { webhook: Record<string, unknown> } }
    }
    crd.spec.conversion.webhook.clientConfig = { url: `${url}/convert`, caBundle }
    return crd as unknown as KubeObject
  })
}

/** The mutating and validating configurations named `name`. */
export function webhookConfigurations(
  name: string,
  url: string,
  caBundle: string,
): Array<[ResourceType, KubeObject]> {
  return [
    [
      admissionType('MutatingWebhookConfiguration', 'mutatingwebhookconfigurations'),
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'MutatingWebhookConfiguration',
        metadata: { name },
        webhooks: [admissionWebhook('mutate.machine-api.dev', `${url}/mutate`, caBundle)],
      },
    ],
    [
      admissionType('ValidatingWebhookConfiguration', 'validatingwebhookconfigurations'),
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name },
        webhooks: [
          admissionWebhook('validate.machine-api.dev', `${url}/validate`, caBundle),
          statusWebhook(`${url}/validate`, caBundle),
        ],
      },
    ],
  ]
}

async function until(
  description: string,
  probe: () => Promise<boolean>,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let last = ''
  while (Date.now() < deadline) {
    try {
      if (await probe()) return
    } catch (error) {
      last = errorMessage(error)
    }
    await delay(250)
  }
  throw new Error(`timed out waiting for ${description} ${last}`)
}

/** Applies CRDs and webhook configurations and waits until the apiserver serves and calls them. */
export async function installMachineApi(
  kube: KubeClient,
  webhook: { url: string; caBundle: string; name: string },
): Promise<void> {
  for (const crd of crdsFor(webhook.url, webhook.caBundle)) {
    await kube.apply(coreTypes.customResourceDefinition, crd, { fieldManager, force: true })
  }
  for (const definition of KIND_DEFINITIONS) {
    await until(`CRD ${definition.plural} established`, async () => {
      const crd = await kube.get<
        KubeObject & { status?: { conditions?: Array<{ type: string; status: string }> } }
      >(coreTypes.customResourceDefinition, { name: `${definition.plural}.${API_GROUP}` })
      return (
        crd?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ??
        false
      )
    })
  }
  for (const [type, object] of webhookConfigurations(webhook.name, webhook.url, webhook.caBundle)) {
    await kube.apply(type, object, { fieldManager, force: true })
  }
}
