/**
 * @module HTTP to the apiserver with the credentials of a KubeConfig. One keep-alive agent per
 * client; auth headers are refreshed periodically so rotated service-account tokens are picked up.
 * Every call is reported (verb, resource, HTTP code) for the apiserver-call metric. Every call has
 * a client-side deadline, so a blackholed connection (accepted, never answered) fails with a
 * TransientError instead of pinning its caller: requests end within `requestTimeoutMs`, watch
 * streams get their headers within it and then end after `idleTimeoutMs` without a byte.
 */
import http from 'node:http'
import https from 'node:https'
import type { Readable } from 'node:stream'
import type { KubeConfig } from '@kubernetes/client-node'
import { TransientError } from '../errors'
import { kubeApiError } from './errors'

/** One apiserver call. `verb` and `resource` label the metric (e.g. `list`, `machines`). */
export interface KubeRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** Path plus query string, e.g. `/api/v1/nodes?limit=500`. */
  path: string
  body?: unknown
  contentType?: string
  verb: string
  resource: string
  signal?: AbortSignal | undefined
  /** Streams only: end the stream when no byte arrives for this long (default: the transport's). */
  idleTimeoutMs?: number | undefined
}

/** Client-side deadlines of a transport. */
export interface TransportTimeouts {
  /** A whole request, and the response headers of a stream (default 30 s). */
  requestTimeoutMs?: number | undefined
  /** A stream without a byte for this long ends with a TransientError (default 330 s). */
  idleTimeoutMs?: number | undefined
}

/** Called once per finished call; `code` is 0 when no HTTP answer arrived. */
export type KubeCallRecorder = (call: { verb: string; resource: string; code: number }) => void

/** Sends requests; the only object in the code base that opens connections to the apiserver. */
export interface KubeTransport {
  /** Sends and parses the JSON answer; throws KubeApiError for non-2xx answers. */
  request<T>(req: KubeRequest): Promise<T>
  /** Sends and returns the open response body (watches); throws KubeApiError for non-2xx. */
  stream(req: KubeRequest): Promise<Readable>
  /** Closes idle keep-alive connections so the process can exit. */
  close(): void
}

interface Auth {
  headers: Record<string, string>
  fetchedAt: number
}

const authRefreshMs = 30_000

