/**
 * RBAC per function, checked with `kubectl auth can-i` against the real apiserver: each
 * ServiceAccount of the plain and jetstream overlays can do exactly what its function needs and is
 * refused the rest. The RBAC objects of each overlay are applied for real, renamed for isolation
 * (ClusterRoles/Bindings get a unique prefix per overlay, ServiceAccounts a unique namespace per
 * overlay) and deleted afterwards.
 *
 * `kubectl auth can-i` resolves a resource through discovery; for a resource the server does not
 * serve it silently asks about the wrong group. So the machine-api CRDs must be served: this file
 * installs them like every other (useMachineApi).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseAllDocuments, stringify } from 'yaml'
import { kubectl, waitFor } from '../../harness/kube'
import { useMachineApi } from '../../harness/machine-api'
import { kubectlStatus, renderOverlay, suffix, tempManifest } from './manifests'

const id = suffix()
const overlays = {
  plain: { namespace: `machine-api-rbac-${id}`, prefix: `machine-api-${id}` },
  jetstream: { namespace: `machine-api-rbac-js-${id}`, prefix: `machine-api-js-${id}` },
}
type Overlay = keyof typeof overlays
const namespace = overlays.plain.namespace
const label = `machine-api.dev/rbac-test=${id}`
const rbacKinds = new Set([
  'ServiceAccount',
  'ClusterRole',
  'ClusterRoleBinding',
  'Role',
  'RoleBinding',
])
const crdNames = [
  'machines',
  'machinesets',
  'machinedeployments',
  'machinehealthchecks',
  'machineclasses',
].map((plural) => `crd/${plural}.machine-api.dev`)
const controllerRoles = [
  'machine',
  'machineset',
  'machinedeployment',
  'machinehealthcheck',
  'machineclass',
]

type Doc = { kind: string; metadata: { name: string; labels?: Record<string, string> } }

/** The RBAC objects of the rendered overlay, isolated under this test's names for it. */
function isolatedRbac(rendered: string, overlay: Overlay): string {
  const { namespace, prefix } = overlays[overlay]
  const docs = parseAllDocuments(rendered)
    .map((d) => d.toJS() as Doc)
    .filter((d) => rbacKinds.has(d.kind))
  const text = docs
    .map((d) => {
      d.metadata.labels = { ...d.metadata.labels, 'machine-api.dev/rbac-test': id }
      return stringify(d)
    })
    .join('---\n')
  return text
    .replaceAll('machine-api-system', namespace)
    .replaceAll('name: machine-api:', `name: ${prefix}:`)
    .replaceAll('aggregate-to-remediation', `aggregate-to-remediation-${id}`)
}

function sa(name: string, overlay: Overlay = 'plain'): string {
  return `system:serviceaccount:${overlays[overlay].namespace}:${name}`
}

/** `kubectl auth can-i` as `user`: true for "yes", false for "no". */
async function canI(user: string, verb: string, resource: string): Promise<boolean> {
  const [plural, subresource] = resource.split('/')
  const userNamespace = user.split(':')[2] ?? namespace
  const args = ['auth', 'can-i', verb, plural ?? resource, '--as', user, '-n', userNamespace]
  if (subresource) args.push(`--subresource=${subresource}`)
  const result = await kubectlStatus(args)
  if (result.stdout.trim() !== 'yes' && result.stdout.trim() !== 'no')
    throw new Error(`kubectl auth can-i ${args.join(' ')}: ${result.stderr}`)
  return result.stdout.trim() === 'yes'
}

// The CRDs as every other file installs them (conversion by URL to a test webhook server): a
// separate install of infra/crds (conversion by Service) left CRDs that the next file's server-side
// apply could not take over ("exactly one of url or service is required").
useMachineApi()

