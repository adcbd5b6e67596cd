import { describe, expect, it } from 'vitest'
import { pickNewestImage, toEc2Filters } from '../../../../src/providers/aws/resolve'
import { machineTags, tagValue } from '../../../../src/providers/aws/tags'

describe('aws lookups', () => {
  it.each([
    ['none', [], undefined],
    [
      'the newest by creation date',
      [
        { ImageId: 'ami-old', CreationDate: '2025-01-01T00:00:00.000Z' },
        { ImageId: 'ami-new', CreationDate: '2026-01-01T00:00:00.000Z' },
      ],
      'ami-new',
    ],
    [
      'an available one over a newer pending one',
      [
        { ImageId: 'ami-a', CreationDate: '2025-01-01T00:00:00.000Z', State: 'available' as const },
        { ImageId: 'ami-b', CreationDate: '2026-01-01T00:00:00.000Z', State: 'pending' as const },
      ],
      'ami-a',
    ],
    [
      'the lower id on a tie',
      [
        { ImageId: 'ami-b', CreationDate: '2026-01-01T00:00:00.000Z' },
        { ImageId: 'ami-a', CreationDate: '2026-01-01T00:00:00.000Z' },
      ],
      'ami-a',
    ],
  ])('picks %s image', (_, images, id) => {
    expect(pickNewestImage(images)?.ImageId).toBe(id)
  })

  it('turns spec filters into EC2 filters', () => {
    expect(toEc2Filters([{ name: 'tag:tier', values: ['a', 'b'] }])).toEqual([
      { Name: 'tag:tier', Values: ['a', 'b'] },
    ])
  })

  it('lets machine-api tags win over user tags of the same key', () => {
    const tags = machineTags(
      { name: 'm', namespace: 'n', uid: 'u' },
      { ownerId: 'o', userTags: { env: 'prod' } },
    )
    expect(tagValue(tags, 'machine-api.dev/machine-uid')).toBe('u')
    expect(tagValue(tags, 'env')).toBe('prod')
    expect(tagValue(tags, 'missing')).toBeUndefined()
  })
})
