import { describe, expect, it } from 'vitest'
import { ec2NoticeSettings } from '../../../src/cli/entry/ec2-notices'

const queueUrl = 'https://sqs.eu-west-1.amazonaws.com/123456789012/machine-api-notices'

describe('the EC2 notice source settings', () => {
  it('is off unless EC2_NOTICES_QUEUE_URL is set', () => {
    expect(ec2NoticeSettings({})).toBeUndefined()
    expect(ec2NoticeSettings({ EC2_NOTICES_QUEUE_URL: ' ' })).toBeUndefined()
  })

  it('takes the region from the queue URL unless AWS_REGION names one', () => {
    expect(ec2NoticeSettings({ EC2_NOTICES_QUEUE_URL: queueUrl })).toMatchObject({
      queueUrl,
      region: 'eu-west-1',
    })
    expect(
      ec2NoticeSettings({ EC2_NOTICES_QUEUE_URL: queueUrl, AWS_REGION: 'us-east-1' })?.region,
    ).toBe('us-east-1')
  })

  it('names the variable when the URL is not a queue or no region is known', () => {
    expect(() => ec2NoticeSettings({ EC2_NOTICES_QUEUE_URL: 'machine-api-notices' })).toThrow(
      /^EC2_NOTICES_QUEUE_URL: /,
    )
    expect(() =>
      ec2NoticeSettings({ EC2_NOTICES_QUEUE_URL: 'http://127.0.0.1:5000/123456789012/q' }),
    ).toThrow(/^AWS_REGION: /)
  })
})