beforeAll(async () => {
  const rendered = {
    plain: await renderOverlay('infra/overlays/plain'),
    jetstream: await renderOverlay('infra/overlays/jetstream'),
  }
  await kubectl(['wait', '--for=condition=Established', '--timeout=60s', ...crdNames])
  for (const overlay of ['plain', 'jetstream'] as const) {
    await kubectl(['create', 'namespace', overlays[overlay].namespace])
    const file = tempManifest(isolatedRbac(rendered[overlay], overlay))
    try {
      await kubectl(['apply', '-f', file.path])
    } finally {
      file.cleanup()
    }
  }
  // One ServiceAccount per controller role alone: a deployment split by --controllers.
  for (const role of controllerRoles) {
    await kubectl(['create', 'serviceaccount', `only-${role}`, '-n', namespace])
    await kubectl([
      'create',
      'clusterrolebinding',
      `machine-api-${id}:only-${role}`,
      `--clusterrole=machine-api-${id}:${role}-controller`,
      `--serviceaccount=${namespace}:only-${role}`,
    ])
    await kubectl(['label', 'clusterrolebinding', `machine-api-${id}:only-${role}`, label])
  }
  // cluster-autoscaler's ServiceAccount, bound as docs/machine-sets.md says.
  await kubectl(['create', 'serviceaccount', 'cluster-autoscaler', '-n', namespace])
  await kubectl([
    'create',
    'clusterrolebinding',
    `machine-api-${id}:cluster-autoscaler`,
    `--clusterrole=machine-api-${id}:cluster-autoscaler`,
    `--serviceaccount=${namespace}:cluster-autoscaler`,
  ])
  await kubectl(['label', 'clusterrolebinding', `machine-api-${id}:cluster-autoscaler`, label])
})

afterAll(async () => {
  await kubectlStatus(['delete', 'clusterrolebinding,clusterrole', '-l', label, '--wait=false'])
  for (const { namespace } of Object.values(overlays)) {
    await kubectlStatus(['delete', 'namespace', namespace, '--wait=false'])
  }
})

const machines = 'machines.machine-api.dev'
const machineSets = 'machinesets.machine-api.dev'
const deployments = 'machinedeployments.machine-api.dev'
const healthChecks = 'machinehealthchecks.machine-api.dev'
const classes = 'machineclasses.machine-api.dev'

