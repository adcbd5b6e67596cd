/** /validate: every rule denies with the field path; valid objects pass; missing classes warn. */
import { describe, expect, it } from 'vitest'
import {
  admissionBody,
  admissionResponse,
  healthCheck,
  machine,
  machineSet,
  post,
  testApp,
} from './reviews'

async function validate(
  object: Record<string, unknown>,
  options: Parameters<typeof admissionBody>[1] = {},
) {
  const answer = await post(testApp(), '/validate', admissionBody(object, options))
  expect(answer.status).toBe(200)
  return admissionResponse(answer.body)
}

describe('/validate denies with the field path', () => {
  it.each([
    ['negative drain timeout', machine({ nodeDrainTimeout: '-5m' }), 'spec.nodeDrainTimeout'],
    [
      'bad provider spec field',
      machine({ providerSpec: { provider: 'test', value: { instanceType: 3 } } }),
      'spec.providerSpec.value.instanceType',
    ],
    [
      'unknown provider spec field',
      machine({ providerSpec: { provider: 'test', value: { instanceType: 'a', cpu: 1 } } }),
      'spec.providerSpec.value',
    ],
    [
      'unknown provider',
      machine({ providerSpec: { provider: 'nope', value: {} } }),
      'spec.providerSpec.provider',
    ],
    ['both provider sources', machine({ classRef: { name: 'c' } }), 'spec'],
    ['no provider source', machine({ providerSpec: undefined }), 'spec'],
    [
      'reserved taint',
      machine({ taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] }),
      'spec.taints[0].key',
    ],
    [
      'selector not matching template',
      machineSet({ selector: { matchLabels: { app: 'db' } } }),
      'spec.template.metadata.labels',
    ],
    ['empty set selector', machineSet({ selector: {} }), 'spec.selector'],
    [
      'bad template provider spec',
      machineSet({
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { providerSpec: { provider: 'test', value: {} } },
        },
      }),
      'spec.template.spec.providerSpec.value.instanceType',
    ],
    [
      'percent above 100',
      machineSet({ strategy: { rollingUpdate: { maxSurge: '150%' } } }, 'MachineDeployment'),
      'spec.strategy.rollingUpdate.maxSurge',
    ],
    [
      'maxSurge and maxUnavailable both 0',
      machineSet(
        { strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: '0%' } } },
        'MachineDeployment',
      ),
      'spec.strategy.rollingUpdate.maxUnavailable',
    ],
    [
      'empty health check selector',
      healthCheck({ selector: { matchLabels: {} } }),
      'spec.selector',
    ],
    [
      'short node startup timeout',
      healthCheck({ nodeStartupTimeout: '10s' }),
      'spec.nodeStartupTimeout',
    ],
    ['bad maxUnhealthy', healthCheck({ maxUnhealthy: 'half' }), 'spec.maxUnhealthy'],
    [
      'an interruption surge that is no count',
      machineSet({ interruption: { maxSurge: 'lots' } }),
      'spec.interruption.maxSurge',
    ],
    [
      'an unknown rebalance action',
      machineSet({ interruption: { rebalanceRecommendation: 'Drain' } }, 'MachineDeployment'),
      'spec.interruption.rebalanceRecommendation',
    ],
  ])('%s', async (_situation, object, path) => {
    const response = await validate(object)
    expect(response.allowed).toBe(false)
    expect(response.status?.message).toContain(`${path}:`)
  })

  it('reports every error, not only the first', async () => {
    const response = await validate(machine({ nodeDrainTimeout: 'x', nodeDeletionTimeout: '-1s' }))
    expect(response.status?.message).toContain('spec.nodeDrainTimeout:')
    expect(response.status?.message).toContain('spec.nodeDeletionTimeout:')
  })
})

describe('/validate on update', () => {
  it('refuses changing a providerID once set', async () => {
    const old = machine({ providerID: 'aws:///i-1' })
    const response = await validate(machine({ providerID: 'aws:///i-2' }), {
      operation: 'UPDATE',
      oldObject: old,
    })
    expect(response.status?.message).toContain('spec.providerID: Forbidden')
  })

  it('allows setting a providerID for the first time', async () => {
    const response = await validate(machine({ providerID: 'aws:///i-1' }), {
      operation: 'UPDATE',
      oldObject: machine(),
    })
    expect(response.allowed).toBe(true)
  })

  it('does not block an update that leaves the spec alone (e.g. removing a finalizer)', async () => {
    const stale = machine({ providerSpec: { provider: 'retired', value: {} } })
    const response = await validate(stale, { operation: 'UPDATE', oldObject: stale })
    expect(response.allowed).toBe(true)
  })

  it('refuses changing a set selector', async () => {
    const changed = machineSet({
      selector: { matchLabels: { app: 'web', tier: 'a' } },
      template: { metadata: { labels: { app: 'web', tier: 'a' } }, spec: machine().spec },
    })
    const response = await validate(changed, { operation: 'UPDATE', oldObject: machineSet() })
    expect(response.status?.message).toContain('spec.selector: Forbidden')
  })
})

describe('/validate allows', () => {
  it.each([
    ['a valid Machine', machine()],
    ['a Machine with a class', machine({ providerSpec: undefined, classRef: { name: 'small' } })],
    ['a valid MachineSet', machineSet()],
    [
      'a MachineSet replacing on rebalance recommendations, 2 at a time',
      machineSet({ interruption: { rebalanceRecommendation: 'Replace', maxSurge: 2 } }),
    ],
    [
      'a valid MachineDeployment',
      machineSet(
        { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%' } } },
        'MachineDeployment',
      ),
    ],
    ['a valid MachineHealthCheck', healthCheck({ maxUnhealthy: 2, nodeStartupTimeout: '0' })],
    [
      'a valid MachineClass',
      {
        apiVersion: 'machine-api.dev/v1beta1',
        kind: 'MachineClass',
        metadata: { name: 'c' },
        spec: { provider: 'test', providerSpec: { instanceType: 'm5.large' } },
      },
    ],
  ])('%s', async (_situation, object) => {
    const response = await validate(object)
    expect(response.status?.message).toBeUndefined()
    expect(response.allowed).toBe(true)
  })

  it('DELETE without looking at the object', async () => {
    const response = await validate(machine({ nodeDrainTimeout: 'bad' }), { operation: 'DELETE' })
    expect(response.allowed).toBe(true)
  })
})

describe('/validate MachineClass references', () => {
  const withClass = machine({ providerSpec: undefined, classRef: { name: 'small' } })

  it('warns, without denying, when the class does not exist yet', async () => {
    const app = testApp({ machineClassExists: async () => false })
    const response = admissionResponse(
      (await post(app, '/validate', admissionBody(withClass))).body,
    )
    expect(response.allowed).toBe(true)
    expect(response.warnings?.[0]).toContain(
      'spec.classRef.name: MachineClass "small" does not exist',
    )
  })

  it('does not warn when the class exists or the lookup fails', async () => {
    for (const exists of [
      async () => true,
      async () => {
        throw new Error('apiserver down')
      },
    ]) {
      const app = testApp({ machineClassExists: exists })
      const response = admissionResponse(
        (await post(app, '/validate', admissionBody(withClass))).body,
      )
      expect(response.warnings).toBeUndefined()
    }
  })
})
