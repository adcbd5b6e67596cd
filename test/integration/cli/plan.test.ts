/**
 * `machine-api plan` against the real apiserver: on a changed MachineDeployment it prints the
 * sequence the controllers then perform. The plan runs first (read-only), then the manifest is
 * applied and the real MachineDeployment and MachineSet reconcilers carry it out while the test
 * plays the Machine controller; the recorded steps must equal the printed ones.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { stringify } from 'yaml'
import type { PlanEntry, PlanReport } from '../../../src/cli/plan/steps'
import type { KubeClient } from '../../../src/kube/kube-client'
import type { KubeObject } from '../../../src/kube/resource'
import type { ReconcileDeps } from '../../../src/reconcile/runtime/controller'
import { kubectl } from '../../harness/kube'
import { kubectlApply, useFileNamespace, useMachineApi } from '../../harness/machine-api'
import { deploymentManifest, driveUntil, rolledOut } from '../machine-deployment/drive'
import { countingKube, testDeps } from '../machine-set/fixture'
import { type RecordedEntry, recordRollout } from './record-rollout'

/** True for a placeholder name of a Machine the plan would create (`<set>-<new-n>`). */
const isNewMachineName = (name: string) => /-<new-[0-9]+>$/.test(name)

const execFileAsync = promisify(execFile)
const api = useMachineApi()
const ns = useFileNamespace(() => api().kc, 'cli-plan')
let kube: KubeClient
let deps: ReconcileDeps
let dir: string

beforeAll(() => {
  kube = countingKube(api().kc).kube
  deps = testDeps(kube)
  dir = mkdtempSync(join(tmpdir(), 'machine-api-plan-'))
})
afterAll(() => {
  kube.close()
  rmSync(dir, { recursive: true, force: true })
})

interface Rollout {
  name: string
  replicas: number
  maxSurge: number | string
  maxUnavailable: number | string
}
function manifest(r: Rollout, machineClass: string): KubeObject {
  return deploymentManifest(ns(), r.name, {
    replicas: r.replicas,
    revisionHistoryLimit: 1,
    strategy: {
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: r.maxSurge, maxUnavailable: r.maxUnavailable },
    },
    template: { metadata: { labels: { md: r.name } }, spec: { classRef: { name: machineClass } } },
  })
}

/**
 * The bundled CLI (`dist/cli.js`, what ships; `npm test` builds it first, as the chaos scenarios'
 * worker): under tsx each run compiled the CLI anew, several seconds of the test's time.
 */
const cliBundle = fileURLToPath(new URL('../../../dist/cli.js', import.meta.url))

async function plan(file: string, output: 'text' | 'json'): Promise<string> {
  const args = ['plan', '-f', file, '--kubeconfig', inject('kubeconfigPath'), '-o', output]
  const { stdout } = await execFileAsync(process.execPath, [cliBundle, ...args], {
    encoding: 'utf8',
  })
  return stdout
}

// Machines of a set created during the rollout get uid-derived names: compare them by set only.
const order = ['create-set', 'scale-set', 'delete-set', 'create-machine', 'delete-machine']
function canonical(entries: RecordedEntry[]): RecordedEntry[] {
  return [...entries].sort(
    (a, b) =>
      order.indexOf(a.type) - order.indexOf(b.type) ||
      JSON.stringify(a).localeCompare(JSON.stringify(b)),
  )
}
function fromPlan(entry: PlanEntry): RecordedEntry {
  switch (entry.type) {
    case 'create-set':
    case 'scale-set':
    case 'delete-set':
      return entry
    case 'create-machine':
    case 'delete-machine': {
      const machine = isNewMachineName(entry.machine) ? `${entry.set}-<new>` : entry.machine
      return { type: entry.type, set: entry.set, machine }
    }
    default:
      throw new Error(`unexpected plan entry ${JSON.stringify(entry)}`)
  }
}

describe('machine-api plan', () => {
  it.each<Rollout>([
    { name: 'surge-one-unavailable-one', replicas: 3, maxSurge: 1, maxUnavailable: 1 },
    { name: 'surge-half-unavailable-none', replicas: 4, maxSurge: '50%', maxUnavailable: 0 },
  ])(
    'prints for a changed MachineDeployment the sequence the controllers then perform ($name)',
    async (r) => {
      const name = r.name
      await kubectlApply([manifest(r, 'class-a')])
      await driveUntil(deps, ns(), name, (md) => rolledOut(md))
      await kubectlApply([manifest(r, 'class-b')])
      await driveUntil(
        deps,
        ns(),
        name,
        (md, sets) =>
          rolledOut(md) && sets.every((s) => (s.status?.replicas ?? 0) === (s.spec.replicas ?? 0)),
      )

      const file = join(dir, `${name}.yaml`)
      writeFileSync(file, stringify(manifest(r, 'class-c')))
      const before = await kubectl([
        'get',
        'machinedeployments.machine-api.dev',
        name,
        '-n',
        ns(),
        '-o',
        'json',
      ])
      const [json, text] = await Promise.all([plan(file, 'json'), plan(file, 'text')])
      const report = JSON.parse(json) as PlanReport
      // Read-only: planning changed nothing.
      const after = await kubectl([
        'get',
        'machinedeployments.machine-api.dev',
        name,
        '-n',
        ns(),
        '-o',
        'json',
      ])
      expect(after.stdout).toBe(before.stdout)

      await kubectlApply([manifest(r, 'class-c')])
      const { steps, setsBefore } = await recordRollout(deps, ns(), name)
      const performed = steps.map((step) =>
        canonical(
          step.map((e) =>
            e.type.endsWith('-machine') && !setsBefore.has(e.set) && 'machine' in e
              ? { ...e, machine: `${e.set}-<new>` }
              : e,
          ),
        ),
      )
      // The old set's outdated mark (annotation updates of it and its Machines) is not recorded.
      const replicaEntries = (step: PlanReport['steps'][number]) =>
        step.entries.filter((e) => e.type !== 'update-set' && e.type !== 'update-machine')
      const planned = report.steps
        .map((step) => canonical(replicaEntries(step).map(fromPlan)))
        .filter((step) => step.length > 0)
      expect(performed).toEqual(planned)

      // The rollout is non-trivial: a new set, every old Machine replaced, history trimmed.
      const flat = planned.flat()
      expect(flat.filter((e) => e.type === 'create-machine')).toHaveLength(r.replicas)
      expect(flat.filter((e) => e.type === 'delete-machine')).toHaveLength(r.replicas)
      expect(flat.some((e) => e.type === 'delete-set')).toBe(true)
      expect(report.converged).toBe(true)
      // The text form lists the same steps.
      expect(text).toContain(`: ${report.steps.length} steps`)
      expect(text.match(/^Step [0-9]+:$/gm)).toHaveLength(report.steps.length)
    },
  )
})
