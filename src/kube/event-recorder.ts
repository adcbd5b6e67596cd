/**
 * @module Records core/v1 Events with de-duplication, as client-go's event correlator does but
 * without state: an Event's name is derived from what it says (involved object, type, reason,
 * message, source), so saying the same thing again meets AlreadyExists and bumps that Event's
 * `count` and `lastTimestamp` instead of adding one (`kubectl get events` shows "(x3 over 5m)").
 * A transient failure retried every few seconds therefore leaves one Event, not hundreds.
 * https://kubernetes.io/docs/reference/kubernetes-api/cluster-resources/event-v1/
 */
import { createHash } from 'node:crypto'
import { hasKubeReason } from './errors'
import type { KubeTransport } from './http-transport'
import type { EventInput } from './kube-client'
import { collectionPath, coreTypes, objectPath } from './resource'

/** The deterministic name of `event`: `<object>.<digest of what it says>`. */
export function eventName(event: EventInput): string {
  const meta = event.regarding.metadata ?? {}
  const said = [
    meta.uid ?? '',
    event.regarding.kind ?? '',
    meta.namespace ?? '',
    meta.name ?? '',
    event.type,
    event.reason,
    event.message,
    event.reportingController,
  ].join('\n')
  const digest = createHash('sha256').update(said).digest('hex').slice(0, 16)
  // Names are DNS subdomains (at most 253 characters).
  return `${(meta.name ?? 'object').slice(0, 200)}.${digest}`
}

/** Creates `event`, or counts it on the existing Event that says the same. */
export async function recordDeduplicatedEvent(
  transport: KubeTransport,
  event: EventInput,
  now: Date,
): Promise<void> {
  const meta = event.regarding.metadata ?? {}
  // Events about cluster-scoped objects (Nodes) live in `default`, as kubelet's do.
  const namespace = meta.namespace ?? 'default'
  const name = eventName(event)
  const at = now.toISOString()
  try {
    await transport.request({
      method: 'POST',
      path: collectionPath(coreTypes.event, namespace),
      body: {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name, namespace },
        involvedObject: {
          apiVersion: event.regarding.apiVersion,
          kind: event.regarding.kind,
          name: meta.name,
          namespace: meta.namespace,
          uid: meta.uid,
          resourceVersion: meta.resourceVersion,
        },
        type: event.type,
        reason: event.reason,
        message: event.message.slice(0, 1024),
        source: { component: event.reportingController },
        reportingComponent: event.reportingController,
        firstTimestamp: at,
        lastTimestamp: at,
        count: 1,
      },
      verb: 'create',
      resource: 'events',
    })
  } catch (error) {
    if (!hasKubeReason(error, 'AlreadyExists')) throw error
    await countRepeat(transport, { namespace, name }, at)
  }
}

/**
 * Bumps count and lastTimestamp. The resourceVersion precondition keeps concurrent bumps exact; a
 * bump that loses the race reads again (a few times, then the Conflict goes to the caller).
 */
async function countRepeat(
  transport: KubeTransport,
  ref: { namespace: string; name: string },
  at: string,
): Promise<void> {
  const path = objectPath(coreTypes.event, ref)
  for (let attempt = 1; ; attempt++) {
    const existing = await transport.request<{
      count?: number
      metadata?: { resourceVersion?: string }
    }>({ method: 'GET', path, verb: 'get', resource: 'events' })
    try {
      await transport.request({
        method: 'PATCH',
        path,
        contentType: 'application/merge-patch+json',
        body: {
          metadata: { resourceVersion: existing.metadata?.resourceVersion },
          count: (existing.count ?? 1) + 1,
          lastTimestamp: at,
        },
        verb: 'patch',
        resource: 'events',
      })
      return
    } catch (error) {
      if (attempt >= maxBumpAttempts || !hasKubeReason(error, 'Conflict')) throw error
    }
  }
}

const maxBumpAttempts = 5
