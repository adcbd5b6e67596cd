/**
 * @module A small HTTP proxy in front of moto that answers chosen EC2 actions with chosen AWS
 * errors (throttling, capacity) a number of times, or a random share of all requests (seeded by
 * the caller), or rewrites moto's real answer to an action (a state moto cannot simulate, such as
 * an impaired status check), and counts every request and every injected fault per action. It
 * injects what moto cannot produce; everything else is moto's real answer.
 */
import { createServer, type IncomingMessage, request } from 'node:http'

/** One planned failure. */
export interface Fault {
  action: string
  code: string
  /** HTTP status EC2 uses for the code (503 for RequestLimitExceeded, 500 for capacity). */
  status: number
  /** How many matching requests fail before the action works again (default: all). */
  times?: number
  /** Only requests whose parameters match (e.g. `InstanceType` of RunInstances) fail. */
  when?: (params: URLSearchParams) => boolean
  /**
   * Never answer matching requests (a blackholed call): the caller's timeout or abort ends them.
   * `code` then only names the fault in `injected()`.
   */
  hang?: boolean
}

/** An AWS error answer: its code and HTTP status. */
export interface ErrorAnswer {
  code: string
  status: number
}

/** Fails a share of requests at random (chaos): each request fails with probability `rate`. */
export interface RandomFaults {
  rate: number
  /** The answers to pick from for a failing request. */
  errors: readonly ErrorAnswer[]
  /** A source of numbers in [0, 1): the caller's seeded random, so runs repeat. */
  next: () => number
  /** Only these actions (default: all). */
  actions?: readonly string[]
}

/** A change to moto's real answer to one action: its XML body in, the body to send out. */
export interface Rewrite {
  action: string
  rewrite: (body: string, params: URLSearchParams) => string
}

/** A running proxy. */
export interface FaultProxy {
  endpoint: string
  inject(fault: Fault): void
  /** Rewrites every later answer to `rewrite.action` (replaces an earlier rewrite of it). */
  rewrite(rewrite: Rewrite): void
  /** Starts failing a random share of requests (replaces an earlier random setting). */
  injectRandom(faults: RandomFaults): void
  /** Removes every fault and rewrite; counts stay. */
  clearFaults(): void
  /** Removes every fault and rewrite and resets the counts. */
  clear(): void
  /** Requests seen per EC2 action (including failed ones). */
  counts(): Record<string, number>
  /** Faults injected per `Action/Code`. */
  injected(): Record<string, number>
  stop(): Promise<void>
}

function errorXml(code: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Response><Errors><Error><Code>${code}</Code><Message>injected ${code}</Message></Error></Errors><RequestID>fault-proxy</RequestID></Response>`
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** Starts the proxy on a kernel-chosen loopback port, forwarding to `target`. */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target)
  const faults: (Fault & { left: number })[] = []
  const counts: Record<string, number> = {}
  const injected: Record<string, number> = {}
  let random: RandomFaults | undefined
  const rewrites = new Map<string, Rewrite['rewrite']>()

  function pickFault(
    action: string,
    params: URLSearchParams,
  ): (ErrorAnswer & { hang?: boolean }) | undefined {
    const fault = faults.find(
      (f) => f.action === action && f.left > 0 && (f.when === undefined || f.when(params)),
    )
    if (fault) {
      fault.left -= 1
      return fault
    }
    if (!random || (random.actions && !random.actions.includes(action))) return undefined
    if (random.next() >= random.rate) return undefined
    return random.errors[Math.floor(random.next() * random.errors.length)]
  }

  const server = createServer(async (req, res) => {
    const body = await readBody(req)
    const params = new URLSearchParams(body.toString('utf8'))
    const action = params.get('Action') ?? 'unknown'
    counts[action] = (counts[action] ?? 0) + 1
    const fault = pickFault(action, params)
    if (fault) {
      const key = `${action}/${fault.code}`
      injected[key] = (injected[key] ?? 0) + 1
      if (fault.hang) return
      res.writeHead(fault.status, { 'content-type': 'text/xml' })
      res.end(errorXml(fault.code))
      return
    }
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (upstreamRes) => {
        const rewrite = rewrites.get(action)
        if (!rewrite || upstreamRes.statusCode !== 200) {
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers)
          upstreamRes.pipe(res)
          return
        }
        void readBody(upstreamRes).then((answer) => {
          const rewritten = Buffer.from(rewrite(answer.toString('utf8'), params), 'utf8')
          const {
            'content-length': _length,
            'transfer-encoding': _encoding,
            ...headers
          } = upstreamRes.headers
          res.writeHead(200, { ...headers, 'content-length': rewritten.length })
          res.end(rewritten)
        })
      },
    )
    forward.on('error', () => {
      res.writeHead(502)
      res.end()
    })
    forward.end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0

  return {
    endpoint: `http://127.0.0.1:${port}`,
    inject: (fault) => faults.push({ ...fault, left: fault.times ?? Number.POSITIVE_INFINITY }),
    injectRandom(settings) {
      random = settings
    },
    rewrite: ({ action, rewrite }) => rewrites.set(action, rewrite),
    clearFaults() {
      faults.length = 0
      random = undefined
      rewrites.clear()
    },
    clear() {
      faults.length = 0
      random = undefined
      rewrites.clear()
      for (const key of Object.keys(counts)) delete counts[key]
      for (const key of Object.keys(injected)) delete injected[key]
    },
    counts: () => ({ ...counts }),
    injected: () => ({ ...injected }),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
