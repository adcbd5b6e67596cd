import { describe, expect, it } from 'vitest'
import {
  asRunInstancesAnswer,
  filterMatches,
  launchedIds,
  pruneInstances,
  readFilters,
  withFilters,
} from '../../../harness/moto/instance-xml'

function instance(id: string, token: string): string {
  // Nested items (block devices, tags) as moto writes them, and a self-closing set.
  return `<item><blockDeviceMapping><item><deviceName>/dev/sda1</deviceName></item></blockDeviceMapping><clientToken>${token}</clientToken><groupSet/><tagSet><item><key>k</key><value>v</value></item></tagSet><instanceId>${id}</instanceId></item>`
}

function answer(...reservations: string[][]): string {
  const items = reservations.map(
    (ids, r) =>
      `<item><reservationId>r-${r}</reservationId><groupSet/><instancesSet>${ids.map((id) => instance(id, `tok-${id}`)).join('')}</instancesSet></item>`,
  )
  return `<?xml version="1.0"?>\n<DescribeInstancesResponse><reservationSet>${items.join('')}</reservationSet></DescribeInstancesResponse>`
}

describe('pruneInstances', () => {
  it.each([
    ['keeps everything', () => true, ['i-a1', 'i-b1', 'i-b2'], 0],
    ['drops one of a reservation', (x: string) => !x.includes('i-b1'), ['i-a1', 'i-b2'], 1],
    ['drops a reservation left empty', (x: string) => !x.includes('i-a1'), ['i-b1', 'i-b2'], 1],
    ['drops everything', () => false, [], 3],
  ])('%s', (_, keep, left, removed) => {
    const out = pruneInstances(answer(['i-a1'], ['i-b1', 'i-b2']), keep)
    expect(out.removed).toBe(removed)
    expect(launchedIds(out.body)).toEqual(left)
    expect(out.body.match(/<reservationId>/g)?.length ?? 0).toBe(
      new Set(left.map((id) => id[2])).size,
    )
    expect(out.body).toContain('</reservationSet></DescribeInstancesResponse>')
  })
})

describe('asRunInstancesAnswer', () => {
  it('turns the first reservation into a RunInstances answer', () => {
    const body = asRunInstancesAnswer(answer(['i-a1']))
    expect(body).toMatch(
      /^<\?xml .*\n<RunInstancesResponse [^>]*><requestId>fault-proxy<\/requestId><reservationId>r-0<\/reservationId>/,
    )
    expect(body).toContain(
      '<instanceId>i-a1</instanceId></item></instancesSet></RunInstancesResponse>',
    )
    expect(
      asRunInstancesAnswer(
        '<DescribeInstancesResponse><reservationSet/></DescribeInstancesResponse>',
      ),
    ).toBeUndefined()
  })
})

describe('filters', () => {
  it('reads and renumbers Filter.N', () => {
    const params = new URLSearchParams(
      'Action=DescribeInstances&Filter.1.Name=client-token&Filter.1.Value.1=t-*&Filter.2.Name=instance-state-name&Filter.2.Value.1=running&Filter.2.Value.2=pending',
    )
    const filters = readFilters(params)
    expect(filters).toEqual([
      { name: 'client-token', values: ['t-*'] },
      { name: 'instance-state-name', values: ['running', 'pending'] },
    ])
    expect(withFilters(params, filters.slice(1)).toString()).toBe(
      'Action=DescribeInstances&Filter.1.Name=instance-state-name&Filter.1.Value.1=running&Filter.1.Value.2=pending',
    )
  })

  it.each([
    ['machine-api-uid-*', 'machine-api-uid-1a2b3c4d', true],
    ['machine-api-uid-*', 'machine-api-other-1a2b3c4d', false],
    ['a?c', 'abc', true],
    ['a.c', 'abc', false],
    ['exact', 'exact', true],
  ])('%s matches %s: %s', (pattern, value, matches) => {
    expect(filterMatches(pattern, value)).toBe(matches)
  })
})
