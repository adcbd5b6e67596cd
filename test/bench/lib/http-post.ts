/** @module HTTPS requests trusting a given CA: a JSON POST to check a body, a GET for /metrics. */
import { request } from 'node:https'

/** POSTs `body` to `url`; resolves with the status and the parsed JSON answer. */
export async function postJson(
  url: string,
  body: string,
  ca: Buffer,
): Promise<{ status: number; json: unknown }> {
  return await new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', ca, agent: false, headers: { 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString()
          try {
            resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) })
          } catch {
            reject(new Error(`${url}: answer is not JSON: ${text.slice(0, 200)}`))
          }
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** GETs `url` and resolves with the body as text (e.g. /metrics). */
export async function getText(url: string, ca: Buffer): Promise<string> {
  return await new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', ca, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve(Buffer.concat(chunks).toString()))
    })
    req.on('error', reject)
    req.end()
  })
}
