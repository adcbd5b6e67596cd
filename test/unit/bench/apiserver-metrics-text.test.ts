import { describe, expect, it } from 'vitest'
import {
  byVerb,
  conversionCalls,
  diffCounts,
  isCollectionRead,
  perUnit,
  requestCounts,
  totalOf,
} from '../../bench/lib/apiserver-metrics-text'

const scrape = `# HELP apiserver_request_total [STABLE] Counter of apiserver requests
# TYPE apiserver_request_total counter
apiserver_request_total{code="201",component="apiserver",dry_run="",group="machine-api.dev",resource="machines",scope="resource",subresource="",verb="POST",version="v1beta1"} 20
apiserver_request_total{code="409",component="apiserver",dry_run="",group="machine-api.dev",resource="machines",scope="resource",subresource="",verb="POST",version="v1beta1"} 2
apiserver_request_total{code="200",component="apiserver",dry_run="",group="machine-api.dev",resource="machines",scope="resource",subresource="status",verb="PATCH",version="v1beta1"} 40
apiserver_request_total{code="200",component="",dry_run="",group="",resource="",scope="",subresource="/readyz",verb="GET",version=""} 99
apiserver_request_total{code="0",component="apiserver",dry_run="",group="",resource="nodes",scope="cluster",subresource="",verb="WATCH",version="v1"} 3
apiserver_request_duration_seconds_bucket{verb="POST",le="1"} 5
`

describe('apiserver request counts', () => {
  it('sums by verb and resource over codes and leaves out non-resource requests', () => {
    expect(requestCounts(scrape)).toEqual({
      'POST machines': 22,
      'PATCH machines/status': 40,
      'WATCH nodes': 3,
    })
  })

  it('diffs, totals and groups', () => {
    const before = { 'POST machines': 2, 'WATCH nodes': 3 }
    const delta = diffCounts(before, requestCounts(scrape))
    expect(delta).toEqual({ 'POST machines': 20, 'PATCH machines/status': 40 })
    expect(totalOf(delta)).toBe(60)
    expect(totalOf(requestCounts(scrape), isCollectionRead)).toBe(3)
    expect(byVerb({ 'PATCH a': 1, 'PATCH b': 2, 'GET a': 1 })).toEqual({ PATCH: 3, GET: 1 })
    expect(perUnit(delta, 20)).toEqual({ 'PATCH machines/status': 2, 'POST machines': 1 })
    expect(isCollectionRead('list machines')).toBe(true)
  })
})

describe("the apiserver's conversion webhook calls", () => {
  it('sums count and seconds over CRDs, versions and outcomes, and nothing else', () => {
    const text = `# TYPE apiserver_crd_conversion_webhook_duration_seconds histogram
apiserver_crd_conversion_webhook_duration_seconds_bucket{crd_name="machines.machine-api.dev",from_version="v1beta1",succeeded="true",to_version="v1alpha1",le="0.005"} 10
apiserver_crd_conversion_webhook_duration_seconds_sum{crd_name="machines.machine-api.dev",from_version="v1beta1",succeeded="true",to_version="v1alpha1"} 1.5
apiserver_crd_conversion_webhook_duration_seconds_count{crd_name="machines.machine-api.dev",from_version="v1beta1",succeeded="true",to_version="v1alpha1"} 300
apiserver_crd_conversion_webhook_duration_seconds_sum{crd_name="machinesets.machine-api.dev",from_version="v1alpha1",succeeded="false",to_version="v1beta1"} 0.25
apiserver_crd_conversion_webhook_duration_seconds_count{crd_name="machinesets.machine-api.dev",from_version="v1alpha1",succeeded="false",to_version="v1beta1"} 2
apiserver_conversion_webhook_duration_seconds_count{failure_type="",result="success"} 999
`
    expect(conversionCalls(text)).toEqual({ calls: 302, seconds: 1.75 })
    expect(conversionCalls(scrape)).toEqual({ calls: 0, seconds: 0 })
  })
})
