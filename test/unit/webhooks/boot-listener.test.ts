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
  it('answers health at once, is not ready until loaded, and loads once for everything else', async () => {
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
    expect((await get(`${url}/healthz`)).status).toBe(200)
    expect(loads).toBe(0)
    expect(await get(`${url}/readyz`)).toEqual({
      status: 503,
      text: '{"status":"not ready","failing":["handlers"]}',
    })
    const waiting = [get(`${url}/validate`, 'POST'), get(`${url}/metrics`)]
    release()
    expect(await Promise.all(waiting)).toEqual([
      { status: 200, text: 'full' },
      { status: 200, text: 'full' },
    ])
    expect((await get(`${url}/readyz`)).text).toBe('full')
    expect(loads).toBe(1)
  })

  it('stays not ready after a failed load, and the next probe or review retries it', async () => {
    let attempts = 0
    const boot = bootListener(async () => {
      attempts++
      if (attempts <= 2) throw new Error('chunk missing')
      return full
    })
    const url = await serve(boot.listener)
    await expect(boot.warm()).rejects.toThrow('chunk missing')
    expect((await get(`${url}/validate`, 'POST')).status).toBe(500)
    expect(attempts).toBe(2)
    expect((await get(`${url}/readyz`)).status).toBe(503)
    await boot.warm()
    expect(attempts).toBe(3)
    expect((await get(`${url}/readyz`)).text).toBe('full')
    expect((await get(`${url}/validate`, 'POST')).text).toBe('full')
  })
})
