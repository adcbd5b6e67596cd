/**
 * Issue 33 through the real apiserver and the real webhook: each hostile input is refused with a
 * 4xx that names its field (never a 500 from conversion), a status write with a providerStatus
 * nested too deep is refused by the status webhook, and a v1alpha1 LIST of the namespace keeps
 * working afterwards.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { KubeApiError } from '../../../src/kube/errors'
import { createHttpTransport } from '../../../src/kube/http-transport'
import { builtInProviderSpecSchemas } from '../../../src/providers/schemas'
import { useFileNamespace, useMachineApi } from '../../harness/machine-api'

const api = useMachineApi({ providerSchemas: builtInProviderSpecSchemas })
const ns = useFileNamespace(() => api().kc, 'api-hostile')
let transport: ReturnType<typeof createHttpTransport> | undefined
const kube = () => {
  transport ??= createHttpTransport(api().kc, () => {})
  return transport
}
afterAll(() => transport?.close())

type Obj = Record<string, unknown>
const plural = (kind: string) => `${kind.toLowerCase()}s`
const base = (version: string, kind: string) =>
  `/apis/machine-api.dev/${version}/namespaces/${ns()}/${plural(kind)}`

async function send(method: 'POST' | 'PATCH', path: string, body: unknown, contentType?: string) {
  try {
    await kube().request({
      method,
      path,
      body,
      verb: method.toLowerCase(),
      resource: 'machines',
      ...(contentType ? { contentType } : {}),
    })
    return { code: 200, message: '' }
  } catch (error) {
    if (!(error instanceof KubeApiError)) throw error
    return { code: error.code, message: error.message }
  }
}

function create(version: string, kind: string, name: string, spec: unknown) {
  const object: Obj = { apiVersion: `machine-api.dev/${version}`, kind, metadata: { name } }
  if (spec !== undefined) object.spec = spec
  return send('POST', base(version, kind), object)
}

const kwok = (value: Obj = {}, extra: Obj = {}) => ({
  providerSpec: { provider: 'kwok', value },
  ...extra,
})
const labels = { app: 'web' }

describe('hostile input through the apiserver', () => {
  it.each([
    ['a string', 'x'],
    ['a list', []],
    ['no spec at all', undefined],
  ])('a v1alpha1 Machine whose spec is %s gets a 4xx naming spec', async (_, spec) => {
    const answer = await create('v1alpha1', 'Machine', 'alpha-spec', spec)
    expect(answer.code).toBeGreaterThanOrEqual(400)
    expect(answer.code).toBeLessThan(500)
    expect(answer.message).toMatch(/spec/)
  })

  it.each([
    [
      'Machine',
      'a kwok quantity "1.2.3"',
      kwok({ allocatable: { cpu: '1.2.3' } }),
      'spec.providerSpec.value.allocatable.cpu',
    ],
    [
      'Machine',
      'a kwok zone with spaces',
      kwok({ zone: 'eu west' }),
      'spec.providerSpec.value.zone',
    ],
    [
      'Machine',
      'a drain timeout of 720h',
      kwok({}, { nodeDrainTimeout: '720h' }),
      'spec.nodeDrainTimeout',
    ],
    [
      'MachineSet',
      'a selector of DoesNotExist alone',
      {
        replicas: 0,
        selector: { matchExpressions: [{ key: 'x', operator: 'DoesNotExist' }] },
        template: { metadata: { labels }, spec: kwok() },
      },
      'spec.selector',
    ],
    [
      'MachineDeployment',
      'a selector key "bad key!"',
      {
        selector: { matchLabels: { 'bad key!': 'web' } },
        template: { metadata: { labels: { 'bad key!': 'web' } }, spec: kwok() },
      },
      'spec.selector.matchLabels',
    ],
    [
      'MachineHealthCheck',
      'an unhealthy condition timeout of 720h',
      {
        selector: { matchLabels: labels },
        unhealthyConditions: [{ type: 'Ready', status: 'False', timeout: '720h' }],
      },
      'spec.unhealthyConditions[0].timeout',
    ],
    [
      'MachineHealthCheck',
      "a Machine condition on the health check's own HealthCheckSucceeded",
      {
        selector: { matchLabels: labels },
        unhealthyMachineConditions: [
          { type: 'HealthCheckSucceeded', status: 'False', timeout: '5m' },
        ],
      },
      'spec.unhealthyMachineConditions[0].type',
    ],
    [
      'MachineHealthCheck',
      'a Secret as external remediation template',
      {
        selector: { matchLabels: labels },
        remediation: { externalTemplateRef: { apiVersion: 'v1', kind: 'Secret', name: 's' } },
      },
      'spec.remediation.externalTemplateRef.apiVersion',
    ],
  ])('%s with %s is refused with a 422 naming the field', async (kind, _, spec, field) => {
    const answer = await create('v1beta1', kind, 'hostile', spec)
    expect(answer.code).toBe(422)
    expect(answer.message).toContain(`${field}:`)
  })

  it('a MachineSet with a string selector is refused, not given a default selector', async () => {
    const spec = {
      replicas: 0,
      selector: 'app=web',
      template: { metadata: { labels }, spec: kwok() },
    }
    const answer = await create('v1beta1', 'MachineSet', 'string-selector', spec)
    expect(answer.code).toBeGreaterThanOrEqual(400)
    expect(answer.code).toBeLessThan(500)
    expect(answer.message).toMatch(/spec\.selector/)
  })

  it('a status with a providerStatus nested 200 levels deep is refused, and v1alpha1 LISTs still work', async () => {
    expect((await create('v1beta1', 'Machine', 'deep-status', kwok())).code).toBe(200)
    let providerStatus: unknown = { leaf: true }
    for (let i = 0; i < 200; i++) providerStatus = { a: providerStatus }
    const answer = await send(
      'PATCH',
      `${base('v1beta1', 'Machine')}/deep-status/status`,
      { status: { providerStatus } },
      'application/merge-patch+json',
    )
    expect(answer.code).toBe(422)
    expect(answer.message).toContain('status.providerStatus.a.a')
    const list = await kube().request<{ items: unknown[] }>({
      method: 'GET',
      path: base('v1alpha1', 'Machine'),
      verb: 'list',
      resource: 'machines',
    })
    expect(list.items.length).toBeGreaterThan(0)
  })
})
