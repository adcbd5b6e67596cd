/**
 * Static checks on the install manifests (parsed from the files, no kubectl): every container of
 * every Deployment, CronJob and Knative Service is locked down and sized, every overlay builds on
 * the base with the image placeholder, and no role grants wildcards or Secret access beyond `get`
 * for the Machine and MachineClass controllers and the orphan sweep.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'

const infra = join(import.meta.dirname, '..', '..', '..', 'infra')
const overlays = ['plain', 'knative', 'jetstream']

type Obj = {
  apiVersion?: string
  kind?: string
  metadata?: { name?: string }
  spec?: Record<string, unknown>
  rules?: Array<{ apiGroups?: string[]; resources?: string[]; verbs?: string[] }>
}
type Container = {
  name: string
  image?: string
  env?: Array<{ name: string; value?: string }>
  securityContext?: Record<string, unknown>
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> }
}
type PodSpec = { containers: Container[]; securityContext?: Record<string, unknown> }

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) return yamlFiles(path)
    return entry.endsWith('.yaml') && entry !== 'kustomization.yaml' ? [path] : []
  })
}

function objects(dirs: string[]): Array<{ file: string; obj: Obj }> {
  return dirs.flatMap((dir) =>
    yamlFiles(dir).flatMap((file) =>
      parseAllDocuments(readFileSync(file, 'utf8'))
        .map((doc) => doc.toJS() as Obj | null)
        .filter((obj): obj is Obj => obj !== null)
        .map((obj) => ({ file: relative(infra, file), obj })),
    ),
  )
}

/** The Pod spec of a workload, or undefined for other kinds. */
function podSpec(obj: Obj): PodSpec | undefined {
  const spec = obj.spec as Record<string, unknown> | undefined
  if (obj.kind === 'Deployment') return (spec?.template as { spec: PodSpec } | undefined)?.spec
  if (obj.kind === 'CronJob') {
    const job = spec?.jobTemplate as { spec: { template: { spec: PodSpec } } } | undefined
    return job?.spec.template.spec
  }
  if (obj.kind === 'ContainerSource') return (spec?.template as { spec: PodSpec } | undefined)?.spec
  if (obj.kind === 'Service' && obj.apiVersion?.startsWith('serving.knative.dev/'))
    return (spec?.template as { spec: PodSpec } | undefined)?.spec
  return undefined
}

const all = objects([join(infra, 'base'), join(infra, 'rbac'), join(infra, 'overlays')])
const workloads = all.flatMap(({ file, obj }) => {
  const pod = podSpec(obj)
  return pod ? [{ file, obj, pod }] : []
})
const containers = workloads.flatMap(({ file, obj, pod }) =>
  pod.containers.map((container) => ({
    label: `${file} ${obj.kind}/${obj.metadata?.name} ${container.name}`,
    kind: obj.kind,
    container,
  })),
)

describe('workloads', () => {
  it('covers the webhook and each overlay', () => {
    const names = workloads.map(({ file, obj }) => `${file}:${obj.metadata?.name}`)
    expect(names).toEqual(
      expect.arrayContaining([
        'base/webhook-deployment.yaml:machine-api-webhook',
        'overlays/plain/worker-deployment.yaml:machine-api-worker',
        'overlays/plain/sweep-cronjob.yaml:machine-api-sweep',
        'overlays/knative/reconcile-service.yaml:machine-api-reconcile',
        'overlays/jetstream/worker-deployment.yaml:machine-api-worker',
        'overlays/jetstream/bridge-deployment.yaml:machine-api-watch-bridge',
        'overlays/jetstream/sweep-cronjob.yaml:machine-api-sweep',
        'overlays/plain/ec2-notices-deployment.yaml:machine-api-ec2-notices',
        'overlays/jetstream/ec2-notices-deployment.yaml:machine-api-ec2-notices',
        'overlays/knative/ec2-notices-source.yaml:machine-api-ec2-notices',
      ]),
    )
  })

  it.each(containers)('$label runs non-root, read-only, without capabilities', ({ container }) => {
    expect(container.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    })
    expect(container.securityContext).not.toHaveProperty('privileged', true)
  })

  it.each(containers)('$label has requests and limits for cpu and memory', ({ container }) => {
    for (const bound of ['requests', 'limits'] as const) {
      expect(container.resources?.[bound]).toHaveProperty('cpu')
      expect(container.resources?.[bound]).toHaveProperty('memory')
    }
  })

  it.each(workloads.filter(({ obj }) => obj.kind !== 'Service'))(
    '$file $obj.kind/$obj.metadata.name sets a restricted Pod security context',
    ({ pod }) => {
      expect(pod.securityContext).toMatchObject({
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      })
    },
  )

  it.each(containers.filter(({ container }) => container.image?.includes('machine-api') ?? true))(
    '$label uses the image placeholder kustomize replaces',
    ({ container }) => {
      expect(container.image).toBe('machine-api')
    },
  )
})

