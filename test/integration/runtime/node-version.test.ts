/**
 * Every process of a test run is on the project's one runtime, the Node 24 that
 * scripts/node24.sh pins (scripts/use-node24.sh puts it first on PATH): the vitest worker running
 * this file, the bundled worker started as the harness starts its children (process.execPath),
 * the `node` and `npm` the harness's scripts find on PATH, and the npm that started vitest.
 */
import { execFile, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterEach, describe, expect, inject, it } from 'vitest'
import { freePort } from '../../harness/controlplane/free-port'
import { waitFor } from '../../harness/kube'

const execFileAsync = promisify(execFile)
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url))
const pinned = /^version="(24\.\d+\.\d+)"$/m.exec(
  readFileSync(`${repoRoot}/scripts/node24.sh`, 'utf8'),
)?.[1]
const stops: Array<() => void> = []
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
})

describe('the runtime of a test run', { timeout: 60_000 }, () => {
  it('pins a Node 24 in scripts/node24.sh', () => {
    expect(pinned).toMatch(/^24\./)
  })

  it('runs this vitest worker on it', () => {
    expect(process.version).toBe(`v${pinned}`)
  })

  it('runs the bundled worker the harness starts on it (its nodejs_version_info metric)', async () => {
    const port = await freePort()
    const child = spawn(
      process.execPath,
      [`${repoRoot}/dist/worker.js`, '--bus', 'in-process', '--controllers', 'machineset'],
      {
        env: {
          ...process.env,
          KUBECONFIG: inject('kubeconfigPath'),
          PORT: String(port),
          SWEEP_PERIOD_SECONDS: '0',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    )
    stops.push(() => child.kill('SIGKILL'))
    const metrics = await waitFor(
      'the worker to answer /metrics',
      async () => {
        const res = await fetch(`http://127.0.0.1:${port}/metrics`).catch(() => undefined)
        return res?.status === 200 ? await res.text() : undefined
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    )
    expect(metrics).toMatch(new RegExp(`^nodejs_version_info\\{version="v${pinned}"`, 'm'))
  })

  it('puts it first on PATH: the node and npm the harness scripts run, and npm runs on it', async () => {
    const node = await execFileAsync('node', ['--version'])
    expect(node.stdout.trim()).toBe(`v${pinned}`)
    // npm exec sets the user agent of the npm that runs it, naming the node it runs on.
    const npm = await execFileAsync('npm', ['exec', '-c', 'echo "$npm_config_user_agent"'], {
      cwd: repoRoot,
    })
    expect(npm.stdout).toContain(`node/v${pinned} `)
  })

  it('was started by an npm on it (npx vitest in scripts/test.sh)', () => {
    expect(process.env.npm_config_user_agent).toContain(`node/v${pinned} `)
  })
})
