/** @module One autocannon load run against an HTTPS endpoint: latency percentiles and req/s. */
import autocannon from 'autocannon'

/** What one load run gives. Latencies in ms. */
export interface LoadResult {
  p50: number
  p99: number
  max: number
  /** Mean requests per second over the run. */
  rps: number
  requests: number
  /** Connection errors, timeouts and non-2xx answers: any of them invalidates the run. */
  errors: number
}

export interface LoadOptions {
  url: string
  /** JSON bodies POSTed in turn (one request each). */
  bodies: string[]
  /** CA PEM to trust the server. */
  ca: Buffer
  connections: number
  durationSeconds: number
}

/** POSTs the bodies round-robin over `connections` keep-alive connections for the duration. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.durationSeconds,
    tlsOptions: { ca: options.ca },
    requests: options.bodies.map((body) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })),
  })
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    rps: result.requests.total / result.duration,
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
  }
}
