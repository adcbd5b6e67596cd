/**
 * The orphan sweep over MachineClasses on a real moto server: an instance tagged as ours whose
 * Machine is gone is reported with an Event on its MachineClass, and terminated only when enabled;
 * instances of live Machines are never touched.
 */
import { CoreV1Api } from '@kubernetes/client-node'
import { beforeAll, describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import type { KubeClient } from '../../../src/kube/kube-client'
import { coreTypes } from '../../../src/kube/resource'
import { silentLogger } from '../../../src/observability/logger'
import { awsProviderSpecSchema } from '../../../src/providers/aws/spec'
import { createProviderRegistry } from '../../../src/providers/registry'
import { reconcileMachine } from '../../../src/reconcile/machine/reconcile'
import { sweepOrphanInstances } from '../../../src/reconcile/machine-class/orphan-sweep'
import { waitFor } from '../../harness/kube'
import { useFileNamespace, useMachineApi } from '../../harness/machine-api'
import { machineDeps, machineTestKube, readMachine } from '../machine/fixture'
import { awsCredentialsSecret, useMoto } from '../providers/aws-fixture'
import { newMachine } from '../providers/conformance'

const moto = useMoto()
let kubeClient: KubeClient | undefined
const kube = () => {
  kubeClient ??= machineTestKube(api().kc)
  return kubeClient
}
const api = useMachineApi({
  providerSchemas: (name) => (name === 'aws' ? awsProviderSpecSchema() : undefined),
})
const namespace = useFileNamespace(() => api().kc, 'orphans')

beforeAll(async () => {
  const ns = namespace()
  await kube().create(coreTypes.secret, awsCredentialsSecret(ns))
  const { credentialsSecret: _unused, ...spec } = moto().baseSpec as Record<string, unknown>
  await kube().create(machineApiTypes.machineClass, {
    apiVersion: 'machine-api.dev/v1beta1',
    kind: 'MachineClass',
    metadata: { namespace: ns, name: 'standard' },
    spec: { provider: 'aws', providerSpec: spec, credentialsSecretRef: { name: 'aws' } },
  })
})

describe('orphan sweep', () => {
  it('reports an instance without a Machine, then terminates it when enabled', async () => {
    const ns = namespace()
    const providers = createProviderRegistry([moto().provider])
    // A live Machine with its instance...
    await kube().create(machineApiTypes.machine, {
      apiVersion: 'machine-api.dev/v1beta1',
      kind: 'Machine',
      metadata: { namespace: ns, name: 'alive' },
      spec: { classRef: { name: 'standard' } },
    })
    await reconcileMachine(machineDeps(kube(), providers), {
      kind: 'Machine',
      namespace: ns,
      name: 'alive',
    })
    const alive = await readMachine(kube(), ns, 'alive')
    // ...and an instance launched for a Machine that no longer exists (a create that outlived it).
    const lost = newMachine('lost')
    await moto().provider.actuator.create(moto().context().ctx, lost)

    const options = {
      kube: kube(),
      providers,
      log: silentLogger(),
      fieldManager: 'machine-api-test',
      now: () => new Date(Date.now() + 60 * 60_000),
    }
    const reported = await sweepOrphanInstances({ ...options, terminate: false })
    expect(reported.map((o) => [o.machineUid, o.terminate, o.machineClass])).toEqual([
      [lost.metadata.uid, false, `${ns}/standard`],
    ])
    expect(await moto().tagged(lost.metadata.uid)).toHaveLength(1)
    await waitFor('OrphanFound Event on the MachineClass', async () => {
      const events = await api().kc.makeApiClient(CoreV1Api).listNamespacedEvent({ namespace: ns })
      return events.items.some(
        (e) => e.reason === 'OrphanFound' && e.involvedObject.kind === 'MachineClass',
      )
    })

    const terminated = await sweepOrphanInstances({ ...options, terminate: true })
    expect(terminated.map((o) => o.terminate)).toEqual([true])
    expect(await moto().tagged(lost.metadata.uid)).toEqual([])
    expect(await moto().tagged(alive?.metadata.uid ?? '')).toHaveLength(1)
  })
})
