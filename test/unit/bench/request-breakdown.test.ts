import { describe, expect, it } from 'vitest'
import type { RequestCounts } from '../../bench/lib/apiserver-metrics-text'
import { formatBreakdown, medianPerUnit } from '../../bench/lib/request-breakdown'

describe('request breakdown over runs', () => {
  it('takes each key’s median per unit, a run without the key counting 0, largest first', () => {
    const runs: RequestCounts[] = [
      { 'get nodes': 34, 'create events': 82, 'list pods': 20 },
      { 'get nodes': 40, 'create events': 82 },
      { 'get nodes': 30, 'create events': 82, 'list pods': 20 },
    ]
    expect(medianPerUnit(runs, 20)).toEqual({
      'create events': 4.1,
      'get nodes': 1.7,
      'list pods': 1,
    })
    expect(Object.keys(medianPerUnit(runs, 20))).toEqual([
      'create events',
      'get nodes',
      'list pods',
    ])
  })

  it('leaves out keys whose median is 0', () => {
    expect(medianPerUnit([{ 'get events': 1 }, {}, {}], 20)).toEqual({})
  })

  it('prints one line, largest first', () => {
    expect(formatBreakdown({ 'create events': 4.1, 'get nodes': 1.7 })).toBe(
      'create events 4.1, get nodes 1.7',
    )
  })
})