/** A transport for the current context of `kc`. */
export function createHttpTransport(
  kc: KubeConfig,
  record: KubeCallRecorder,
  timeouts: TransportTimeouts = {},
): KubeTransport {
  const requestTimeoutMs = timeouts.requestTimeoutMs ?? 30_000
  const idleTimeoutMs = timeouts.idleTimeoutMs ?? 330_000
  const cluster = kc.getCurrentCluster()
  if (!cluster) throw new Error('kubeconfig has no current cluster')
  const server = new URL(cluster.server)
  const secure = server.protocol === 'https:'
  let agent: http.Agent | undefined
  let auth: Auth | undefined

  async function options(): Promise<{ agent: http.Agent; headers: Record<string, string> }> {
    if (!auth || !agent || Date.now() - auth.fetchedAt > authRefreshMs) {
      const opts: https.RequestOptions = {}
      await kc.applyToHTTPSOptions(opts)
      const headers: Record<string, string> = {}
      for (const [key, value] of Object.entries(opts.headers ?? {})) {
        if (value !== undefined) headers[key] = String(value)
      }
      if (opts.auth) headers.Authorization = `Basic ${Buffer.from(opts.auth).toString('base64')}`
      auth = { headers, fetchedAt: Date.now() }
      // TLS material rarely changes; the agent (and its pooled sockets) lives as long as the client.
      agent ??= secure
        ? new https.Agent({
            keepAlive: true,
            ca: opts.ca,
            cert: opts.cert,
            key: opts.key,
            pfx: opts.pfx,
            passphrase: opts.passphrase,
            servername: opts.servername,
            ...(opts.rejectUnauthorized === undefined
              ? {}
              : { rejectUnauthorized: opts.rejectUnauthorized }),
          })
        : new http.Agent({ keepAlive: true })
    }
    return { agent, headers: auth.headers }
  }

  async function send(req: KubeRequest): Promise<http.IncomingMessage> {
    const { agent: reqAgent, headers } = await options()
    const payload = req.body === undefined ? undefined : JSON.stringify(req.body)
    const lib = secure ? https : http
    return await new Promise((resolve, reject) => {
      const outgoing = lib.request(
        new URL(req.path, server),
        {
          method: req.method,
          agent: reqAgent,
          headers: {
            ...headers,
            Accept: 'application/json',
            // Node frames DELETE bodies only with an explicit length (no chunking by default for
            // DELETE), and unframed bytes would corrupt the next request on the kept-alive socket.
            ...(payload === undefined
              ? {}
              : {
                  'Content-Type': req.contentType ?? 'application/json',
                  'Content-Length': Buffer.byteLength(payload),
                }),
          },
          ...(req.signal ? { signal: req.signal } : {}),
        },
        resolve,
      )
      outgoing.on('error', reject)
      outgoing.end(payload)
    })
  }

  async function readBody(res: http.IncomingMessage): Promise<string> {
    const chunks: Buffer[] = []
    for await (const chunk of res) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks).toString('utf8')
  }

  /**
   * A signal that aborts when the caller's does or when `ms` pass, until `clear()` (after which
   * only the caller's signal counts); `late()` says whether the deadline fired.
   */
  function deadline(caller: AbortSignal | undefined, ms: number) {
    const controller = new AbortController()
    let fired = false
    const timer = setTimeout(() => {
      fired = true
      controller.abort(new Error(`deadline of ${ms} ms passed`))
    }, ms)
    const follow = () => controller.abort(caller?.reason)
    if (caller?.aborted) follow()
    else caller?.addEventListener('abort', follow, { once: true })
    return {
      signal: controller.signal,
      late: () => fired,
      clear: () => clearTimeout(timer),
      release: () => {
        clearTimeout(timer)
        caller?.removeEventListener('abort', follow)
      },
    }
  }

  function timedOut(req: KubeRequest, what: string, ms: number, cause: unknown): TransientError {
    const message = `apiserver ${what} for ${req.verb} ${req.resource} within ${ms} ms`
    return new TransientError(message, { reason: 'Timeout', cause })
  }

  async function call(req: KubeRequest, late: () => boolean): Promise<http.IncomingMessage> {
    let res: http.IncomingMessage
    try {
      res = await send(req)
    } catch (error) {
      record({ verb: req.verb, resource: req.resource, code: 0 })
      if (late()) throw timedOut(req, 'did not answer', requestTimeoutMs, error)
      throw error
    }
    const code = res.statusCode ?? 0
    record({ verb: req.verb, resource: req.resource, code })
    if (code < 200 || code > 299) {
      throw kubeApiError(code, await readBody(res), res.headers)
    }
    return res
  }

  return {
    async request<T>(req: KubeRequest): Promise<T> {
      const timer = deadline(req.signal, requestTimeoutMs)
      let text: string
      try {
        text = await readBody(await call({ ...req, signal: timer.signal }, timer.late))
      } catch (error) {
        if (timer.late() && !(error instanceof TransientError)) {
          throw timedOut(req, 'did not finish answering', requestTimeoutMs, error)
        }
        throw error
      } finally {
        timer.release()
      }
      return (text === '' ? {} : JSON.parse(text)) as T
    },
    async stream(req: KubeRequest): Promise<Readable> {
      // The deadline covers the response headers only; the open stream keeps the caller's signal
      // and gets an idle timeout instead (a watch may be quiet, but not silent for that long).
      const timer = deadline(req.signal, requestTimeoutMs)
      let res: http.IncomingMessage
      try {
        res = await call({ ...req, signal: timer.signal }, timer.late)
      } catch (error) {
        timer.release()
        throw error
      }
      timer.clear()
      const idleMs = req.idleTimeoutMs ?? idleTimeoutMs
      res.setTimeout(idleMs, () => res.destroy(timedOut(req, 'sent nothing', idleMs, undefined)))
      res.once('close', timer.release)
      return res
    },
    close() {
      agent?.destroy()
      agent = undefined
    },
  }
}
