/**
 * cluster-autoscaler's clusterapi provider against machine-api, with every controller running and
 * the kwok provider, through the API requests that provider makes and under the shipped
 * `machine-api:cluster-autoscaler` role (never as admin): scale a MachineDeployment up from zero
 * knowing only its MachineClass's capacity, scale it down by marking a Machine, and see a rollout
 * (and `cluster.x-k8s.io/paused`) through the keys the autoscaler reads.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANNOTATIONS } from '../../../src/api/group'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { kwokProviderSpecSchema } from '../../../src/providers/kwok/spec'
import type { MachineDeploymentObject } from '../../../src/reconcile/machine-deployment/machine-sets'
import { testNamespace, waitFor } from '../../harness/kube'
import { useFileNamespace, useMachineApi } from '../../harness/machine-api'
import { fullStackKube, startFullStack } from '../full-stack/fixture'
import { deploymentState, isRunningMachine, machinesOf } from '../full-stack/objects'
import { rolledOut } from '../machine-deployment/drive'
import {
  bindAutoscalerRole,
  canScaleFromZero,
  capacityKey,
  isRollingOut,
  kubectlAs,
  normalizedProviderID,
} from './autoscaler-role'

const api = useMachineApi({
  providerSchemas: (name) => (name === 'kwok' ? kwokProviderSpecSchema() : undefined),
})
const ns = useFileNamespace(() => api().kc, 'autoscaler')
let kube: KubeClient
let asAutoscaler: (args: string[]) => Promise<string>
let unbind: () => Promise<void>

beforeAll(async () => {
  kube = fullStackKube(api().kc)
  const role = await bindAutoscalerRole(ns())
  unbind = role.unbind
  asAutoscaler = kubectlAs(role.user, ns())
})
afterAll(async () => {
  await unbind?.()
  kube.close()
})

const minKey = ANNOTATIONS.autoscalerMinSize
const maxKey = ANNOTATIONS.autoscalerMaxSize

function kwokClass(name: string, allocatable: Record<string, string>): KubeObject {
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineClass',
    metadata: { namespace: ns(), name },
    spec: { provider: 'kwok', providerSpec: { allocatable } },
  }
}

function nodeGroup(
  name: string,
  replicas: number,
  className: string,
  extra: object = {},
): KubeObject {
  const labels = { pool: name }
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineDeployment',
    metadata: { namespace: ns(), name, annotations: { [minKey]: '0', [maxKey]: '4' } },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { classRef: { name: className }, nodeDeletionTimeout: '10s' },
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      ...extra,
    },
  }
}

async function deployment(name: string): Promise<MachineDeploymentObject> {
  return (await deploymentState(kube, ns(), name)).md
}

/** The group's replicas through its scale subresource, as the autoscaler reads them. */
async function scaleReplicas(name: string): Promise<number> {
  const out = await asAutoscaler([
    'get',
    'machinedeployments.machine-api.dev',
    name,
    '--subresource=scale',
    '-o',
    'json',
  ])
  return (JSON.parse(out) as { spec: { replicas?: number } }).spec.replicas ?? 0
}

/** Resizes the group the way the autoscaler's SetSize does: a merge patch of /scale. */
async function setSize(name: string, replicas: number): Promise<void> {
  await asAutoscaler([
    'patch',
    'machinedeployments.machine-api.dev',
    name,
    '--subresource=scale',
    '--type=merge',
    '-p',
    JSON.stringify({ spec: { replicas } }),
  ])
}

