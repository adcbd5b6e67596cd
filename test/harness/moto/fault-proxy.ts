/**
 * @module A small HTTP proxy in front of moto that answers chosen EC2 actions with chosen AWS
 * errors (throttling, capacity) a number of times, and counts every request per action. It
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
}

/** A running proxy. */
export interface FaultProxy {
  endpoint: string
  inject(fault: Fault): void
  clear(): void
  /** Requests seen per EC2 action (including failed ones). */
  counts(): Record<string, number>
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

  const server = createServer(async (req, res) => {
    const body = await readBody(req)
    const action = new URLSearchParams(body.toString('utf8')).get('Action') ?? 'unknown'
    counts[action] = (counts[action] ?? 0) + 1
    const fault = faults.find((f) => f.action === action && f.left > 0)
    if (fault) {
      fault.left -= 1
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
        res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers)
        upstreamRes.pipe(res)
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
    clear() {
      faults.length = 0
      for (const key of Object.keys(counts)) delete counts[key]
    },
    counts: () => ({ ...counts }),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
