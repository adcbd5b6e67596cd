/** Field paths as Kubernetes prints them, for admission and for a provider spec's errors alike. */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { checkSchema, joinPath } from '../../../src/api/validation/field-errors'

describe('field errors', () => {
  it.each([
    ['', [], ''],
    ['', ['ami', 'id'], 'ami.id'],
    ['', ['blockDevices', 0, 'volume', 'iops'], 'blockDevices[0].volume.iops'],
    ['', [0], '[0]'],
    ['spec.providerSpec.value', ['ami', 'id'], 'spec.providerSpec.value.ami.id'],
  ])('joins %s and %j as %s', (prefix, segments, path) => {
    expect(joinPath(prefix, segments)).toBe(path)
  })

  it('lists every issue of a value with its path, the object itself as <root>', () => {
    const schema = z.strictObject({
      size: z.number().int(),
      disks: z.array(z.strictObject({ name: z.string() })),
    })
    const paths = checkSchema(schema, { size: 'x', disks: [{}], extra: 1 }, '').map((e) => e.path)
    expect(paths.sort()).toEqual(['<root>', 'disks[0].name', 'size'])
    expect(checkSchema(schema, { size: 1, disks: [] }, 'spec')).toEqual([])
  })
})
