import { describe, expect, it } from 'vitest'
import { machineKeyFromNode } from '../../../../src/api/node-link'
import { checkSchema } from '../../../../src/api/validation/field-errors'
import type { ActuatorMachine } from '../../../../src/providers/actuator'
import type { CapacityRequest } from '../../../../src/providers/capacity'
import { kwokNodeName, kwokProviderID, simulatedNode } from '../../../../src/providers/kwok/node'
import { createKwokProvider } from '../../../../src/providers/kwok/provider'
import { kwokProviderSpecSchema } from '../../../../src/providers/kwok/spec'

const machine: ActuatorMachine = {
  metadata: { name: 'worker-1', namespace: 'team-a', uid: '11111111-2222-3333-4444-555555555555' },
  spec: {},
}

describe('kwok nodes', () => {
  it('names the providerID kwok://<namespace>.<name>', () => {
    expect(kwokProviderID(machine)).toBe('kwok://team-a.worker-1')
  })

  it('gives equally named Machines of two namespaces IDs that differ after the last /', () => {
    // cluster-autoscaler indexes Machines and Nodes by the part after the last '/'.
    const afterLastSlash = (id: string) => id.split('/').at(-1)
    const other = { ...machine, metadata: { ...machine.metadata, namespace: 'team-b' } }
    expect(afterLastSlash(kwokProviderID(machine))).not.toBe(afterLastSlash(kwokProviderID(other)))
  })

  it.each([
    ['team-a', 'worker-1', 'team-a.worker-1'],
    ['a', 'b.c', 'a.b.c'],
  ])('names the Node of %s/%s %s', (namespace, name, node) => {
    expect(kwokNodeName({ ...machine, metadata: { ...machine.metadata, namespace, name } })).toBe(
      node,
    )
  })

  it('builds a Node kwok manages, tied to its Machine by UID, with the labels a kubelet sets and the spec labels', () => {
    const spec = kwokProviderSpecSchema().parse({ nodeLabels: { pool: 'p' }, zone: 'z1' })
    const node = simulatedNode(machine, spec)
    expect(node).toEqual({
      name: 'team-a.worker-1',
      providerID: 'kwok://team-a.worker-1',
      labels: {
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'beta.kubernetes.io/arch': 'amd64',
        pool: 'p',
        'topology.kubernetes.io/zone': 'z1',
        'kubernetes.io/hostname': 'team-a.worker-1',
        type: 'kwok',
        'machine-api.dev/machine-uid': machine.metadata.uid,
        'machine-api.dev/machine-namespace': 'team-a',
      },
      annotations: {
        'kwok.x-k8s.io/node': 'fake',
        'machine-api.dev/simulated': 'true',
        'machine-api.dev/machine-name': 'worker-1',
        'machine-api.dev/machine': 'team-a/worker-1',
      },
      allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
    })
  })

  it('links the Node to its Machine from creation, as the Node -> Machine mapping reads it', () => {
    const node = simulatedNode(machine, kwokProviderSpecSchema().parse({}))
    expect(
      machineKeyFromNode({ metadata: { name: node.name, annotations: node.annotations } }),
    ).toEqual({ kind: 'Machine', namespace: 'team-a', name: 'worker-1' })
  })

  it('labels the Node with the os and arch its class capacity reports for scale from zero', async () => {
    const request: CapacityRequest = {
      providerSpec: {},
      secrets: { readSecret: async () => undefined },
      signal: new AbortController().signal,
    }
    const nodeInfo = (await createKwokProvider().capacity?.(request))?.nodeInfo
    const labels = simulatedNode(machine, kwokProviderSpecSchema().parse({})).labels
    expect(nodeInfo).toEqual({ operatingSystem: 'linux', architecture: 'amd64' })
    expect(labels['kubernetes.io/os']).toBe(nodeInfo?.operatingSystem)
    expect(labels['kubernetes.io/arch']).toBe(nodeInfo?.architecture)
  })

  it('does not let spec labels override the Machine ownership labels', () => {
    const spec = kwokProviderSpecSchema().parse({
      nodeLabels: { 'machine-api.dev/machine-uid': 'forged' },
    })
    expect(simulatedNode(machine, spec).labels['machine-api.dev/machine-uid']).toBe(
      machine.metadata.uid,
    )
  })

  it.each([
    ['a non-quantity cpu', { allocatable: { cpu: 'lots' } }, 'allocatable.cpu'],
    ['an unknown field', { size: 3 }, '<root>'],
    ['a too long label value', { nodeLabels: { a: 'x'.repeat(64) } }, 'nodeLabels.a'],
  ])('rejects %s', (_, spec, path) => {
    expect(checkSchema(kwokProviderSpecSchema(), spec, '').map((i) => i.path)).toContain(path)
  })
})
