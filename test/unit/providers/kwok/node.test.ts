import { describe, expect, it } from 'vitest'
import { machineKeyFromNode } from '../../../../src/api/node-link'
import { labelValueError } from '../../../../src/api/shared/label-syntax'
import { checkSchema } from '../../../../src/api/validation/field-errors'
import type { ActuatorMachine } from '../../../../src/providers/actuator'
import type { CapacityRequest } from '../../../../src/providers/capacity'
import {
  kwokHostnameLabel,
  kwokNodeName,
  kwokProviderID,
  simulatedNode,
} from '../../../../src/providers/kwok/node'
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

  it('gives a 58-character Machine in a 5-character namespace a hostname label the apiserver accepts', () => {
    const long = {
      ...machine,
      metadata: { ...machine.metadata, namespace: 'ns-ab', name: 'w'.repeat(58) },
    }
    const node = simulatedNode(long, kwokProviderSpecSchema().parse({}))
    const hostname = node.labels['kubernetes.io/hostname'] ?? ''
    expect(node.name).toHaveLength(64)
    expect(labelValueError(hostname)).toBeUndefined()
    expect(hostname).toMatch(/^ns-ab\.w+-[0-9a-f]{10}$/)
  })

  it.each([
    ['a name that fits is kept', 'team-a.worker-1'],
    ['64 characters are shortened', `a.${'b'.repeat(62)}`],
    ['a cut that would end on a dot ends on a letter', `${'a'.repeat(51)}.${'b'.repeat(40)}`],
  ])('hostname label: %s', (_, name) => {
    const label = kwokHostnameLabel(name)
    expect(labelValueError(label)).toBeUndefined()
    if (name.length <= 63) expect(label).toBe(name)
    else expect(kwokHostnameLabel(`${name}x`)).not.toBe(label)
  })

  it.each([
    ['decimal and binary suffixes', { cpu: '500m', memory: '1.5Gi', pods: '110' }],
    ['an exponent', { cpu: '1e3', memory: '16G', pods: '.5k' }],
  ])('accepts quantities with %s', (_, allocatable) => {
    expect(checkSchema(kwokProviderSpecSchema(), { allocatable }, '')).toEqual([])
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
    ['a quantity with two dots', { allocatable: { cpu: '1.2.3' } }, 'allocatable.cpu'],
    ['a negative quantity', { allocatable: { memory: '-1Gi' } }, 'allocatable.memory'],
    ['a label key with a space', { nodeLabels: { 'bad key!': 'x' } }, 'nodeLabels.bad key!'],
    ['a label value with a space', { nodeLabels: { a: 'b c' } }, 'nodeLabels.a'],
    ['a zone with spaces', { zone: 'eu west 1' }, 'zone'],
  ])('rejects %s', (_, spec, path) => {
    expect(checkSchema(kwokProviderSpecSchema(), spec, '').map((i) => i.path)).toContain(path)
  })
})
