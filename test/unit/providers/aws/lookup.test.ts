import { describe, expect, it } from 'vitest'
import { clientTokenPattern } from '../../../../src/providers/aws/lookup'
import { clientTokenFor } from '../../../../src/providers/aws/run-instances-input'

/** An EC2 filter value with `*` wildcards as a RegExp. */
const asRegExp = (pattern: string) =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`)

describe('clientTokenPattern', () => {
  const uid = '3f1c2a9e-0b1d-4c55-9a7e-1d2e3f4a5b6c'
  const offering = (
    instanceType: string,
    subnetId: string,
    capacityType: 'spot' | 'on-demand',
  ) => ({
    instanceType,
    subnetId,
    zone: 'eu-west-1a',
    capacityType,
  })

  it.each([
    offering('m7i.large', 'subnet-1', 'on-demand'),
    offering('m6i.large', 'subnet-2', 'spot'),
  ])(
    'matches the token of every offering the Machine launches ($instanceType $capacityType)',
    (o) => {
      expect(clientTokenFor(uid, o)).toMatch(asRegExp(clientTokenPattern(uid)))
    },
  )

  it("matches no other Machine's token", () => {
    const other = clientTokenFor(
      '3f1c2a9e-0b1d-4c55-9a7e-1d2e3f4a5b6d',
      offering('m7i.large', 'subnet-1', 'on-demand'),
    )
    expect(other).not.toMatch(asRegExp(clientTokenPattern(uid)))
  })
})
