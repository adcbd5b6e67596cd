/** `npm run dev` as a user runs it: the two lines scripts rely on, a working kubectl, a clean Ctrl-C. */
import { execFile, spawn } from 'node:child_process'
import { dirname } from 'node:path'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
import { waitFor } from '../../harness/kube'

const execFileAsync = promisify(execFile)

async function processesMentioning(text: string): Promise<string[]> {
  const { stdout } = await execFileAsync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
  return stdout.split('\n').filter((line) => line.includes(text) && !line.includes('ps -eo'))
}

it('prints KUBECONFIG and KUBECTL, serves kubectl, and leaves no process behind after SIGINT', async () => {
  const dev = spawn('bash', ['scripts/dev.sh'], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  dev.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  dev.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  const exited = new Promise<number | null>((resolve) => dev.once('exit', (code) => resolve(code)))
  try {
    const [kubeconfig, kubectl] = await waitFor(
      'KUBECONFIG and KUBECTL lines',
      () => {
        const kc = /^KUBECONFIG=(.+)$/m.exec(output)?.[1]
        const kctl = /^KUBECTL=(.+)$/m.exec(output)?.[1]
        return kc && kctl ? [kc, kctl] : undefined
      },
      { timeoutMs: 120_000 },
    )
    const { stdout } = await execFileAsync(kubectl, [
      '--kubeconfig',
      kubeconfig,
      'get',
      '--raw',
      '/version',
    ])
    expect(JSON.parse(stdout).gitVersion).toBe('v1.37.2')
    const workDir = dirname(kubeconfig)
    expect((await processesMentioning(workDir)).length).toBeGreaterThan(0)

    dev.kill('SIGINT')
    expect(await exited).toBe(0)
    expect(await processesMentioning(workDir)).toEqual([])
  } finally {
    dev.kill('SIGKILL')
  }
})
