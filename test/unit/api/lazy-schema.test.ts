import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { kindDefinition } from '../../../src/api/kinds'
import { lazySchema } from '../../../src/api/shared/lazy-schema'

describe('lazySchema', () => {
  it('builds the schema on the first call only and returns the same one after', () => {
    let builds = 0
    const schema = lazySchema(() => {
      builds += 1
      return z.string()
    })
    expect(builds).toBe(0)
    const first = schema()
    expect(schema()).toBe(first)
    expect(builds).toBe(1)
  })

  it("gives every caller of a kind's schema the same object", () => {
    const machine = kindDefinition('Machine')
    expect(machine.schemas.v1beta1()).toBe(machine.schemas.v1beta1())
    expect(machine.schemas.v1alpha1().shape.kind.value).toBe('Machine')
  })
})