// [service account, verb, resource, allowed]
const table: Array<[string, string, string, boolean]> = [
  // webhook: one read, for the "class does not exist yet" warning
  ['machine-api-webhook', 'get', classes, true],
  ['machine-api-webhook', 'list', classes, false],
  ['machine-api-webhook', 'get', machines, false],
  ['machine-api-webhook', 'patch', machines, false],
  ['machine-api-webhook', 'delete', 'nodes', false],
  ['machine-api-webhook', 'get', 'secrets', false],
  ['machine-api-webhook', 'create', 'events', false],
  ['machine-api-webhook', '*', '*', false],
  // controller: every controller's needs, and nothing else
  ['machine-api-controller', 'get', machines, true],
  ['machine-api-controller', 'watch', machines, true],
  ['machine-api-controller', 'create', machines, true],
  ['machine-api-controller', 'patch', machines, true],
  ['machine-api-controller', 'delete', machines, true],
  ['machine-api-controller', 'patch', `${machines}/status`, true],
  ['machine-api-controller', 'update', machines, false],
  ['machine-api-controller', 'create', machineSets, true],
  ['machine-api-controller', 'patch', `${machineSets}/status`, true],
  ['machine-api-controller', 'patch', deployments, true],
  ['machine-api-controller', 'patch', `${deployments}/status`, true],
  ['machine-api-controller', 'create', deployments, false],
  ['machine-api-controller', 'patch', `${healthChecks}/status`, true],
  ['machine-api-controller', 'delete', healthChecks, false],
  ['machine-api-controller', 'get', classes, true],
  ['machine-api-controller', 'watch', classes, true],
  ['machine-api-controller', 'patch', classes, false],
  ['machine-api-controller', 'patch', `${classes}/status`, true],
  ['machine-api-controller', 'get', 'secrets', true],
  ['machine-api-controller', 'list', 'secrets', false],
  ['machine-api-controller', 'create', 'secrets', false],
  ['machine-api-controller', 'patch', 'nodes', true],
  ['machine-api-controller', 'delete', 'nodes', true],
  ['machine-api-controller', 'create', 'nodes', false],
  ['machine-api-controller', 'list', 'pods', true],
  ['machine-api-controller', 'delete', 'pods', false],
  ['machine-api-controller', 'create', 'pods/eviction', true],
  ['machine-api-controller', 'list', 'volumeattachments.storage.k8s.io', true],
  ['machine-api-controller', 'delete', 'volumeattachments.storage.k8s.io', false],
  ['machine-api-controller', 'create', 'events', true],
  // a repeated Event is counted on the existing one: read it, patch its count
  ['machine-api-controller', 'get', 'events', true],
  ['machine-api-controller', 'patch', 'events', true],
  ['machine-api-controller', 'delete', 'events', false],
  ['machine-api-controller', 'get', 'configmaps', false],
  ['machine-api-controller', 'delete', 'customresourcedefinitions.apiextensions.k8s.io', false],
  ['machine-api-controller', 'create', 'clusterrolebindings.rbac.authorization.k8s.io', false],
  ['machine-api-controller', '*', '*', false],
  // sweep, plain overlay: reconciles what it lists in-process, so it holds the controller roles
  ['machine-api-sweep', 'list', machines, true],
  ['machine-api-sweep', 'create', 'pods/eviction', true],
  ['machine-api-sweep', 'list', classes, true],
  ['machine-api-sweep', 'list', 'secrets', false],
  ['machine-api-sweep', '*', '*', false],
  // one controller alone: the layers below it, never above, never more
  ['only-machine', 'get', 'secrets', true],
  ['only-machine', 'create', machines, false],
  ['only-machine', 'list', machineSets, false],
  ['only-machineset', 'create', machines, true],
  ['only-machineset', 'patch', `${machines}/status`, false],
  ['only-machineset', 'get', 'secrets', false],
  ['only-machineset', 'get', 'nodes', false],
  ['only-machineset', 'list', deployments, false],
  ['only-machinedeployment', 'create', machineSets, true],
  ['only-machinedeployment', 'create', machines, false],
  ['only-machinedeployment', 'get', 'secrets', false],
  ['only-machinehealthcheck', 'delete', machines, true],
  ['only-machinehealthcheck', 'patch', `${machines}/status`, true],
  ['only-machinehealthcheck', 'get', 'nodes', true],
  ['only-machinehealthcheck', 'list', 'nodes', false],
  ['only-machinehealthcheck', 'patch', 'nodes', false],
  ['only-machinehealthcheck', 'create', machines, false],
  ['only-machinehealthcheck', 'get', 'secrets', false],
  ['only-machineset', 'patch', machineSets, true],
  ['only-machineset', 'get', classes, true],
  ['only-machinedeployment', 'get', classes, true],
  ['only-machineclass', 'patch', `${classes}/status`, true],
  ['only-machineclass', 'get', 'secrets', true],
  ['only-machineclass', 'list', 'secrets', false],
  ['only-machineclass', 'patch', classes, false],
  ['only-machineclass', 'list', machines, false],
  // cluster-autoscaler (clusterapi provider): watch, mark a Machine, resize through /scale
  ['cluster-autoscaler', 'list', machines, true],
  ['cluster-autoscaler', 'watch', machines, true],
  ['cluster-autoscaler', 'update', machines, true],
  ['cluster-autoscaler', 'patch', machines, false],
  ['cluster-autoscaler', 'delete', machines, false],
  ['cluster-autoscaler', 'create', machines, false],
  ['cluster-autoscaler', 'watch', machineSets, true],
  ['cluster-autoscaler', 'watch', deployments, true],
  ['cluster-autoscaler', 'patch', machineSets, false],
  ['cluster-autoscaler', 'update', deployments, false],
  ['cluster-autoscaler', 'get', `${machineSets}/scale`, true],
  ['cluster-autoscaler', 'patch', `${machineSets}/scale`, true],
  ['cluster-autoscaler', 'patch', `${deployments}/scale`, true],
  ['cluster-autoscaler', 'patch', `${machines}/status`, false],
  ['cluster-autoscaler', 'get', classes, false],
  ['cluster-autoscaler', 'get', 'secrets', false],
  ['cluster-autoscaler', '*', '*', false],
  // the EC2 notice source: finds a Machine and annotates it, records an Event; nothing else
  ['machine-api-ec2-notices', 'get', machines, true],
  ['machine-api-ec2-notices', 'list', machines, true],
  ['machine-api-ec2-notices', 'patch', machines, true],
  ['machine-api-ec2-notices', 'create', 'events', true],
  ['machine-api-ec2-notices', 'patch', `${machines}/status`, false],
  ['machine-api-ec2-notices', 'delete', machines, false],
  ['machine-api-ec2-notices', 'get', 'secrets', false],
  ['machine-api-ec2-notices', 'list', 'nodes', false],
  // The cordon of an imminent interruption (cordon-first.ts), and nothing else of a Node.
  ['machine-api-ec2-notices', 'patch', 'nodes', true],
  ['machine-api-ec2-notices', 'delete', 'nodes', false],
  ['machine-api-ec2-notices', '*', '*', false],
]

