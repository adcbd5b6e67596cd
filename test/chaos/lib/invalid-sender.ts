/**
 * @module Sends one bad-input case to the apiserver the way a user would: REST (strict field
 * validation, as `kubectl --validate=strict` asks) or kubectl itself, at the case's version.
 * Returns what came back: an HTTP code (0 for kubectl, which only shows the message) and the
 * message, or `accepted` when the apiserver stored it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { kindDefinition } from '../../../src/api/kinds'
import { KubeApiError } from '../../../src/kube/errors'
import type { KubeTransport } from '../../../src/kube/http-transport'
import { collectionPath, objectPath, type ResourceType } from '../../../src/kube/resource'
import type { Kubectl } from '../../harness/kube'
import type { InvalidCase } from './invalid-cases'
import type { Json } from './invalid-objects'

/** What the apiserver answered to one case. */
export interface SendResult {
  accepted: boolean
  /** HTTP status (REST); 0 when sent with kubectl. */
  code: number
  message: string
  via: 'rest' | 'kubectl'
}

/** The resource type of a case's kind at its version. */
export function typeOf(c: Pick<InvalidCase, 'kind' | 'version'>): ResourceType {
  const d = kindDefinition(c.kind)
  return {
    group: 'machine-api.dev',
    version: c.version,
    kind: c.kind,
    plural: d.plural,
    namespaced: true,
  }
}

function namespaceOf(c: InvalidCase): string {
  return String((c.object.metadata as Json).namespace)
}

/** The request body: the object (create), or the stored object with the mutated spec (update). */
async function body(transport: KubeTransport, c: InvalidCase): Promise<Json> {
  if (c.operation === 'create') return c.object
  const type = typeOf(c)
  const current = await transport.request<Json>({
    method: 'GET',
    path: objectPath(type, { namespace: namespaceOf(c), name: c.name }),
    verb: 'get',
    resource: type.plural,
  })
  return { ...current, spec: c.object.spec }
}

async function viaRest(
  transport: KubeTransport,
  c: InvalidCase,
  payload: Json,
): Promise<SendResult> {
  const type = typeOf(c)
  const ref = { namespace: namespaceOf(c), name: c.name }
  const path =
    c.operation === 'create' ? collectionPath(type, ref.namespace) : objectPath(type, ref)
  try {
    await transport.request({
      method: c.operation === 'create' ? 'POST' : 'PUT',
      path: `${path}?fieldValidation=Strict`,
      body: payload,
      verb: c.operation,
      resource: type.plural,
    })
    return { accepted: true, code: 200, message: '', via: 'rest' }
  } catch (error) {
    if (!(error instanceof KubeApiError)) throw error
    return { accepted: false, code: error.code, message: error.message, via: 'rest' }
  }
}

async function viaKubectl(kubectl: Kubectl, c: InvalidCase, payload: Json): Promise<SendResult> {
  const dir = mkdtempSync(join(tmpdir(), 'chaos-bad-input-'))
  const file = join(dir, 'object.json')
  writeFileSync(file, JSON.stringify(payload))
  try {
    const verb = c.operation === 'create' ? 'create' : 'replace'
    await kubectl([verb, '--validate=strict', '-f', file])
    return { accepted: true, code: 0, message: '', via: 'kubectl' }
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? error)
    return { accepted: false, code: 0, message: stderr.trim(), via: 'kubectl' }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Sends `c` through kubectl when `useKubectl`, else REST. */
export async function sendCase(
  deps: { transport: KubeTransport; kubectl: Kubectl },
  c: InvalidCase,
  useKubectl: boolean,
): Promise<SendResult> {
  const payload = await body(deps.transport, c)
  return useKubectl
    ? await viaKubectl(deps.kubectl, c, payload)
    : await viaRest(deps.transport, c, payload)
}
