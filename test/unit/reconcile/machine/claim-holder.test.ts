import { describe, expect, it } from 'vitest'
import {
  formatClaim,
  holderIsDead,
  parseClaim,
  processClaimHolder,
} from '../../../../src/reconcile/machine/claim-holder'

const self = { host: 'worker-0', pid: 1, incarnation: 'b' }
const running = (pids: number[]) => (pid: number) => pids.includes(pid)

describe('create claim holder', () => {
  it('round-trips when and who', () => {
    const at = new Date('2026-12-02T12:00:00.000Z')
    expect(parseClaim(formatClaim(at, 'worker-0/1/b'))).toEqual({ at, holder: 'worker-0/1/b' })
  })

  it('reads a bare timestamp of an older version as a claim without holder', () => {
    expect(parseClaim('2026-12-02T12:00:00.000Z')).toEqual({
      at: new Date('2026-12-02T12:00:00.000Z'),
    })
  })

  it.each([
    ['the process this one replaced (same host and pid, other incarnation)', 'worker-0/1/a', true],
    ['a pid of this host that no longer runs', 'worker-0/42/a', true],
    ['a pid of this host that runs (another worker beside this one)', 'worker-0/7/a', false],
    ['this very process', 'worker-0/1/b', false],
    ['a holder on another host, whose liveness is unknown', 'worker-1/42/a', false],
    ['an unparsable holder', 'garbage', false],
    ['a holder with a bad pid', 'worker-0/x/a', false],
  ])('%s: dead = %s', (_, holder, dead) => {
    expect(holderIsDead(holder, self, running([1, 7]))).toBe(dead)
  })

  it('never declares this process dead', () => {
    const holder = processClaimHolder()
    expect(holder.isDead(holder.id)).toBe(false)
  })
})
