/**
 * @module A TCP relay to the shared control plane that a test can cut and restore: an apiserver
 * outage, or a stopped apiserver, without stopping the apiserver other tests share.
 */
import { connect, createServer, type Socket } from 'node:net'
import { KubeConfig } from '@kubernetes/client-node'
import { onTestFinished } from 'vitest'

/** A TCP relay that can drop its connections like a stopped server. */
export interface Relay {
  port: number
  /** Drops every open connection and refuses new ones, like a stopped apiserver. */
  cut(): void
  restore(): void
  close(): Promise<void>
}

/** A TCP relay to `host:port`. */
export async function cuttableRelay(host: string, port: number): Promise<Relay> {
  let open = true
  const sockets = new Set<Socket>()
  const track = (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
  }
  const server = createServer((client) => {
    if (!open) return void client.destroy()
    const upstream = connect(port, host)
    track(client)
    track(upstream)
    client.pipe(upstream).pipe(client)
    client.once('close', () => upstream.destroy())
    upstream.once('close', () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    cut() {
      open = false
      for (const socket of sockets) socket.destroy()
    },
    restore() {
      open = true
    },
    close() {
      for (const socket of sockets) socket.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** A copy of `kc` whose cluster server is `server`. */
export function kubeConfigVia(source: KubeConfig, server: string): KubeConfig {
  const config = JSON.parse(source.exportConfig()) as {
    clusters: Array<{ cluster: { server: string } }>
  }
  for (const entry of config.clusters) entry.cluster.server = server
  const out = new KubeConfig()
  out.loadFromString(JSON.stringify(config))
  return out
}

/**
 * A relay to the apiserver of `kc` and a client (made by `client`) that reaches it through the
 * relay; both are closed when the test ends.
 */
export async function relayedClient<C extends { close(): void | Promise<void> }>(
  kc: KubeConfig,
  client: (through: KubeConfig) => C,
): Promise<{ relay: Relay; kube: C }> {
  const target = new URL(kc.getCurrentCluster()?.server ?? '')
  const relay = await cuttableRelay(target.hostname, Number(target.port))
  onTestFinished(() => relay.close())
  const kube = client(kubeConfigVia(kc, `https://127.0.0.1:${relay.port}`))
  onTestFinished(() => kube.close())
  return { relay, kube }
}
