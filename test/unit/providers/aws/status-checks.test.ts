import type { InstanceStatus } from '@aws-sdk/client-ec2'
import { describe, expect, it } from 'vitest'
import { statusVerdict } from '../../../../src/providers/aws/status-checks'

const providerID = 'aws:///us-east-1a/i-0123456789abcdef0'
type Summary = InstanceStatus['SystemStatus']
const ok: Summary = { Status: 'ok', Details: [{ Name: 'reachability', Status: 'passed' }] }
const impaired = (since?: string): Summary => ({
  Status: 'impaired',
  Details: [
    {
      Name: 'reachability',
      Status: 'failed',
      ...(since ? { ImpairedSince: new Date(since) } : {}),
    },
  ],
})

describe('statusVerdict', () => {
  it.each<[string, Summary, Summary, ReturnType<typeof statusVerdict>]>([
    ['both checks ok: passed', ok, ok, { providerID, verdict: 'passed' }],
    [
      'the system check impaired: failed, since EC2 says',
      impaired('2026-12-04T10:00:00Z'),
      ok,
      { providerID, verdict: 'failed', failed: ['system'], since: '2026-12-04T10:00:00.000Z' },
    ],
    [
      'the instance check impaired without ImpairedSince: failed, no time',
      ok,
      impaired(),
      { providerID, verdict: 'failed', failed: ['instance'], since: undefined },
    ],
    [
      'both impaired: both named, the earlier start',
      impaired('2026-12-04T10:05:00Z'),
      impaired('2026-12-04T10:00:00Z'),
      {
        providerID,
        verdict: 'failed',
        failed: ['system', 'instance'],
        since: '2026-12-04T10:00:00.000Z',
      },
    ],
    ['still initializing: no verdict', ok, { Status: 'initializing' }, undefined],
    ['insufficient data: no verdict', { Status: 'insufficient-data' }, ok, undefined],
    [
      'a stopped instance (not-applicable): no verdict',
      { Status: 'not-applicable' },
      { Status: 'not-applicable' },
      undefined,
    ],
  ])('%s', (_name, system, instance, expected) => {
    const status: InstanceStatus = {
      InstanceId: 'i-0123456789abcdef0',
      SystemStatus: system,
      InstanceStatus: instance,
    }
    expect(statusVerdict(status, providerID)).toEqual(expected)
  })
})
