/** @module Polls the apiserver until it reports ready, failing fast when a component dies. */
import { existsSync, readFileSync } from 'node:fs'
import { request } from 'node:https'
import { setTimeout as delay } from 'node:timers/promises'
import type { SupervisedProcess } from './supervised-process'

interface ApiserverAccess {
  server: string
  token: string
  caPath: string
}

/** GETs `path` from the apiserver and returns the body; rejects on a non-2xx status. */
export async function apiserverGet(access: ApiserverAccess, path: string): Promise<string> {
  const ca = readFileSync(access.caPath)
  return await new Promise((resolve, reject) => {
    const req = request(
      `${access.server}${path}`,
      { ca, headers: { authorization: `Bearer ${access.token}` }, timeout: 5000 },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          body += chunk
        })
        res.on('end', () => {
          const status = res.statusCode ?? 0
          if (status >= 200 && status < 300) resolve(body)
          else reject(new Error(`GET ${path}: ${status} ${body.slice(0, 500)}`))
        })
      },
    )
    req.on('timeout', () => req.destroy(new Error(`GET ${path}: timed out`)))
    req.on('error', reject)
    req.end()
  })
}

/** Waits for `/readyz` (up to `timeoutMs`), throwing with the component's log tail if one exits. */
export async function waitForReadyz(
  options: ApiserverAccess & {
    processes: SupervisedProcess[]
    apiserver: SupervisedProcess
    timeoutMs?: number
  },
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 120_000)
  let lastError = 'not started'
  while (Date.now() < deadline) {
    const dead = options.processes.find((p) => !p.isRunning())
    if (dead) throw new Error(`${dead.name} exited during start:\n${dead.tail()}`)
    if (existsSync(options.caPath)) {
      try {
        await apiserverGet(options, '/readyz')
        return
      } catch (error) {
        lastError = (error as Error).message
      }
    }
    await delay(250)
  }
  throw new Error(`kube-apiserver not ready: ${lastError}\n${options.apiserver.tail()}`)
}
