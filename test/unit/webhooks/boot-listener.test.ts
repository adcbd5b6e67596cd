/** The start-up listener: health and readiness at once, everything else once the full listener loads. */
import { createServer, type RequestListener, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { bootListener } from '../../../src/webhooks/boot-listener'

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done))
})

async function serve(listener: RequestListener): Promise<string> {
  const server = createServer(listener)
  servers.push(server)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

function get(url: string, method = 'GET') {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(url, { method }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => {
        text += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
    })
    req.on('error', reject)
    req.end()
  })
}

const full: RequestListener = (_request, response) => {
  response.writeHead(200, { 'content-type': 'text/plain' })
  response.end('full')
}

describe('bootListener', () => {
  it('answers health and readiness without loading, and loads once for everything else', async () => {
    let loads = 0
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const boot = bootListener(async () => {
      loads++
      await gate
      return full
    })
    const url = await serve(boot.listener)
    expect(await get(`${url}/readyz`)).toEqual({ status: 200, text: '{"status":"ok"}' })
    expect((await get(`${url}/healthz`)).status).toBe(200)
    expect(loads).toBe(0)
    const waiting = [get(`${url}/validate`, 'POST'), get(`${url}/metrics`)]
    release()
    expect(await Promise.all(waiting)).toEqual([
      { status: 200, text: 'full' },
      { status: 200, text: 'full' },
    ])
    expect((await get(`${url}/readyz`)).text).toBe('full')
    expect(loads).toBe(1)
  })

  it('reports not ready as 503, and retries a failed load on the next request', async () => {
    let attempts = 0
    const boot = bootListener(
      async () => {
        attempts++
        if (attempts === 1) throw new Error('chunk missing')
        return full
      },
      () => false,
    )
    const url = await serve(boot.listener)
    expect((await get(`${url}/readyz`)).status).toBe(503)
    expect((await get(`${url}/validate`, 'POST')).status).toBe(500)
    expect((await get(`${url}/validate`, 'POST')).text).toBe('full')
    expect(attempts).toBe(2)
  })
})
