/**
 * What cluster-autoscaler's clusterapi provider relies on that its runs in
 * cluster-autoscaler.test.ts do not reach, through the API requests it makes under the shipped
 * `machine-api:cluster-autoscaler` role (never as admin), with every controller running and the
 * kwok provider: provider IDs of equally named Machines, and `cluster.x-k8s.io/paused`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import type { KubeObject } from '../../../src/kube/resource'
import { kwokProviderSpecSchema } from '../../../src/providers/kwok/spec'
import { bindAutoscalerRole } from '../../harness/autoscaler/identity'
import { testNamespace, waitFor } from '../../harness/kube'
import { useFileNamespace, useMachineApi } from '../../harness/machine-api'
import { fullStackKube, startFullStack } from '../full-stack/fixture'
import { deploymentState, isRunningMachine, machinesOf } from '../full-stack/objects'
import { rolledOut } from '../machine-deployment/drive'
import { kubectlAs, normalizedProviderID } from './autoscaler-role'
import { kwokClass, nodeGroup } from './node-groups'

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
  return (
    JSON.parse(out) as { items: Array<{ metadata: { annotations?: Record<string, string> } }> }
  ).items
}

describe('cluster-autoscaler (clusterapi provider, CAPI_GROUP=machine-api.dev)', () => {
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

  it('holds a template change back while the MachineDeployment carries cluster.x-k8s.io/paused', async () => {
    await startFullStack(kube, ns())
    for (const [name, cpu] of [
      ['medium', '3'],
      ['large', '4'],
    ] as const) {
      await kube.create(
        machineApiTypes.machineClass,
        kwokClass(ns(), name, { cpu, memory: `${2 * Number(cpu)}Gi` }),
      )
    }
    await kube.create(
      machineApiTypes.machineDeployment,
      nodeGroup(ns(), 'web', { className: 'medium', replicas: 2, min: 0, max: 4 }),
    )
    const deployment = async () => (await deploymentState(kube, ns(), 'web')).md
    await waitFor('the first rollout', async () => rolledOut(await deployment()), {
      timeoutMs: 90_000,
    })
    const first = await setsByDeploymentLabel('web')
    expect(first).toHaveLength(1)
    expect(first[0]?.metadata.annotations?.['machinedeployment.clusters.x-k8s.io/revision']).toBe(
      '1',
    )

    await kube.mergePatch(
      machineApiTypes.machineDeployment,
      { namespace: ns(), name: 'web' },
      {
        metadata: { annotations: { 'cluster.x-k8s.io/paused': '' } },
        spec: { template: { spec: { classRef: { name: 'large' } } } },
      },
    )
    await waitFor('the Paused condition', async () => {
      const md = await deployment()
      const paused = md.status?.conditions?.find((c) => c.type === 'Paused')
      return md.status?.observedGeneration === md.metadata.generation && paused?.status === 'True'
    })
    expect(await setsByDeploymentLabel('web')).toHaveLength(1)
  })
})