// The jetstream sweep only publishes keys, then runs the status-check pass (Running Machines, their
// classes' credentials, the status-check annotation on a Machine, an Event) and the orphan sweep
// (Machine UIDs, MachineClasses and their credentials Secrets, an Event per orphan): no writes to
// machine-api objects but that annotation, no status, no Nodes.
const jetstreamSweep: Array<[string, string, boolean]> = [
  ['list', machines, true],
  ['list', machineSets, true],
  ['list', deployments, true],
  ['list', healthChecks, true],
  ['list', classes, true],
  ['get', 'secrets', true],
  ['create', 'events', true],
  ['patch', 'events', true],
  ['get', machines, true],
  ['patch', machines, true],
  ['watch', machines, false],
  ['delete', machines, false],
  ['patch', classes, false],
  ['patch', `${machines}/status`, false],
  ['create', machineSets, false],
  ['list', 'secrets', false],
  ['list', 'nodes', false],
  ['create', 'pods/eviction', false],
  ['*', '*', false],
]

describe('RBAC per function', () => {
  it.each(table)('%s: %s %s -> %s', async (account, verb, resource, allowed) => {
    expect(await canI(sa(account), verb, resource)).toBe(allowed)
  })

  it.each(jetstreamSweep)(
    'jetstream machine-api-sweep: %s %s -> %s',
    async (verb, resource, allowed) => {
      expect(await canI(sa('machine-api-sweep', 'jetstream'), verb, resource)).toBe(allowed)
    },
  )

  // A remediation provider labels a ClusterRole for its template kind; ConfigMaps stand in for that
  // kind here (can-i needs a served resource, and the controller has no ConfigMap access).
  it('adds external remediation permissions only through the aggregated role', async () => {
    const role = `machine-api-${id}:remediation-example`
    const file = tempManifest(
      stringify({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: {
          name: role,
          labels: {
            [`machine-api.dev/aggregate-to-remediation-${id}`]: 'true',
            'machine-api.dev/rbac-test': id,
          },
        },
        rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
      }),
    )
    const user = sa('machine-api-controller')
    expect(await canI(user, 'get', 'configmaps')).toBe(false)
    try {
      await kubectl(['apply', '-f', file.path])
    } finally {
      file.cleanup()
    }
    await waitFor('the aggregated rule to reach the controller', () =>
      canI(user, 'get', 'configmaps'),
    )
    expect(await canI(sa('machine-api-webhook'), 'get', 'configmaps')).toBe(false)
  })
})
