/**
 * @module Preloaded into the webhook child by profile-list-conversion.ts (`--import`): counts the
 * connections and TLS handshakes (by ALPN protocol) the apiserver opens and times every request
 * from the listener's call to the answer's last write, then writes it all as JSON to
 * $CONNECTION_PROBE_OUT on SIGUSR2. With CONNECTION_PROBE_H2=1 the webhook is served by
 * node:http2's createSecureServer (allowHTTP1, so health probes over HTTP/1.1 still work) instead
 * of node:https: the apiserver's Go client then negotiates h2 through ALPN and multiplexes.
 * It wraps node:https before the webhook imports it; the webhook itself is unchanged.
 */
import { writeFileSync } from 'node:fs'
import http2 from 'node:http2'
import https from 'node:https'
import { syncBuiltinESMExports } from 'node:module'
import type { Socket } from 'node:net'
import type { TLSSocket } from 'node:tls'

/** One answered request: URL, body bytes, HTTP version, connection number, start and finish (epoch ms). */
export interface ProbedRequest {
  url: string
  bytes: number
  httpVersion: string
  connection: number
  started: number
  finished: number
}

/** What the probe writes. */
export interface ProbeReport {
  connections: number
  handshakes: Record<string, number>
  http2Sessions: number
  requests: ProbedRequest[]
}

type Listener = (request: never, response: never) => void
interface ProbedRequestLike {
  url?: string
  headers: Record<string, string | string[] | undefined>
  httpVersion: string
  socket: Socket
}
interface ResponseLike {
  once(event: 'finish', listener: () => void): void
  writeHead(status: number, headers?: unknown): unknown
}

const report: ProbeReport = { connections: 0, handshakes: {}, http2Sessions: 0, requests: [] }
const connectionIds = new WeakMap<object, number>()
let connectionCount = 0
const epochMs = () => performance.timeOrigin + performance.now()

function timed(listener: Listener, http2Headers: boolean): Listener {
  return ((request: ProbedRequestLike, response: ResponseLike) => {
    const started = epochMs()
    // Under http2 the socket is a proxy per stream; its session's socket identifies the connection.
    const key = (request as { stream?: { session?: object } }).stream?.session ?? request.socket
    let connection = connectionIds.get(key)
    if (connection === undefined) {
      connection = ++connectionCount
      connectionIds.set(key, connection)
    }
    if (http2Headers) adaptWriteHead(response)
    response.once('finish', () =>
      report.requests.push({
        url: request.url ?? '',
        bytes: Number(request.headers['content-length'] ?? 0),
        httpVersion: request.httpVersion,
        connection,
        started,
        finished: epochMs(),
      }),
    )
    listener(request as never, response as never)
  }) as Listener
}

/** The webhook writes headers as a flat [name, value, ...] list, which http2's compat API lacks. */
function adaptWriteHead(response: ResponseLike): void {
  const writeHead = response.writeHead.bind(response)
  response.writeHead = (status, headers) => {
    if (!Array.isArray(headers)) return writeHead(status, headers)
    const object: Record<string, unknown> = {}
    for (let index = 0; index + 1 < headers.length; index += 2)
      object[headers[index]] = headers[index + 1]
    return writeHead(status, object)
  }
}

function counted<T extends https.Server | http2.Http2SecureServer>(server: T): T {
  server.on('connection', () => report.connections++)
  server.on('secureConnection', (socket: TLSSocket) => {
    const protocol = socket.alpnProtocol || 'none'
    report.handshakes[protocol] = (report.handshakes[protocol] ?? 0) + 1
  })
  server.on('session', () => report.http2Sessions++)
  return server
}

const createHttps = https.createServer
const createHttp2 = http2.createSecureServer
const useHttp2 = process.env.CONNECTION_PROBE_H2 === '1'
;(https as { createServer: unknown }).createServer = (
  options: https.ServerOptions,
  listener: Listener,
) => {
  if (!useHttp2) return counted(createHttps(options, timed(listener, false) as never))
  const server = counted(
    createHttp2({ ...options, allowHTTP1: true }, timed(listener, true) as never),
  )
  // server.ts closes with closeAllConnections (node:https only); closing the sessions is enough here.
  return Object.assign(server, { closeAllConnections: () => {} })
}
syncBuiltinESMExports()

process.on('SIGUSR2', () => {
  const out = process.env.CONNECTION_PROBE_OUT
  if (out) writeFileSync(out, JSON.stringify(report))
})
