/**
 * @module A small HTTP proxy in front of moto that answers chosen EC2 actions with chosen AWS
 * errors (throttling, capacity) a number of times, or a random share of all requests (seeded by
 * the caller), or rewrites moto's real answer to an action (a state moto cannot simulate, such as
 * an impaired status check), or holds answers back (a slow call), or lags like EC2's eventual
 * consistency (eventual-consistency.ts: a launched instance unseen by tag lookups for a while),
 * and counts every request and every injected fault per action. It also filters DescribeInstances
 * by `client-token` as EC2 does (moto 5.2.5 does not know that filter), and keeps RunInstances'
 * ClientToken and MaxCount promises (launch-model.ts). It injects what moto
 * cannot produce; everything else is moto's real answer.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, request } from 'node:http'
import { type ConsistencyLag, createConsistency } from './eventual-consistency'
import {
  asRunInstancesAnswer,
  filterMatches,
  pruneInstances,
  readFilters,
  withFilters,
} from './instance-xml'
import { createLaunchModel } from './launch-model'
import { createThrottle, type Throttle, type ThrottleModel } from './throttle'

export type { ConsistencyLag } from './eventual-consistency'
export { ec2Budget, type ThrottleModel } from './throttle'

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

/** Answers to `action` held back `ms` after moto answered (the call is slow; the work is done). */
export interface Delay {
  action: string
  ms: number
  /** How many answers are held (default: all). */
  times?: number
}

/** A running proxy. */
export interface FaultProxy {
  endpoint: string
  inject(fault: Fault): void
  /** Holds back later answers to `delay.action` (added to earlier delays of other actions). */
  delay(delay: Delay): void
  /**
   * Turns EC2's eventual consistency on (eventual-consistency.ts) with these lags, or off with
   * `undefined`. Hidden instances count in `injected()` as `DescribeInstances/Lagged`, refused
   * ids as `<Action>/InvalidInstanceID.NotFound`, token replays as `RunInstances/ClientToken`.
   */
  lag(lag: ConsistencyLag | undefined): void
  /**
   * Puts EC2's request budget in front of moto (throttle.ts), or takes it away with `undefined`:
   * a request over budget answers RequestLimitExceeded, counted in `injected()` as
   * `<Action>/RequestLimitExceeded`. Full buckets at each call.
   */
  throttle(model: ThrottleModel | undefined): void
  /**
   * Gives each later RunInstances at most `instances` (undefined: no cap): min(MaxCount, cap), or
   * InsufficientInstanceCapacity below its MinCount (partial fulfilment of a count).
   */
  capLaunches(instances: number | undefined): void
  /** Rewrites every later answer to `rewrite.action` (replaces an earlier rewrite of it). */
  rewrite(rewrite: Rewrite): void
  /** Starts failing a random share of requests (replaces an earlier random setting). */
  injectRandom(faults: RandomFaults): void
  /** Removes every fault, rewrite and delay; counts and the lag (a trait of the world) stay. */
  clearFaults(): void
  /** Removes every fault, rewrite, delay, lag and throttle and resets the counts. */
  clear(): void
  /** Requests seen per EC2 action (including failed ones). */
  counts(): Record<string, number>
  /** Faults injected per `Action/Code`. */
  injected(): Record<string, number>
  /**
   * Instance ids moto terminated on a TerminateInstances request (each once): terminations are
   * batched, so the number of calls says little about how many instances went.
   */
  terminated(): string[]
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

/** What moto answered. */
interface Answer {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
}

/** Sends `body` to moto with the caller's headers (moto reads the region from the signature). */
function forward(upstream: URL, req: IncomingMessage, body: Buffer): Promise<Answer> {
  const { 'content-length': _length, ...headers } = req.headers
  return new Promise((resolve) => {
    const call = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...headers, host: upstream.host, 'content-length': body.length },
      },
      (res) => {
        void readBody(res).then((answer) =>
          resolve({ status: res.statusCode ?? 502, headers: res.headers, body: answer }),
        )
      },
    )
    call.on('error', () => resolve({ status: 502, headers: {}, body: Buffer.alloc(0) }))
    call.end(body)
  })
}

