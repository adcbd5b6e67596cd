/**
 * Fixing a MachineClass un-fails its standalone Machines (issue 28): on moto, a Machine of a class
 * whose AMI does not exist fails with InvalidAMI, and the class edit that names a real AMI reaches
 * it through the bus (MachineClass -> the Machines that failed on it), not the sweep, which this
 * test holds off for 10 minutes: it launches one instance. A Failed Machine a MachineSet controls
 * stays Failed, for its set to replace.
 */
import { describe, expect, it, onTestFinished } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { Machine } from '../../../src/api/v1beta1/machine'
import { coreTypes, type KubeObject } from '../../../src/kube/resource'
import { awsProviderSpecSchema } from '../../../src/providers/aws/spec'
import { createProviderRegistry } from '../../../src/providers/registry'
import { waitFor } from '../../harness/kube'
import { awsCredentialsSecret, useMoto } from '../providers/aws-fixture'
import { machineDeps, readMachine, startMachineController, useMachineTestApi } from './fixture'

const moto = useMoto()
const { namespace, kube } = useMachineTestApi('class-fix', { aws: awsProviderSpecSchema() })

function providerSpec(ami: string): Record<string, unknown> {
  const { credentialsSecret: _ignored, ...spec } = moto().baseSpec
  return { ...spec, ami: { id: ami } }
}

function machine(ns: string, name: string, owner?: { name: string; uid: string }): Machine {
  const ownerReferences = owner
    ? [{ apiVersion: 'machine-api.dev/v1beta1', kind: 'MachineSet', controller: true, ...owner }]
    : undefined
  return {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'Machine',
    metadata: { namespace: ns, name, ...(ownerReferences ? { ownerReferences } : {}) },
    spec: { classRef: { name: 'broken' }, nodeDeletionTimeout: '10s' },
  } as Machine
}

describe('a MachineClass fixed after its Machines failed', () => {
  it('provisions its standalone Failed Machine at once and leaves a set-owned one Failed', async () => {
    const ns = namespace()
    await kube().create(coreTypes.secret, awsCredentialsSecret(ns))
    await kube().create(machineApiTypes.machineClass, {
      apiVersion: 'machine-api.dev/v1beta1',
      kind: 'MachineClass',
      metadata: { namespace: ns, name: 'broken' },
      spec: {
        provider: 'aws',
        providerSpec: providerSpec('ami-0000000000000dead'),
        credentialsSecretRef: { name: 'aws' },
      },
    })
    // A set no controller runs here: it only owns its Machine.
    const labels = { set: 'owner' }
    const set = await kube().create(machineApiTypes.machineSet, {
      apiVersion: 'machine-api.dev/v1beta1',
      kind: 'MachineSet',
      metadata: { namespace: ns, name: 'owner' },
      spec: {
        replicas: 0,
        selector: { matchLabels: labels },
        template: { metadata: { labels }, spec: { classRef: { name: 'broken' } } },
      },
    })
    const deps = machineDeps(kube(), createProviderRegistry([moto().provider]))
    // Only the bus's mapping can bring the fix in time: the sweep waits 10 minutes.
    onTestFinished(await startMachineController(deps, ns, { sweepPeriodMs: 600_000 }))
    await kube().create(machineApiTypes.machine, machine(ns, 'solo'))
    const owner = { name: 'owner', uid: (set as KubeObject).metadata?.uid ?? '' }
    await kube().create(machineApiTypes.machine, machine(ns, 'owned', owner))

    for (const name of ['solo', 'owned']) {
      const failed = await waitFor(`${name} Failed`, async () => {
        const m = await readMachine(kube(), ns, name)
        return m?.status?.phase === 'Failed' && m
      })
      expect(failed.status?.failureReason).toBe('InvalidAMI')
      expect(failed.status?.failureClassGeneration).toBe(1)
    }

    await kube().mergePatch(
      machineApiTypes.machineClass,
      { namespace: ns, name: 'broken' },
      { spec: { providerSpec: providerSpec(moto().amiId) } },
    )
    const solo = await waitFor(
      'solo provisioned',
      async () => {
        const m = await readMachine(kube(), ns, 'solo')
        return m?.status?.phase === 'Provisioned' && m
      },
      { timeoutMs: 20_000 },
    )
    expect(solo.status?.failureReason).toBeUndefined()
    expect(solo.status?.failureClassGeneration).toBeUndefined()
    expect(await moto().tagged(solo.metadata.uid ?? '')).toHaveLength(1)
    const owned = await readMachine(kube(), ns, 'owned')
    expect(owned?.status?.phase).toBe('Failed')
    expect(await moto().tagged(owned?.metadata.uid ?? '')).toEqual([])
  })
})
