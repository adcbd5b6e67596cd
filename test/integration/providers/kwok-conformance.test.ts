/**
 * The provider conformance suite for `kwok`, against the real control plane (kwok keeps the
 * simulated Nodes Ready), plus what only a simulated provider promises.
 */
import { CoreV1Api } from '@kubernetes/client-node'
import { beforeAll, describe, expect, it } from 'vitest'
import { createKubeClient } from '../../../src/kube/dynamic-client'
import { createHttpTransport } from '../../../src/kube/http-transport'
import type { KubeClient } from '../../../src/kube/kube-client'
import { readOnce } from '../../../src/kube/read-once'
import { coreTypes } from '../../../src/kube/resource'
import { kubeNodeWriter } from '../../../src/providers/kwok/kube-node-writer'
import { kwokKeys, kwokNodeName, simulatedNode } from '../../../src/providers/kwok/node'
import type { NodeWriter } from '../../../src/providers/kwok/node-writer'
import { createKwokProvider } from '../../../src/providers/kwok/provider'
import { kwokProviderSpecSchema } from '../../../src/providers/kwok/spec'
import type { Provider } from '../../../src/providers/registry'
import { testKubeConfig, waitFor } from '../../harness/kube'
import { readNodeReady } from '../../harness/nodes'
import { actuatorConformance, deleteUntilDone, newMachine, recorded } from './conformance'
import { testContext } from './context'

let core: CoreV1Api
let provider: Provider
let nodes: NodeWriter
const spec = { nodeLabels: { pool: 'conformance' }, zone: 'zone-a' }

beforeAll(() => {
  core = testKubeConfig().makeApiClient(CoreV1Api)
  const kc = testKubeConfig()
  nodes = kubeNodeWriter(createKubeClient(createHttpTransport(kc, () => {})))
  provider = createKwokProvider()
})

async function countNodes(uid: string): Promise<number> {
  const nodes = await core.listNode({ labelSelector: `${kwokKeys.machineUid}=${uid}` })
  return nodes.items.filter((n) => !n.metadata?.deletionTimestamp).length
}

actuatorConformance('kwok', () => ({
  actuator: provider.actuator,
  context: () => testContext({ providerSpec: spec }).ctx,
  countInstances: countNodes,
  providerIDPattern: /^kwok:\/\/conformance\.conf-[0-9a-f]{8}$/,
}))

describe('kwok provider', () => {
  it('registers a Node with its providerID that kwok turns Ready', async () => {
    const machine = newMachine('ready')
    const { ctx, recorded: out } = testContext({ providerSpec: spec })
    const created = await provider.actuator.create(ctx, machine)
    const name = created.providerStatus.nodeName as string
    const node = await core.readNode({ name })
    expect(node.spec?.providerID).toBe(created.providerID)
    expect(node.metadata?.labels).toMatchObject({
      pool: 'conformance',
      'topology.kubernetes.io/zone': 'zone-a',
    })
    expect(node.metadata?.annotations?.['kwok.x-k8s.io/node']).toBe('fake')
    expect(created.providerStatus.simulated).toBe(true)
    // The Machine controller records InstanceCreated; the provider adds nothing of its own.
    expect(out.events).toEqual([])
    await waitFor(`node ${name} Ready`, async () => (await readNodeReady(core, name)) === 'True')
    const updated = await provider.actuator.update(ctx, recorded(machine, created))
    expect(updated.addresses).toContainEqual({ type: 'Hostname', address: name })
    await deleteUntilDone({ actuator: provider.actuator, context: () => ctx }, machine)
  })

  it("reads its Node through the context's client: one read serves a reconcile's calls", async () => {
    const machine = newMachine('shared')
    const plain = createKubeClient(createHttpTransport(testKubeConfig(), () => {}))
    let nodeGets = 0
    const counting: KubeClient = {
      ...plain,
      get: (type, ref) => {
        if (type === coreTypes.node) nodeGets++
        return plain.get(type, ref)
      },
    }
    const created = await provider.actuator.create(testContext({ providerSpec: spec }).ctx, machine)
    // One reconcile: exists, update, then the Node link's own read, all over one read-once client.
    const kube = readOnce(counting)
    const { ctx } = testContext({ providerSpec: spec, kube })
    expect(await provider.actuator.exists(ctx, recorded(machine, created))).toBe(true)
    await provider.actuator.update(ctx, recorded(machine, created))
    expect(await kube.get(coreTypes.node, { name: kwokNodeName(machine) })).toBeDefined()
    expect(nodeGets).toBe(1)
    const fresh = () => testContext({ providerSpec: spec }).ctx
    await deleteUntilDone({ actuator: provider.actuator, context: fresh }, machine)
  })

  it('leaves one Node when 8 creates of one Machine run at once', async () => {
    const machine = newMachine('race')
    const { ctx } = testContext({ providerSpec: spec })
    const results = await Promise.all(
      Array.from({ length: 8 }, () => provider.actuator.create(ctx, machine)),
    )
    expect(new Set(results.map((r) => r.providerID)).size).toBe(1)
    expect(await countNodes(machine.metadata.uid)).toBe(1)
    await deleteUntilDone({ actuator: provider.actuator, context: () => ctx }, machine)
  })

  it('never adopts or deletes a same-named Node that belongs to an earlier Machine', async () => {
    const { ctx } = testContext({ providerSpec: spec })
    const old = newMachine('reused')
    await provider.actuator.create(ctx, old)
    const successor = { ...old, metadata: { ...old.metadata, uid: crypto.randomUUID() } }
    expect(await provider.actuator.exists(ctx, successor)).toBe(false)
    await expect(provider.actuator.create(ctx, successor)).rejects.toMatchObject({
      reason: 'NodeNameInUse',
    })
    expect(await provider.actuator.delete(ctx, successor)).toEqual({ done: true })
    expect(await countNodes(old.metadata.uid)).toBe(1)
    await deleteUntilDone({ actuator: provider.actuator, context: () => ctx }, old)
  })

  it('keeps the earlier kwok://<namespace>/<name> ID of a Node made before the ID changed', async () => {
    const machine = newMachine('legacy')
    const { ctx } = testContext({ providerSpec: spec })
    const legacyID = `kwok://${machine.metadata.namespace}/${machine.metadata.name}`
    const node = simulatedNode(machine, kwokProviderSpecSchema().parse(spec))
    await nodes.createNode({ ...node, providerID: legacyID })
    expect(await provider.actuator.exists(ctx, machine)).toBe(true)
    expect((await provider.actuator.create(ctx, machine)).providerID).toBe(legacyID)
    const legacy = { ...machine, spec: { providerID: legacyID } }
    expect((await provider.actuator.update(ctx, legacy)).providerID).toBe(legacyID)
    await deleteUntilDone({ actuator: provider.actuator, context: () => ctx }, legacy)
    expect(await countNodes(machine.metadata.uid)).toBe(0)
  })

  it('rejects an invalid spec with the field to fix', async () => {
    const { ctx } = testContext({ providerSpec: { allocatable: { cpu: 'lots' } } })
    await expect(provider.actuator.create(ctx, newMachine('bad'))).rejects.toMatchObject({
      name: 'InvalidConfigurationError',
      field: 'allocatable.cpu',
    })
  })
})
