/**
 * The real apiserver calls the real webhook over TLS: invalid Machines are refused naming the
 * field, valid ones are stored with defaults, and kubectl shows and scales the kinds.
 */
import { CustomObjectsApi } from '@kubernetes/client-node'
import { describe, expect, it } from 'vitest'
import { kubectl, waitFor } from '../../harness/kube'
import {
  kubectlApply,
  kubectlError,
  useFileNamespace,
  useMachineApi,
} from '../../harness/machine-api'

const api = useMachineApi()
const ns = useFileNamespace(() => api().kc, 'api-admission')

function machine(name: string, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'Machine',
    metadata: { name, namespace: ns() },
    spec: { providerSpec: { provider: 'test', value: { instanceType: 't3.small' } }, ...spec },
  }
}

function machineSet(name: string, spec: Record<string, unknown> = {}) {
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineSet',
    metadata: { name, namespace: ns() },
    spec: { template: { spec: machine('x').spec }, ...spec },
  }
}

async function getJson(resource: string, name: string) {
  const { stdout } = await kubectl(['get', resource, name, '-n', ns(), '-o', 'json'])
  return JSON.parse(stdout) as { spec: Record<string, unknown>; metadata: Record<string, unknown> }
}

describe('kubectl apply of an invalid Machine is refused, naming the field', () => {
  it.each([
    ['negative drain timeout', { nodeDrainTimeout: '-5m' }, 'spec.nodeDrainTimeout'],
    [
      'bad provider spec field',
      { providerSpec: { provider: 'test', value: { instanceType: 5 } } },
      'spec.providerSpec.value.instanceType',
    ],
    [
      'unknown provider',
      { providerSpec: { provider: 'nope', value: {} } },
      'spec.providerSpec.provider',
    ],
    ['both provider sources', { classRef: { name: 'small' } }, 'spec'],
  ])('%s', async (_situation, spec, field) => {
    const stderr = await kubectlError(kubectlApply([machine('bad', spec)]))
    expect(stderr).toContain(`${field}:`)
  })

  it('refuses changing the providerID once set', async () => {
    await kubectlApply([machine('pid', { providerID: 'test:///one' })])
    const stderr = await kubectlError(kubectlApply([machine('pid', { providerID: 'test:///two' })]))
    expect(stderr).toContain('providerID')
    expect(stderr).toMatch(/immutable/)
  })
})

describe('kubectl apply of invalid disruption budgets is refused, naming the field', () => {
  const deployment = (budgets: unknown[]) => ({
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineDeployment',
    metadata: { name: 'budgets', namespace: ns() },
    spec: { template: { spec: machine('x').spec }, disruption: { budgets } },
  })

  it.each([
    [
      'a cron schedule croner refuses',
      [{ machines: 0, schedule: '61 9 * * *', duration: '1h' }],
      'spec.disruption.budgets[0].schedule: Invalid value: "61 9 * * *"',
    ],
    [
      'a schedule without a duration (the CRD rule)',
      [{ machines: 0, schedule: '0 9 * * *' }],
      'schedule and duration must be set together',
    ],
    ['a percentage over 100', [{ machines: '150%' }], 'spec.disruption.budgets[0].machines'],
  ])('%s', async (_situation, budgets, message) => {
    const stderr = await kubectlError(kubectlApply([deployment(budgets)]))
    expect(stderr).toContain(message)
  })

  it('explain shows what a budget is', async () => {
    const { stdout } = await kubectl([
      'explain',
      'machinedeployments.spec.disruption.budgets',
      '--api-version=machine-api.dev/v1beta1',
    ])
    expect(stdout).toContain('most restrictive')
    expect(stdout).toContain('schedule')
  })
})

describe('valid objects are stored with defaults', () => {
  it('a Machine gets nodeDeletionTimeout', async () => {
    await kubectlApply([machine('good')])
    expect((await getJson('machines.machine-api.dev', 'good')).spec).toMatchObject({
      nodeDeletionTimeout: '10s',
    })
  })

  it('a MachineSet without selector gets one tied to its template, and one replica', async () => {
    await kubectlApply([machineSet('pool')])
    const spec = (await getJson('machinesets.machine-api.dev', 'pool')).spec
    expect(spec.selector).toEqual({ matchLabels: { 'machine-api.dev/set-name': 'pool' } })
    expect(spec.template).toMatchObject({
      metadata: { labels: { 'machine-api.dev/set-name': 'pool' } },
    })
    expect(spec.replicas).toBe(1)
    expect(spec.deletePolicy).toBe('Random')
  })

  it('a Machine referencing a missing MachineClass is stored with a warning', async () => {
    const { stderr } = await kubectlApply([
      machine('classy', { providerSpec: undefined, classRef: { name: 'later' } }),
    ])
    expect(stderr).toContain('MachineClass "later" does not exist')
  })
})

describe('kubectl is the UI', () => {
  it('explain machines.spec shows the zod descriptions', async () => {
    const stdout = await waitFor('explain to know the CRD', async () => {
      const { stdout } = await kubectl([
        'explain',
        'machines.spec',
        '--api-version=machine-api.dev/v1beta1',
      ])
      return stdout.includes('classRef') ? stdout : undefined
    })
    expect(stdout).toContain('The desired state of a Machine.')
    expect(stdout).toContain('The MachineClass that holds the provider and its spec.')
  })

  it('get machines shows the printer columns', async () => {
    await kubectlApply([machine('cols', { providerID: 'test:///cols' })])
    const { stdout } = await kubectl(['get', 'machines.machine-api.dev', '-n', ns()])
    expect(stdout.split('\n')[0]).toMatch(
      /^NAME\s+PHASE\s+NODE\s+ZONE\s+PROVIDERID\s+UPTODATE\s+AGE/,
    )
    expect(stdout).toContain('test:///cols')
  })

  it('short names and the category work', async () => {
    const { stdout } = await kubectl(['get', 'ma,ms,md,mhc,mc', '-n', ns()])
    expect(stdout).toContain('machine.machine-api.dev/good')
    const byCategory = await kubectl(['get', 'machine-api', '-n', ns()])
    expect(byCategory.stdout).toContain('machineset.machine-api.dev/pool')
  })

  it('scale machineset changes spec.replicas', async () => {
    await kubectlApply([machineSet('scaled', { replicas: 1 })])
    await kubectl(['scale', 'machinesets.machine-api.dev', 'scaled', '-n', ns(), '--replicas=3'])
    expect((await getJson('machinesets.machine-api.dev', 'scaled')).spec.replicas).toBe(3)
    const scale = (await api().kc.makeApiClient(CustomObjectsApi).getNamespacedCustomObjectScale({
      group: 'machine-api.dev',
      version: 'v1beta1',
      namespace: ns(),
      plural: 'machinesets',
      name: 'scaled',
    })) as { spec: { replicas: number } }
    expect(scale.spec.replicas).toBe(3)
  })
})
