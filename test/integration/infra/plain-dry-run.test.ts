/**
 * The plain overlay renders and passes a server-side dry-run against the real apiserver: every
 * object is admitted (schema, defaulting, validation, Pod Security "restricted" of the namespace).
 *
 * Isolation on the shared control plane: the namespace `machine-api-system` becomes a unique one
 * (created for real, since a dry-run Namespace does not exist for the objects inside it), and the
 * group `machine-api.dev` becomes a unique subgroup, so the CRDs are dry-run *created* rather than
 * merged into the CRDs other tests installed (their conversion webhook points at a URL, ours at a
 * Service: a merge would set both). cert-manager is not installed there: permissive stand-in CRDs
 * for Certificate and Issuer (test/fixtures/infra) are applied first and removed afterwards.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { kubectl, waitFor } from '../../harness/kube'
import { kubectlStatus, renderOverlay, repoRoot, suffix, tempManifest } from './manifests'

const certManagerCrds = join(repoRoot, 'test', 'fixtures', 'infra', 'cert-manager-crds.yaml')
const id = suffix()
const namespace = `machine-api-infra-${id}`
const group = `infra-${id}.machine-api.dev`

let rendered = ''
let installedCertManagerCrds = false

type Doc = { kind?: string; metadata?: { name?: string; namespace?: string } }

beforeAll(async () => {
  rendered = await renderOverlay('infra/overlays/plain')
  const existing = await kubectlStatus(['get', 'crd', 'certificates.cert-manager.io'])
  if (existing.code !== 0) {
    await kubectl(['apply', '-f', certManagerCrds])
    installedCertManagerCrds = true
  }
  await kubectl([
    'wait',
    '--for=condition=Established',
    '--timeout=60s',
    'crd/certificates.cert-manager.io',
    'crd/issuers.cert-manager.io',
  ])
  await kubectl(['create', 'namespace', namespace])
})

afterAll(async () => {
  await kubectlStatus(['delete', 'namespace', namespace, '--wait=false'])
  if (installedCertManagerCrds) {
    await kubectlStatus(['delete', '-f', certManagerCrds, '--ignore-not-found'])
  }
})

describe('infra/overlays/plain', () => {
  it('renders the base and the plain reconcile pieces', () => {
    const docs = parseAllDocuments(rendered).map((d) => d.toJS() as Doc)
    const names = docs.map((d) => `${d.kind}/${d.metadata?.name}`)
    expect(names).toEqual(
      expect.arrayContaining([
        'Namespace/machine-api-system',
        'CustomResourceDefinition/machines.machine-api.dev',
        'Deployment/machine-api-webhook',
        'Deployment/machine-api-worker',
        'CronJob/machine-api-sweep',
        'PodDisruptionBudget/machine-api-webhook',
        'Certificate/machine-api-webhook',
        'MutatingWebhookConfiguration/machine-api',
        'ValidatingWebhookConfiguration/machine-api',
      ]),
    )
    // Only the one namespace: every namespaced object lands in machine-api-system.
    const namespaces = new Set(docs.flatMap((d) => d.metadata?.namespace ?? []))
    expect([...namespaces]).toEqual(['machine-api-system'])
  })

  it('passes a server-side dry-run against the real apiserver', async () => {
    const isolated = rendered
      .replaceAll('machine-api-system', namespace)
      .replaceAll('machine-api.dev', group)
    const file = tempManifest(isolated)
    try {
      const result = await waitFor(
        'the dry-run to be admitted',
        async () => {
          // The fresh namespace's ServiceAccount admission may lag a moment; retry until admitted.
          const run = await kubectlStatus(['apply', '--dry-run=server', '-f', file.path])
          if (run.code !== 0) throw new Error(run.stderr)
          return run
        },
        { timeoutMs: 30_000, intervalMs: 1_000 },
      )
      const lines = result.stdout.trim().split('\n')
      expect(lines.length).toBe(parseAllDocuments(rendered).length)
      expect(lines.every((line) => line.endsWith('(server dry run)'))).toBe(true)
      // The restricted Pod Security level of the namespace warns about any non-compliant Pod template.
      expect(result.stderr).not.toMatch(/violate PodSecurity/)
    } finally {
      file.cleanup()
    }
  })
})
