import { describe, expect, it } from 'vitest'
import { formatAwsProviderID, parseAwsProviderID } from '../../../../src/providers/aws/provider-id'

describe('aws providerID', () => {
  it('formats aws:///<zone>/<instance-id>', () => {
    expect(formatAwsProviderID('eu-west-1a', 'i-0123456789abcdef0')).toBe(
      'aws:///eu-west-1a/i-0123456789abcdef0',
    )
  })

  it.each([
    ['aws:///eu-west-1a/i-0123456789abcdef0', 'i-0123456789abcdef0'],
    ['aws://eu-west-1a/i-0123456789abcdef0', 'i-0123456789abcdef0'],
    ['aws:///eu-west-1/i-01234567', 'i-01234567'],
    ['aws:///i-0123456789abcdef0', 'i-0123456789abcdef0'],
    ['kwok://ns/name', undefined],
    ['aws:///eu-west-1a/vol-0123', undefined],
    ['aws:///eu-west-1a/', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('parses %s as %s', (providerID, id) => {
    expect(parseAwsProviderID(providerID)).toBe(id)
  })

  it('round-trips', () => {
    const id = 'i-0abcdef1234567890'
    expect(parseAwsProviderID(formatAwsProviderID('us-east-2c', id))).toBe(id)
  })
})
