import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { InvalidConfigurationError } from '../../../src/providers/errors'
import { formatPath, parseProviderSpec, providerSpecIssues } from '../../../src/providers/spec'

const schema = z.strictObject({
  size: z.number().int().default(8),
  disks: z.array(z.strictObject({ name: z.string() })).default([]),
})

describe('provider spec parsing', () => {
  it.each([
    [[], ''],
    [['ami', 'id'], 'ami.id'],
    [['blockDevices', 0, 'volume', 'iops'], 'blockDevices[0].volume.iops'],
    [[0], '[0]'],
  ])('formats the path %j as %s', (path, text) => {
    expect(formatPath(path)).toBe(text)
  })

  it('applies defaults', () => {
    expect(parseProviderSpec(schema, {})).toEqual({ size: 8, disks: [] })
  })

  it('lists every issue with its path', () => {
    const issues = providerSpecIssues(schema, { size: 'x', disks: [{}], extra: 1 })
    expect(issues.map((i) => i.path).sort()).toEqual(['', 'disks[0].name', 'size'])
  })

  it('has no issues for a valid spec', () => {
    expect(providerSpecIssues(schema, { size: 1 })).toEqual([])
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
