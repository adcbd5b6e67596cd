/**
 * @module Reads `apiserver_request_total` (and the CRD conversion webhook's latency) out of the
 * apiserver's Prometheus text and diffs two scrapes. Pure, so the parsing is unit-tested;
 * apiserver-metrics.ts does the scraping.
 */

/** Request counts keyed `VERB resource[/subresource]` (e.g. `PATCH machines/status`). */
export type RequestCounts = Record<string, number>

const sampleLine = /^apiserver_request_total\{([^}]*)\}\s+(\S+)/
const labelPair = /(\w+)="((?:[^"\\]|\\.)*)"/g

/** Parses the labels of one `{a="b",c="d"}` body. */
export function parseLabels(body: string): Record<string, string> {
  const labels: Record<string, string> = {}
  for (const match of body.matchAll(labelPair)) labels[match[1] ?? ''] = match[2] ?? ''
  return labels
}

/**
 * Sums `apiserver_request_total` by verb and resource over codes, groups and versions. Requests
 * without a resource (discovery, /metrics, /readyz) are left out: they are nobody's per-Machine cost.
 */
export function requestCounts(text: string): RequestCounts {
  const counts: RequestCounts = {}
  for (const line of text.split('\n')) {
    const match = sampleLine.exec(line)
    if (!match) continue
    const labels = parseLabels(match[1] ?? '')
    if (!labels.resource) continue
    const key = `${labels.verb} ${labels.resource}${labels.subresource ? `/${labels.subresource}` : ''}`
    counts[key] = (counts[key] ?? 0) + Number(match[2])
  }
  return counts
}

/** `after - before`, keeping only keys that changed. */
export function diffCounts(before: RequestCounts, after: RequestCounts): RequestCounts {
  const out: RequestCounts = {}
  for (const [key, value] of Object.entries(after)) {
    const delta = value - (before[key] ?? 0)
    if (delta !== 0) out[key] = delta
  }
  return out
}

/** The sum of the counts whose key passes `keep` (all by default). */
export function totalOf(counts: RequestCounts, keep: (key: string) => boolean = () => true) {
  return Object.entries(counts).reduce((sum, [key, value]) => sum + (keep(key) ? value : 0), 0)
}

/** Sums counts by their verb (the key's first word). */
export function byVerb(counts: RequestCounts): RequestCounts {
  const out: RequestCounts = {}
  for (const [key, value] of Object.entries(counts)) {
    const verb = key.split(' ')[0] ?? key
    out[verb] = (out[verb] ?? 0) + value
  }
  return out
}

/** Each count divided by `n` (per Machine), rounded to 2 decimals, largest first; zeros left out. */
export function perUnit(counts: RequestCounts, n: number): RequestCounts {
  return Object.fromEntries(
    Object.entries(counts)
      .sort((a, b) => b[1] - a[1])
      .map(([key, value]) => [key, Math.round((value / n) * 100) / 100] as const)
      .filter(([, value]) => value !== 0),
  )
}

/** Verbs that read collections (`LIST`, `WATCH`, lowercase for our own client's counters). */
export function isCollectionRead(key: string): boolean {
  const verb = (key.split(' ')[0] ?? '').toUpperCase()
  return verb === 'LIST' || verb === 'WATCH' || verb === 'WATCHLIST'
}

/** The apiserver's own count and summed seconds of CRD conversion webhook calls. */
export interface ConversionCalls {
  calls: number
  seconds: number
}

const conversionLine =
  /^apiserver_crd_conversion_webhook_duration_seconds_(sum|count)\{[^}]*\}\s+(\S+)/

/**
 * Sums `apiserver_crd_conversion_webhook_duration_seconds` over CRDs, versions and outcomes: the
 * latency of each call as the apiserver sees it (encoding the review, the round trip, decoding).
 */
export function conversionCalls(text: string): ConversionCalls {
  const totals: ConversionCalls = { calls: 0, seconds: 0 }
  for (const line of text.split('\n')) {
    const match = conversionLine.exec(line)
    if (!match) continue
    if (match[1] === 'count') totals.calls += Number(match[2])
    else totals.seconds += Number(match[2])
  }
  return totals
}
