/** `plan`'s replacement preview: which Machines go now, why, and what the others wait for. */
import { describe, expect, it } from 'vitest'
import {
  previewDeploymentReplacements,
  renderReplacements,
} from '../../../../src/cli/plan/replacements'
import type { MachineObject, MachineSetObject } from '../../../../src/reconcile/machine-set/types'
import { deployment, now, setFor } from '../../reconcile/machine-deployment/builders'
import { machine } from '../../reconcile/machine-set/builders'

const hour = 3_600_000

/** `count` ready Machines of `set`, created `ageHours` before `now`. */
function machinesOf(set: MachineSetObject, count: number, ageHours = 1): MachineObject[] {
  return Array.from({ length: count }, (_, i) => {
    const m = machine(`${set.metadata.name}-${i}`, { ready: true, owner: set.metadata.uid ?? '' })
    m.metadata.creationTimestamp = new Date(now.getTime() - (ageHours + i) * hour).toISOString()
    return m
  })
}

describe('previewDeploymentReplacements', () => {
  it('a rollout: one old Machine goes now (maxSurge 1), the others wait for the bounds', () => {
    const sets = [setFor('a', 1, 3), setFor('b', 2, 0)]
    const md = deployment(3, 'b')
    const previews = previewDeploymentReplacements(
      md,
      sets,
      machinesOf(sets[0] as MachineSetObject, 3),
      now,
    )
    expect(previews.map((p) => [p.reason, p.now])).toEqual([
      ['Rollout', true],
      ['Rollout', false],
      ['Rollout', false],
    ])
    expect(previews[1]?.waitsFor).toMatch(/maxSurge/)
  })

  it('a budget window holds every one, naming the budget and until when', () => {
    const sets = [setFor('a', 1, 2), setFor('b', 2, 0)]
    const md = deployment(2, 'b', {
      disruption: { budgets: [{ machines: 0, schedule: '0 9 * * *', duration: '8h' }] },
    })
    const previews = previewDeploymentReplacements(
      md,
      sets,
      machinesOf(sets[0] as MachineSetObject, 2),
      now,
    )
    expect(previews.every((p) => !p.now)).toBe(true)
    expect(previews[0]?.waitsFor).toBe(
      'spec.disruption.budgets[0] (0 Machines, window "0 9 * * *" for 8h) until 2026-12-01T17:00:00.000Z',
    )
    expect(renderReplacements(previews)[1]).toContain('Rollout')
  })

  it('expired Machines of the current set: the oldest first, the rest wait for the allowance', () => {
    const set = setFor('b', 1, 3)
    set.spec.template.spec.expireAfter = '2h'
    const md = deployment(3, 'b')
    md.spec.template.spec.expireAfter = '2h'
    // Ages 2h, 3h, 4h: all expired; maxSurge 1 -> one replacement at a time.
    const previews = previewDeploymentReplacements(md, [set], machinesOf(set, 3, 2), now)
    expect(previews.map((p) => [p.machine, p.reason, p.now])).toEqual([
      [`${set.metadata.name}-2`, 'Expiry', true],
      [`${set.metadata.name}-1`, 'Expiry', false],
      [`${set.metadata.name}-0`, 'Expiry', false],
    ])
    expect(previews[1]?.waitsFor).toContain('no budget for Expiry (maxSurge 1 at a time)')
  })

  it('nothing to replace: no lines', () => {
    const set = setFor('b', 1, 2)
    const previews = previewDeploymentReplacements(
      deployment(2, 'b'),
      [set],
      machinesOf(set, 2),
      now,
    )
    expect(previews).toEqual([])
    expect(renderReplacements(previews)).toEqual([])
  })
})
