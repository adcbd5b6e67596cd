/**
 * The mappers that read the apiserver, against a real one: Node -> Machine by the providerID-hash
 * label (one filtered list, not all Machines) and by annotation (no call at all), and
 * Machine -> the selecting objects. Widgets play Machines and health checks, so the test does not
 * depend on the machine-api CRDs.
 */
import type { KubeConfig } from '@kubernetes/client-node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANNOTATIONS, LABELS } from '../../../src/api/group'
import { providerIdHash } from '../../../src/api/node-link'
import { nodeToMachineMapper, selectorMapper } from '../../../src/bus/event-mapping'
import type { KubeClient } from '../../../src/kube/kube-client'
import { testKubeConfig, testNamespace } from '../../harness/kube'
import { ensureWidgetCrd, testKube, widgetType } from '../runtime/widget'

let kc: KubeConfig
let kube: KubeClient
let calls: string[]

beforeAll(async () => {
  kc = testKubeConfig()
  kube = testKube(kc)
  await ensureWidgetCrd(kube)
})

afterAll(() => kube.close())

/** A client that records the verbs it is asked for. */
function recording(inner: KubeClient): KubeClient {
  calls = []
  return {
    ...inner,
    list: (type, options) => {
      calls.push(`list ${type.plural} ${options?.labelSelector ?? ''}`)
      return inner.list(type, options)
    },
  }
}

describe('event mapping against the apiserver', () => {
  it('finds the Machine of a new Node by the providerID-hash label, with one filtered list', async () => {
    const namespace = await testNamespace(kc, 'map-node')
    const providerId = 'kwok://map-node-1'
    await kube.create(widgetType, {
      metadata: {
        namespace,
        name: 'machine-a',
        labels: { [LABELS.providerIdHash]: providerIdHash(providerId) },
      },
      spec: {},
    })
    await kube.create(widgetType, {
      metadata: {
        namespace,
        name: 'machine-b',
        labels: { [LABELS.providerIdHash]: providerIdHash('kwok://other') },
      },
      spec: {},
    })
    const node = { metadata: { name: 'map-node-1' }, spec: { providerID: providerId } }
    const keys = await nodeToMachineMapper(widgetType, 'Node').map(node, recording(kube))
    expect(keys).toEqual([{ kind: 'Widget', namespace, name: 'machine-a' }])
    expect(calls).toEqual([`list widgets ${LABELS.providerIdHash}=${providerIdHash(providerId)}`])
  })

  it('finds the Machine of a linked Node from its annotation without any call', async () => {
    const node = { metadata: { name: 'n', annotations: { [ANNOTATIONS.machine]: 'ns/machine-a' } } }
    const keys = await nodeToMachineMapper(widgetType, 'Node').map(node, recording(kube))
    expect(keys).toEqual([{ kind: 'Widget', namespace: 'ns', name: 'machine-a' }])
    expect(calls).toEqual([])
  })

  it('finds the objects whose selector matches a changed object', async () => {
    const namespace = await testNamespace(kc, 'map-selector')
    const check = (name: string, selector: object) =>
      kube.create(widgetType, { metadata: { namespace, name }, spec: { selector } })
    await check('workers', { matchLabels: { pool: 'workers' } })
    await check('zone-a', { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] })
    await check('gpu', { matchLabels: { pool: 'gpu' } })
    const machine = { metadata: { namespace, name: 'm', labels: { pool: 'workers', zone: 'a' } } }
    const keys = await selectorMapper('Machine', widgetType).map(machine, kube)
    expect(keys.map((k) => k.name).sort()).toEqual(['workers', 'zone-a'])
  })
})