/** Marks a Machine for deletion the way the autoscaler does: get, add the annotation, update. */
async function markForDeletion(machine: string): Promise<void> {
  const obj = JSON.parse(
    await asAutoscaler(['get', 'machines.machine-api.dev', machine, '-o', 'json']),
  )
  obj.metadata.annotations = {
    ...obj.metadata.annotations,
    [ANNOTATIONS.deleteMachine]: new Date().toString(),
  }
  const dir = mkdtempSync(join(tmpdir(), 'autoscaler-'))
  try {
    writeFileSync(join(dir, 'machine.json'), JSON.stringify(obj))
    await asAutoscaler(['replace', '-f', join(dir, 'machine.json')])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The deployment's MachineSets as the autoscaler lists them: by the deployment-name label. */
async function setsByDeploymentLabel(name: string) {
  const out = await asAutoscaler([
    'get',
    'machinesets.machine-api.dev',
    '-l',
    `cluster.x-k8s.io/deployment-name=${name}`,
    '-o',
    'json',
  ])
  return (JSON.parse(out) as { items: Parameters<typeof isRollingOut>[0] }).items
}

/** What the rollout wait looks at in one MachineSet. */
function setSummary(set: Parameters<typeof isRollingOut>[0][number]) {
  return {
    name: set.metadata.name,
    revision: set.metadata.annotations?.['machinedeployment.clusters.x-k8s.io/revision'],
    replicas: set.spec?.replicas,
    statusReplicas: set.status?.replicas,
  }
}

async function runningMachines(count: number) {
  return await waitFor(
    `${count} Running Machines`,
    async () => {
      const machines = await machinesOf(kube, ns())
      return machines.length === count && machines.every(isRunningMachine) && machines
    },
    { timeoutMs: 90_000 },
  )
}

describe('cluster-autoscaler (clusterapi provider, CAPI_GROUP=machine-api.dev)', () => {
  it('scales a MachineDeployment up from zero on its class capacity alone, and down by a marked Machine', async () => {
    await startFullStack(kube, ns())
    await kube.create(
      machineApiTypes.machineClass,
      kwokClass('small', { cpu: '2', memory: '4Gi', pods: '20' }),
    )
    await kube.create(machineApiTypes.machineDeployment, nodeGroup('zero', 0, 'small'))

    // Nobody wrote a capacity annotation: the controllers copy them from the class's status.
    const md = await waitFor('capacity annotations from the class', async () => {
      const md = await deployment('zero')
      return canScaleFromZero(md) && md
    })
    expect(md.metadata.annotations).toMatchObject({
      [capacityKey('cpu')]: '2',
      [capacityKey('memory')]: '4Gi',
      [capacityKey('maxPods')]: '20',
      [capacityKey('labels')]: 'kubernetes.io/arch=amd64,kubernetes.io/os=linux',
    })
    expect(await scaleReplicas('zero')).toBe(0)

    await setSize('zero', 2)
    const machines = await runningMachines(2)
    // Each Node maps back to exactly one Machine by the normalized provider ID and the annotation.
    const nodes = (await kube.list(coreTypes.node)).items
    for (const machine of machines) {
      const id = machine.spec?.providerID ?? ''
      const matching = nodes.filter(
        (n) =>
          normalizedProviderID(String((n.spec as { providerID?: string })?.providerID ?? '')) ===
          normalizedProviderID(id),
      )
      expect(matching).toHaveLength(1)
      expect(matching[0]?.metadata?.annotations?.[ANNOTATIONS.machine]).toBe(
        `${ns()}/${machine.metadata.name}`,
      )
    }

    const victim = machines[1]?.metadata.name ?? ''
    await markForDeletion(victim)
    await setSize('zero', 1)
    const [survivor] = await runningMachines(1)
    expect(survivor?.metadata.name).toBe(machines[0]?.metadata.name)
    expect(await scaleReplicas('zero')).toBe(1)
  })

  it('tells equally named Machines of two namespaces apart by the provider ID after its last /', async () => {
    const other = await testNamespace(api().kc, 'autoscaler-b')
    await startFullStack(kube, ns())
    await startFullStack(kube, other)
    const machine = (namespace: string): KubeObject => ({
      apiVersion: 'machine-api.dev/v1beta1',
      kind: 'Machine',
      metadata: { namespace, name: 'worker' },
      spec: { providerSpec: { provider: 'kwok', value: {} }, nodeDeletionTimeout: '10s' },
    })
    await kube.create(machineApiTypes.machine, machine(ns()))
    await kube.create(machineApiTypes.machine, machine(other))
    const ids = await waitFor('both Machines Running', async () => {
      const both = [...(await machinesOf(kube, ns())), ...(await machinesOf(kube, other))]
      return (
        both.length === 2 &&
        both.every(isRunningMachine) &&
        both.map((m) => m.spec?.providerID ?? '')
      )
    })
    expect(new Set(ids.map(normalizedProviderID)).size).toBe(2)
  })

  it('shows a rollout through the deployment-name label and revisions, and honours cluster.x-k8s.io/paused', async () => {
    await startFullStack(kube, ns())
    await kube.create(machineApiTypes.machineClass, kwokClass('large', { cpu: '4', memory: '8Gi' }))
    await kube.create(
      machineApiTypes.machineClass,
      kwokClass('medium', { cpu: '3', memory: '6Gi' }),
    )
    await kube.create(machineApiTypes.machineDeployment, nodeGroup('web', 2, 'medium'))
    await waitFor('the first rollout', async () => rolledOut(await deployment('web')), {
      timeoutMs: 90_000,
    })
    const first = await setsByDeploymentLabel('web')
    expect(first).toHaveLength(1)
    expect(first[0]?.metadata.annotations?.['machinedeployment.clusters.x-k8s.io/revision']).toBe(
      '1',
    )
    expect(isRollingOut(first)).toBe(false)

    // Paused by the Cluster API annotation: a new template is not rolled out.
    await kube.mergePatch(
      machineApiTypes.machineDeployment,
      { namespace: ns(), name: 'web' },
      {
        metadata: { annotations: { 'cluster.x-k8s.io/paused': '' } },
        spec: { template: { spec: { classRef: { name: 'large' } } } },
      },
    )
    await waitFor('the Paused condition', async () => {
      const md = await deployment('web')
      const paused = md.status?.conditions?.find((c) => c.type === 'Paused')
      return md.status?.observedGeneration === md.metadata.generation && paused?.status === 'True'
    })
    expect(await setsByDeploymentLabel('web')).toHaveLength(1)

    // Unpaused, with new Machines needing 5 s of readiness: the autoscaler sees the rollout.
    await kube.mergePatch(
      machineApiTypes.machineDeployment,
      { namespace: ns(), name: 'web' },
      {
        metadata: { annotations: { 'cluster.x-k8s.io/paused': null } },
        spec: { minReadySeconds: 5 },
      },
    )
    const during = await waitFor(
      'the rollout as the autoscaler sees it',
      async () => {
        const sets = await setsByDeploymentLabel('web')
        if (sets.length === 2 && isRollingOut(sets)) return sets
        // Thrown, not returned: a timeout then reports the last state the autoscaler saw.
        throw new Error(`sets seen: ${JSON.stringify(sets.map(setSummary))}`)
      },
      { timeoutMs: 90_000 },
    )
    expect(
      during
        .map((s) => s.metadata.annotations?.['machinedeployment.clusters.x-k8s.io/revision'])
        .sort(),
    ).toEqual(['1', '2'])
    await waitFor(
      'the capacity of the new class',
      async () => (await deployment('web')).metadata.annotations?.[capacityKey('cpu')] === '4',
    )

    await waitFor('the rollout to finish', async () => rolledOut(await deployment('web')), {
      timeoutMs: 90_000,
    })
    await waitFor(
      'the autoscaler to see it finished',
      async () => !isRollingOut(await setsByDeploymentLabel('web')),
    )
  })
})
