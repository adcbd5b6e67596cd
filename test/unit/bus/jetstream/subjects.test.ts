import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { keyFromSubject, keySubject, subjectSuffix } from '../../../../src/bus/jetstream/subjects'

describe('JetStream subjects', () => {
  it.each([
    [{ kind: 'Machine', namespace: 'ns', name: 'm-1' }, 'p.Machine.ns.m-1'],
    [{ kind: 'Node', name: 'ip-10-0-0-1.ec2.internal' }, 'p.Node._.ip-10-0-0-1_ec2_internal'],
  ])('maps %j to one subject and back', (key, subject) => {
    expect(keySubject('p', key)).toBe(subject)
    expect(keyFromSubject('p', subject)).toEqual(key)
  })

  it.each(['other.Machine.ns.m', 'p.Machine.ns', 'p.Machine.ns.m.extra', 'p.Machine.n*.m'])(
    'treats %s as no key',
    (subject) => {
      expect(keyFromSubject('p', subject)).toBeUndefined()
    },
  )

  it('round-trips any DNS subdomain name', () => {
    const name = fc.stringMatching(/^[a-z0-9]([a-z0-9.-]{0,30}[a-z0-9])?$/)
    fc.assert(
      fc.property(name, (n) => {
        expect(
          keyFromSubject('p', keySubject('p', { kind: 'K', namespace: 'ns', name: n })),
        ).toEqual({
          kind: 'K',
          namespace: 'ns',
          name: n,
        })
      }),
    )
  })

  it('keeps the object part of a subject for its dead letter', () => {
    expect(subjectSuffix('p', 'p.Machine.ns.m')).toBe('Machine.ns.m')
    expect(subjectSuffix('p', 'other')).toBe('other')
  })
})
