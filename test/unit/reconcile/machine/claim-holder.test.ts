import { describe, expect, it } from 'vitest'
import {
  createClaimHolder,
  formatClaim,
  holderIsDead,
  parseClaim,
  processSelf,
} from '../../../../src/reconcile/machine/claim-holder'

const self = { scope: 'worker-0', pid: 1, incarnation: 'b' }
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
    ['the process this one replaced (same scope and pid, other incarnation)', 'worker-0/1/a', true],
    ['a pid of this scope that no longer runs', 'worker-0/42/a', true],
    ['a pid of this scope that runs (another worker beside this one)', 'worker-0/7/a', false],
    ['this very process', 'worker-0/1/b', false],
    ['a holder in another scope, whose liveness is unknown', 'worker-1/42/a', false],
    ['an unparsable holder', 'garbage', false],
    ['a holder with a bad pid', 'worker-0/x/a', false],
  ])('%s: dead = %s', (_, holder, dead) => {
    expect(holderIsDead(holder, self, running([1, 7]))).toBe(dead)
  })

  it('never declares this process dead', () => {
    const holder = createClaimHolder(processSelf({}))
    expect(holder.isDead(holder.id)).toBe(false)
  })

  it('gives every process its own incarnation', () => {
    expect(processSelf({}).incarnation).not.toBe(processSelf({}).incarnation)
  })

  it('tells two hostNetwork pods on one Node apart by pod UID, though both run as pid 1', () => {
    // Same hostname (the Node's), same pid, separate pid namespaces: without the pod UID each
    // would take the other for its own crashed predecessor.
    const a = createClaimHolder({ ...processSelf({ POD_UID: 'uid-a' }), pid: 1 }, running([1]))
    const b = createClaimHolder({ ...processSelf({ POD_UID: 'uid-b' }), pid: 1 }, running([1]))
    expect(a.isDead(b.id)).toBe(false)
    expect(b.isDead(a.id)).toBe(false)
  })

  it('takes over from the crashed container of its own pod (same pod UID and pid)', () => {
    const crashed = createClaimHolder({ ...processSelf({ POD_UID: 'uid-a' }), pid: 1 })
    const restarted = createClaimHolder({ ...processSelf({ POD_UID: 'uid-a' }), pid: 1 })
    expect(restarted.isDead(crashed.id)).toBe(true)
  })

  it('scopes by hostname where no pod UID is given', () => {
    expect(processSelf({}).scope).not.toBe('')
    expect(processSelf({ POD_UID: 'uid-a' }).scope).toBe('uid-a')
  })
})
