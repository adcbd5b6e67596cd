import { describe, expect, it } from 'vitest'
import { machineApiTypes } from '../../../src/api/resource-types'
import { nodeToHealthCheckMapper } from '../../../src/bus/node-health-check-mapper'
import type { ChangeType } from '../../../src/bus/watch-source'
import type { KubeClient } from '../../../src/kube/kube-client'
import type { KubeObject } from '../../../src/kube/resource'

const check = (name: string, pool: string): KubeObject => ({
  metadata: { namespace: 'ns', name },
  spec: { selector: { matchLabels: { pool } } },
})
const machine = { metadata: { namespace: 'ns', name: 'm', labels: { pool: 'a' } } }
const node = { metadata: { name: 'n', annotations: { 'machine-api.dev/machine': 'ns/m' } } }

/** A client answering the health-check list with `checks` and any GET with the Machine, counting GETs. */
function answering(checks: KubeObject[]) {
  let gets = 0
  const kube = {
    async list() {
      return { items: checks, continue: undefined, resourceVersion: '1' }
    },
    async get() {
      gets++
      return machine
    },
  } as unknown as KubeClient
  return { kube, gets: () => gets }
}

describe('nodeToHealthCheckMapper', () => {
  const mapper = nodeToHealthCheckMapper(machineApiTypes)
  const both = [check('a', 'a'), check('b', 'b')]
  it.each<[string, KubeObject[], ChangeType, string[], number]>([
    ['no health check in the namespace: reads nothing', [], 'MODIFIED', [], 0],
    ['a changed Node: reads its Machine, keeps the selecting checks', both, 'MODIFIED', ['a'], 1],
    ['a listed Node: every check of the namespace, no read', both, 'SYNC', ['a', 'b'], 0],
  ])('%s', async (_, checks, change, expected, gets) => {
    const fake = answering(checks)
    const keys = await mapper.map(node, fake.kube, change)
    expect(keys.map((k) => k.name)).toEqual(expected)
    expect(fake.gets()).toBe(gets)
  })

  it('maps a Node without a Machine back-reference to nothing', async () => {
    const fake = answering([check('a', 'a')])
    expect(await mapper.map({ metadata: { name: 'n' } }, fake.kube, 'MODIFIED')).toEqual([])
  })
})
