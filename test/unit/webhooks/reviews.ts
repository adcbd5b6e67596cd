/** @module Builders for objects and review bodies used by the webhook tests. */
import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { HUB_API_VERSION } from '../../../src/api/group'
import type { ProviderSpecSchemas } from '../../../src/api/shared/provider-spec'
import { silentLogger } from '../../../src/observability/logger'
import { createMetricsRegistry } from '../../../src/observability/metrics'
import type { MachineClassExists } from '../../../src/webhooks/admission/validate'
import { createWebhookApp } from '../../../src/webhooks/app'
import type { JsonPatchOperation } from '../../../src/webhooks/json-patch'
import { createWebhookHandlers } from '../../../src/webhooks/review-endpoints'
import { type ServedApp, servedApp } from '../../harness/served-app'

type Obj = Record<string, unknown>

/** JSON read loosely in assertions: any member may be looked up, and is again a Loose value. */
export type Loose = { [key: string]: Loose } & Record<string, unknown>

/** A stand-in provider with a schema of its own (the real registry is wired by the lead). */
export const testProviderSchemas: ProviderSpecSchemas = (provider) =>
  provider === 'test'
    ? z.object({ instanceType: z.string().min(1), ami: z.string().optional() }).strict()
    : undefined

/** The app production serves, its handlers with silent logging and a fresh registry. */
export function testWebhookApp(
  options: { machineClassExists?: MachineClassExists; limits?: { admissionBytes?: number } } = {},
) {
  const handlers = createWebhookHandlers({
    logger: silentLogger(),
    metrics: createMetricsRegistry({ defaultMetrics: false }),
    providerSchemas: testProviderSchemas,
    ...options,
  })
  const webhook = createWebhookApp(async () => handlers, silentLogger())
  // Loaded before the first request, as the webhook process warms it right after listening.
  void webhook.warm()
  return webhook.app
}

/** The webhook under test: `testWebhookApp` on a loopback server, driven by `request`. */
export function testApp(
  options: { machineClassExists?: MachineClassExists; limits?: { admissionBytes?: number } } = {},
): ServedApp {
  return servedApp(testWebhookApp(options))
}

/** A valid v1beta1 Machine with an inline test provider spec; `spec` overrides fields. */
export function machine(spec: Obj = {}, name = 'm1'): Obj {
  return {
    apiVersion: HUB_API_VERSION,
    kind: 'Machine',
    metadata: { name, namespace: 'default' },
    spec: { providerSpec: { provider: 'test', value: { instanceType: 't3.small' } }, ...spec },
  }
}

/** A valid v1beta1 MachineSet selecting `app=web`. */
export function machineSet(spec: Obj = {}, kind = 'MachineSet'): Obj {
  return {
    apiVersion: HUB_API_VERSION,
    kind,
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: machine().spec },
      ...spec,
    },
  }
}

/** A valid v1beta1 MachineHealthCheck. */
export function healthCheck(spec: Obj = {}): Obj {
  return {
    apiVersion: HUB_API_VERSION,
    kind: 'MachineHealthCheck',
    metadata: { name: 'hc', namespace: 'default' },
    spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
  }
}

/** An AdmissionReview v1 body for `object` (and `oldObject` on UPDATE). */
export function admissionBody(
  object: Obj,
  options: { operation?: string; oldObject?: Obj; kind?: string } = {},
) {
  const kind = options.kind ?? (object.kind as string)
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: randomUUID(),
      kind: { group: 'machine-api.dev', version: 'v1beta1', kind },
      resource: {
        group: 'machine-api.dev',
        version: 'v1beta1',
        resource: `${kind.toLowerCase()}s`,
      },
      operation: options.operation ?? 'CREATE',
      namespace: 'default',
      name: (object.metadata as Obj | undefined)?.name,
      object,
      oldObject: options.oldObject ?? null,
    },
  }
}

/** POSTs a JSON body (or raw string) to the webhook. */
export async function post(app: ServedApp, path: string, body: unknown) {
  const response = await app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as Obj }
}

/** The admission response of a review answer. */
export function admissionResponse(body: Obj) {
  return body.response as {
    uid: string
    allowed: boolean
    status?: { message: string }
    warnings?: string[]
    patch?: string
  }
}

/** Applies a base64 JSON patch from an admission response (add/replace/remove only). */
export function applyPatch(object: Obj, patch: string | undefined): Obj {
  const result = structuredClone(object)
  if (patch === undefined) return result
  const ops = JSON.parse(Buffer.from(patch, 'base64').toString('utf8')) as JsonPatchOperation[]
  for (const op of ops) {
    const keys = op.path
      .split('/')
      .slice(1)
      .map((k) => k.replaceAll('~1', '/').replaceAll('~0', '~'))
    const last = keys.pop() as string
    let target = result as Record<string, unknown>
    for (const key of keys) target = target[key] as Record<string, unknown>
    if (op.op === 'remove') delete target[last]
    else target[last] = op.value
  }
  return result
}
