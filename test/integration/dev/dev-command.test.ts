/**
 * `npm run dev` as a user runs it: the lines scripts rely on, 3 Running Machines backed by moto
 * instances, what running cluster-autoscaler against it needs, a deleted Machine replaced and its
 * instance terminated, `kubectl scale` on the MachineDeployment, and a Ctrl-C that logs no warning
 * and leaves no process and no listening port behind.
 */
import { execFile, spawn } from 'node:child_process'
import { createConnection } from 'node:net'
import { dirname } from 'node:path'
import { promisify } from 'node:util'
import { DescribeInstancesCommand, EC2Client } from '@aws-sdk/client-ec2'
import { expect, it } from 'vitest'
import { waitFor } from '../../harness/kube'

const execFileAsync = promisify(execFile)

interface MachineJson {
  metadata: { name: string; uid: string }
  spec: { providerID?: string }
  status?: { phase?: string; nodeRef?: { name: string } }
}

async function processesMentioning(text: string): Promise<string[]> {
  const { stdout } = await execFileAsync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
  return stdout.split('\n').filter((line) => line.includes(text) && !line.includes('ps -eo'))
}

async function portOpen(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return await new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port) })
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}

it('runs the demo end to end and stops cleanly on SIGINT', async () => {
  const dev = spawn('bash', ['scripts/dev.sh'], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  for (const stream of [dev.stdout, dev.stderr]) {
    stream.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
  }
  const exited = new Promise<number | null>((resolve) => dev.once('exit', (code) => resolve(code)))
  try {
    const [kubeconfig, kubectlPath, endpoint] = await waitFor(
      'KUBECONFIG, KUBECTL and EC2_ENDPOINT lines',
      () => {
        const values = ['KUBECONFIG', 'KUBECTL', 'EC2_ENDPOINT'].map(
          (name) => new RegExp(`^${name}=(.+)$`, 'm').exec(output)?.[1],
        )
        return values.every(Boolean) ? (values as [string, string, string]) : undefined
      },
      { timeoutMs: 180_000 },
    )
    const kubectl = async (...args: string[]) =>
      (await execFileAsync(kubectlPath, ['--kubeconfig', kubeconfig, '-n', 'demo', ...args])).stdout
    const { stdout: version } = await execFileAsync(kubectlPath, [
      '--kubeconfig',
      kubeconfig,
      'get',
      '--raw',
      '/version',
    ])
    expect(JSON.parse(version).gitVersion).toBe('v1.37.2')
    const machines = async () =>
      (JSON.parse(await kubectl('get', 'machines', '-o', 'json')).items as MachineJson[]) ?? []
    const running = async (count: number) => {
      const all = await machines()
      const up = all.filter((m) => m.status?.phase === 'Running' && m.status.nodeRef)
      return all.length === count && up.length === count ? up : undefined
    }

    const initial = await waitFor('3 Running Machines with Nodes', () => running(3), {
      timeoutMs: 180_000,
    })
    expect(output).toMatch(/NAME\s+PHASE\s+NODE\s+PROVIDERID/)
    // cluster-autoscaler can be run against the demo as docs/machine-sets.md says: its role is
    // installed, its binary built, and the simulated EC2 Nodes carry the labels a kubelet and the
    // cloud node controller set.
    expect(output).toMatch(/^CLUSTER_AUTOSCALER=.+\/cluster-autoscaler$/m)
    expect(
      await kubectl('get', 'clusterrole', 'machine-api:cluster-autoscaler', '-o', 'name'),
    ).toBe('clusterrole.rbac.authorization.k8s.io/machine-api:cluster-autoscaler\n')
    const node = JSON.parse(
      await kubectl('get', 'node', initial[0]?.status?.nodeRef?.name ?? '', '-o', 'json'),
    )
    expect(node.metadata.labels).toMatchObject({
      'kubernetes.io/os': 'linux',
      'topology.kubernetes.io/region': 'eu-west-1',
    })

    const victim = initial[0] as MachineJson
    const instanceId = victim.spec.providerID?.split('/').pop() ?? ''
    await kubectl('delete', 'machine', victim.metadata.name, '--wait=false')
    const ec2 = new EC2Client({
      region: 'eu-west-1',
      endpoint,
      credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    })
    await waitFor(
      'replacement Running and the old instance terminated',
      async () => {
        const replaced = await running(3)
        const described = await ec2.send(
          new DescribeInstancesCommand({ InstanceIds: [instanceId] }),
        )
        const state = described.Reservations?.[0]?.Instances?.[0]?.State?.Name
        return (
          // The replacement may reuse the name (deterministic slot names), never the UID.
          replaced?.every((m) => m.metadata.uid !== victim.metadata.uid) &&
          (state === 'terminated' || state === 'shutting-down')
        )
      },
      { timeoutMs: 120_000 },
    )
    ec2.destroy()

    await kubectl('scale', 'machinedeployment', 'workers', '--replicas=4')
    await waitFor('4 Running Machines', () => running(4), { timeoutMs: 120_000 })

    const workDir = dirname(kubeconfig)
    const server = JSON.parse(await kubectl('config', 'view', '-o', 'json', '--minify')).clusters[0]
      .cluster.server as string
    expect(await portOpen(server)).toBe(true)
    dev.kill('SIGINT')
    expect(await exited).toBe(0)
    // A clean stop warns about nothing (the worker stops its watches and lets their mappings
    // finish before the control plane goes; pino's warn and error levels are 40 and 50).
    const stopping = output.slice(output.indexOf('SIGINT: stopping'))
    expect(stopping.split('\n').filter((line) => /"level":(40|50)/.test(line))).toEqual([])
    expect(await processesMentioning(workDir)).toEqual([])
    // This demo's moto only (by its port): other runs on the machine may have their own.
    const motoPort = new URL(endpoint).port
    expect(await processesMentioning(`moto_server -H 127.0.0.1 -p ${motoPort}`)).toEqual([])
    expect(await portOpen(server)).toBe(false)
    expect(await portOpen(endpoint)).toBe(false)
  } finally {
    dev.kill('SIGKILL')
  }
}, 600_000)
