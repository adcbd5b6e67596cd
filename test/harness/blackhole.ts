/** @module A local stand-in for a blackholed apiserver, and a KubeConfig pointing at any server. */
import { createServer, type Server, type Socket } from 'node:net'
import { KubeConfig } from '@kubernetes/client-node'

/**
 * A local TCP server standing in for a blackholed apiserver: it accepts connections and either
 * never answers (`silent`) or sends the headers of a watch and then nothing (`headers-only`).
 */
export function blackhole(
  mode: 'silent' | 'headers-only',
): Promise<{ url: string; server: Server }> {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => undefined)
    if (mode === 'headers-only') {
      socket.once('data', () =>
        socket.write(
          'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
        ),
      )
    }
  })
  server.on('close', () => {
    for (const socket of sockets) socket.destroy()
  })
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      resolve({ url: `http://127.0.0.1:${port}`, server })
    })
  })
}

export function kubeConfig(server: string): KubeConfig {
  const kc = new KubeConfig()
  kc.loadFromOptions({
    clusters: [{ name: 'blackhole', server, skipTLSVerify: true }],
    users: [{ name: 'nobody' }],
    contexts: [{ name: 'blackhole', cluster: 'blackhole', user: 'nobody' }],
    currentContext: 'blackhole',
  })
  return kc
}
