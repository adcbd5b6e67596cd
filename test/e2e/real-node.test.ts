/**
 * The real test node runs the machine-api image as the manifests ask, with the kubelet enforcing
 * the security context, its pods reach the apiserver through the `kubernetes` Service, and stopping
 * it leaves nothing on the host.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type E2eCluster, startE2eCluster } from '../harness/node/e2e-cluster'
import { nodeNetwork } from '../harness/node/node-config'

let cluster: E2eCluster

beforeAll(async () => {
  cluster = await startE2eCluster()
}, 300_000)

afterAll(async () => {
  const dir = cluster?.node.dir
  await cluster?.stop()
  if (!dir) return
  // Nothing of the node is left: no process, mount, link or iptables chain.
  const processes = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
  expect(processes).not.toContain(dir)
  expect(readFileSync('/proc/mounts', 'utf8')).not.toContain(dir)
  const links = execFileSync('ip', ['-o', 'link'], { encoding: 'utf8' })
  expect(links).not.toContain(nodeNetwork.bridge)
  expect(links).not.toContain(nodeNetwork.hostLink)
  const rules = execFileSync('iptables-save', { encoding: 'utf8' })
  expect(rules).not.toMatch(/^:(KUBE|CNI)-/m)
}, 120_000)

/** The manifests' container securityContext (infra/base/webhook-deployment.yaml). */
const restricted = {
  allowPrivilegeEscalation: false,
  readOnlyRootFilesystem: true,
  runAsNonRoot: true,
  capabilities: { drop: ['ALL'] },
  seccompProfile: { type: 'RuntimeDefault' },
}

function pod(name: string, script: string, securityContext: object, podSecurity: object) {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: {
      nodeName: cluster.node.name,
      restartPolicy: 'Never',
      securityContext: podSecurity,
      containers: [
        {
          name: 'main',
          image: `${cluster.image.name}:${cluster.image.tag}`,
          args: ['-e', script],
          securityContext,
        },
      ],
    },
  })
}

async function waitForPhase(name: string, phases: string[]): Promise<string> {
  for (let i = 0; i < 240; i++) {
    const phase = await cluster.kubectl(['get', 'pod', name, '-o', 'jsonpath={.status.phase}'])
    if (phases.includes(phase)) return phase
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error(`pod ${name} never reached ${phases.join('/')}`)
}

describe('a real node', () => {
  it('runs the image as uid 1000 on a read-only root filesystem without privilege escalation', async () => {
    const script = `
      const fs = require('node:fs')
      let write = 'written'
      try { fs.writeFileSync('/app/x', 'x') } catch (e) { write = e.code }
      const noNewPrivs = /NoNewPrivs:\\s*(\\d)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]
      console.log(JSON.stringify({ uid: process.getuid(), gid: process.getgid(), write, noNewPrivs }))`
    await cluster.kubectl(
      ['apply', '-f', '-'],
      pod('restricted', script, restricted, { runAsUser: 1000, runAsGroup: 1000 }),
    )
    expect(await waitForPhase('restricted', ['Succeeded', 'Failed'])).toBe('Succeeded')
    const out = JSON.parse(await cluster.kubectl(['logs', 'restricted']))
    expect(out).toEqual({ uid: 1000, gid: 1000, write: 'EROFS', noNewPrivs: '1' })
  })

  it('refuses to start the image as root when the pod says runAsNonRoot', async () => {
    await cluster.kubectl(
      ['apply', '-f', '-'],
      pod('as-root', 'console.log(1)', restricted, { runAsUser: 0 }),
    )
    let reason = ''
    for (let i = 0; i < 120 && !reason; i++) {
      reason = await cluster.kubectl([
        'get',
        'pod',
        'as-root',
        '-o',
        'jsonpath={.status.containerStatuses[0].state.waiting.message}',
      ])
      if (!reason) await new Promise((resolve) => setTimeout(resolve, 500))
    }
    expect(reason).toMatch(/runAsUser breaks non-root policy/)
  })

  it("reaches the apiserver from a pod through the kubernetes Service with the pod's ServiceAccount", async () => {
    const script = `
      const https = require('node:https'), fs = require('node:fs')
      const sa = '/var/run/secrets/kubernetes.io/serviceaccount/'
      https.get({ host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT,
        path: '/version', ca: fs.readFileSync(sa + 'ca.crt'),
        headers: { authorization: 'Bearer ' + fs.readFileSync(sa + 'token', 'utf8') } }, (res) => {
        let body = ''; res.on('data', (c) => body += c)
        res.on('end', () => console.log(JSON.stringify({ status: res.statusCode, version: JSON.parse(body).gitVersion })))
      }).on('error', (e) => { console.log(JSON.stringify({ error: e.message })); process.exitCode = 1 })`
    await cluster.kubectl(['apply', '-f', '-'], pod('api', script, restricted, { runAsUser: 1000 }))
    await waitForPhase('api', ['Succeeded', 'Failed'])
    const out = JSON.parse(await cluster.kubectl(['logs', 'api']))
    expect(out).toEqual({ status: 200, version: cluster.controlPlane.version })
  })
})
