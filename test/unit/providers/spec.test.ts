import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { InvalidConfigurationError } from '../../../src/providers/errors'
import { parseProviderSpec } from '../../../src/providers/spec'

const schema = z.strictObject({
  size: z.number().int().default(8),
  disks: z.array(z.strictObject({ name: z.string() })).default([]),
})

describe('provider spec parsing', () => {
  it('applies defaults', () => {
    expect(parseProviderSpec(schema, {})).toEqual({ size: 8, disks: [] })
  })

  it('throws an invalid configuration naming the first bad field', () => {
    let error: unknown
    try {
      parseProviderSpec(schema, { disks: [{ name: 3 }] })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(InvalidConfigurationError)
    expect((error as InvalidConfigurationError).field).toBe('disks[0].name')
    expect((error as InvalidConfigurationError).reason).toBe('InvalidProviderSpec')
    expect((error as Error).message).toContain('disks[0].name')
  })
})
