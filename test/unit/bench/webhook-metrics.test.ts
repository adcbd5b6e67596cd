/** The list-conversion benchmark reads /convert totals out of the webhook's Prometheus text. */
import { describe, expect, it } from 'vitest'
import { convertTotals } from '../../bench/lib/webhook-metrics'

describe('convertTotals', () => {
  it('sums count and sum over the statuses of /convert only', () => {
    const text = [
      '# TYPE machine_api_webhook_request_duration_seconds histogram',
      'machine_api_webhook_request_duration_seconds_bucket{le="0.001",endpoint="/convert",status="200"} 1',
      'machine_api_webhook_request_duration_seconds_sum{endpoint="/convert",status="200"} 0.5',
      'machine_api_webhook_request_duration_seconds_count{endpoint="/convert",status="200"} 3',
      'machine_api_webhook_request_duration_seconds_sum{endpoint="/convert",status="400"} 0.25',
      'machine_api_webhook_request_duration_seconds_count{endpoint="/convert",status="400"} 1',
      'machine_api_webhook_request_duration_seconds_sum{endpoint="/validate",status="200"} 9',
      'machine_api_webhook_request_duration_seconds_count{endpoint="/validate",status="200"} 90',
    ].join('\n')
    expect(convertTotals(text)).toEqual({ calls: 4, seconds: 0.75 })
  })

  it('is zero before the first conversion', () => {
    expect(convertTotals('')).toEqual({ calls: 0, seconds: 0 })
  })
})