/** `params` without its `client-token` filters, and those filters' values. */
function splitTokenFilter(params: URLSearchParams): { rest: URLSearchParams; tokens?: string[] } {
  const filters = readFilters(params)
  const tokens = filters.filter((f) => f.name === 'client-token')
  if (tokens.length === 0) return { rest: params }
  const rest = withFilters(
    params,
    filters.filter((f) => f.name !== 'client-token'),
  )
  return { rest, tokens: tokens.flatMap((f) => f.values) }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The RequestLimitExceeded answers among a FaultProxy's `injected()`: its throttled calls. */
export function throttledCalls(injected: Record<string, number>): number {
  return Object.entries(injected)
    .filter(([key]) => key.endsWith('/RequestLimitExceeded'))
    .reduce((sum, [, c]) => sum + c, 0)
}

/** Starts the proxy on a kernel-chosen loopback port, forwarding to `target`. */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target)
  const faults: (Fault & { left: number })[] = []
  const delays: (Delay & { left: number })[] = []
  const counts: Record<string, number> = {}
  const injected: Record<string, number> = {}
  const terminated = new Set<string>()
  let random: RandomFaults | undefined
  const rewrites = new Map<string, Rewrite['rewrite']>()
  const consistency = createConsistency()
  const launches = createLaunchModel()
  let throttle: Throttle | undefined
  const count = (key: string, n = 1) => {
    injected[key] = (injected[key] ?? 0) + n
  }

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

  function pickDelay(action: string): number {
    const delay = delays.find((d) => d.action === action && d.left > 0)
    if (!delay) return 0
    delay.left -= 1
    return delay.ms
  }

  /** moto's answer to a request, with the lag, the token filter and the rewrites applied. */
  async function answer(req: IncomingMessage, body: Buffer, params: URLSearchParams) {
    const action = params.get('Action') ?? 'unknown'
    if (consistency.unknownId(action, params, Date.now())) {
      count(`${action}/InvalidInstanceID.NotFound`)
      return error(400, 'InvalidInstanceID.NotFound')
    }
    const launch = action === 'RunInstances' ? launches.plan(params) : undefined
    if (launch?.kind === 'error') {
      count(`RunInstances/${launch.code}`)
      return error(launch.status, launch.code)
    }
    const replayed = launch?.kind === 'replay' ? launch.ids : undefined
    if (replayed) {
      // EC2 answers a repeated ClientToken with the first launch's instances, as they are now.
      const describe = new URLSearchParams({ Action: 'DescribeInstances', Version: '2016-11-15' })
      for (const [i, id] of replayed.entries()) describe.set(`InstanceId.${i + 1}`, id)
      const now = await forward(upstream, req, Buffer.from(describe.toString(), 'utf8'))
      const replay = asRunInstancesAnswer(now.body.toString('utf8'))
      if (now.status === 200 && replay) {
        count('RunInstances/ClientToken')
        return { status: 200, headers: { 'content-type': 'text/xml' }, body: Buffer.from(replay) }
      }
    }
    const { rest, tokens } =
      action === 'DescribeInstances' ? splitTokenFilter(params) : { rest: params }
    const sent =
      launch?.kind === 'send'
        ? Buffer.from(launch.params.toString(), 'utf8')
        : tokens
          ? Buffer.from(rest.toString(), 'utf8')
          : body
    const out = await forward(upstream, req, sent)
    if (out.status !== 200) return out
    if (action === 'TerminateInstances') {
      for (const [key, id] of params) if (/^InstanceId\.\d+$/.test(key)) terminated.add(id)
    }
    let text = out.body.toString('utf8')
    if (action === 'RunInstances') launches.record(text, params)
    if (action === 'RunInstances' || action === 'CreateFleet') {
      consistency.recordLaunch(text, Date.now())
    }
    if (action === 'DescribeInstances') {
      if (tokens) {
        text = pruneInstances(text, (xml) => {
          const token = /<clientToken>([^<]*)<\/clientToken>/.exec(xml)?.[1] ?? ''
          return tokens.some((pattern) => filterMatches(pattern, token))
        }).body
      }
      const hidden = consistency.hide(text, params, Date.now())
      if (hidden.removed > 0) count('DescribeInstances/Lagged', hidden.removed)
      text = hidden.body
    }
    const rewrite = rewrites.get(action)
    if (rewrite) text = rewrite(text, params)
    return { ...out, body: Buffer.from(text, 'utf8') }
  }

  function error(status: number, code: string): Answer {
    return { status, headers: { 'content-type': 'text/xml' }, body: Buffer.from(errorXml(code)) }
  }

  const server = createServer(async (req, res) => {
    const body = await readBody(req)
    const params = new URLSearchParams(body.toString('utf8'))
    const action = params.get('Action') ?? 'unknown'
    counts[action] = (counts[action] ?? 0) + 1
    if (throttle && !throttle.admit(action, params, performance.now())) {
      count(`${action}/RequestLimitExceeded`)
      res.writeHead(503, { 'content-type': 'text/xml' })
      res.end(errorXml('RequestLimitExceeded'))
      return
    }
    const fault = pickFault(action, params)
    if (fault) {
      count(`${action}/${fault.code}`)
      if (fault.hang) return
      res.writeHead(fault.status, { 'content-type': 'text/xml' })
      res.end(errorXml(fault.code))
      return
    }
    const held = pickDelay(action)
    const out = await answer(req, body, params)
    if (held > 0) {
      count(`${action}/Delayed`)
      await sleep(held)
    }
    const { 'content-length': _length, 'transfer-encoding': _encoding, ...headers } = out.headers
    res.writeHead(out.status, { ...headers, 'content-length': out.body.length })
    res.end(out.body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const clearFaults = () => {
    faults.length = 0
    delays.length = 0
    random = undefined
    rewrites.clear()
  }

  return {
    endpoint: `http://127.0.0.1:${port}`,
    inject: (fault) => faults.push({ ...fault, left: fault.times ?? Number.POSITIVE_INFINITY }),
    delay: (delay) => delays.push({ ...delay, left: delay.times ?? Number.POSITIVE_INFINITY }),
    lag: (lag) => consistency.set(lag),
    throttle(model) {
      throttle = model ? createThrottle(model) : undefined
    },
    capLaunches: (instances) => launches.cap(instances),
    injectRandom(settings) {
      random = settings
    },
    rewrite: ({ action, rewrite }) => rewrites.set(action, rewrite),
    clearFaults,
    clear() {
      clearFaults()
      consistency.clear()
      launches.clear()
      throttle = undefined
      for (const key of Object.keys(counts)) delete counts[key]
      for (const key of Object.keys(injected)) delete injected[key]
      terminated.clear()
    },
    counts: () => ({ ...counts }),
    injected: () => ({ ...injected }),
    terminated: () => [...terminated],
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