/** A Kubernetes quantity in MiB ("512Mi", "1Gi"). */
function mebibytes(quantity: string | undefined): number {
  const match = /^(\d+)(Mi|Gi)$/.exec(quantity ?? '')
  if (!match) throw new Error(`not a Mi/Gi quantity: ${quantity}`)
  return Number(match[1]) * (match[2] === 'Gi' ? 1024 : 1)
}

describe('sweep heap caps', () => {
  const sweeps = containers.filter(({ label }) => label.includes('CronJob/machine-api-sweep'))

  // The caps keep the sweep's heap near its live set (docs/benchmarks.md, scale-memory); a heap
  // allowed past the container limit would end in an OOM kill instead of a collection.
  it.each(sweeps)('$label caps its heap below its memory limit', ({ container }) => {
    const options = container.env?.find((e) => e.name === 'NODE_OPTIONS')?.value ?? ''
    const oldSpace = Number(/--max-old-space-size=(\d+)/.exec(options)?.[1])
    expect(oldSpace).toBeGreaterThan(0)
    expect(options).toMatch(/--max-semi-space-size=\d+/)
    expect(oldSpace).toBeLessThanOrEqual(mebibytes(container.resources?.limits?.memory) / 2)
  })

  it('is the same in every overlay that runs the sweep', () => {
    const options = sweeps.map(
      ({ container }) => container.env?.find((e) => e.name === 'NODE_OPTIONS')?.value,
    )
    expect(options).toHaveLength(2)
    expect(new Set(options).size).toBe(1)
  })
})

describe.each(overlays)('overlay %s', (overlay) => {
  const kustomization = parseAllDocuments(
    readFileSync(join(infra, 'overlays', overlay, 'kustomization.yaml'), 'utf8'),
  )[0]?.toJS() as { resources: string[]; images: Array<Record<string, string>> }

  it('builds on the base and pins the image', () => {
    expect(kustomization.resources).toContain('../../base')
    expect(kustomization.images).toEqual([
      { name: 'machine-api', newName: 'ghcr.io/machine-api/machine-api', newTag: '0.1.0' },
    ])
  })
})

describe('RBAC', () => {
  const roles = all.filter(({ obj }) => obj.kind === 'ClusterRole' || obj.kind === 'Role')

  it.each(roles.map(({ file, obj }) => ({ name: obj.metadata?.name, file, obj })))(
    '$name grants no wildcard',
    ({ obj }) => {
      for (const rule of obj.rules ?? []) {
        expect(rule.apiGroups ?? []).not.toContain('*')
        expect(rule.resources ?? []).not.toContain('*')
        expect(rule.verbs ?? []).not.toContain('*')
      }
    },
  )

  // The Machine controller reads provider credentials and user data; the orphan sweep and the
  // MachineClass controller (capacity lookups) and the status-check pass read the MachineClasses'
  // credentials. All by name
  // only: nobody may list or watch Secrets.
  it('lets only the Machine and MachineClass controllers, the orphan sweep and the status-check pass read Secrets, by name', () => {
    const secretRules = roles.flatMap(({ obj }) =>
      (obj.rules ?? [])
        .filter((rule) => rule.resources?.includes('secrets'))
        .map((rule) => ({ role: obj.metadata?.name, verbs: rule.verbs })),
    )
    expect(secretRules).toEqual([
      { role: 'machine-api:machine-controller', verbs: ['get'] },
      { role: 'machine-api:machineclass-controller', verbs: ['get'] },
      { role: 'machine-api:orphan-sweep', verbs: ['get'] },
      { role: 'machine-api:status-check-sweep', verbs: ['get'] },
    ])
  })

  it('binds nothing to cluster-admin', () => {
    const bindings = all.filter(({ obj }) => obj.kind?.endsWith('Binding'))
    for (const { obj } of bindings) {
      expect((obj as { roleRef?: { name?: string } }).roleRef?.name).not.toBe('cluster-admin')
    }
  })
})
