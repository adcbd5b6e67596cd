/**
 * @module The KubeClient over plain REST paths: one code path for core and custom resources, with
 * explicit content types (merge patch, apply) and subresources, which client-node's generic
 * KubernetesObjectApi does not offer.
 */
import { hasKubeReason } from './errors'
import { recordDeduplicatedEvent } from './event-recorder'
import type { KubeTransport } from './http-transport'
import type { KubeClient, ListOptions, ListPage } from './kube-client'
import {
  apiVersionOf,
  collectionPath,
  coreTypes,
  type KubeObject,
  objectPath,
  queryString,
  type ResourceType,
  refOf,
} from './resource'
import { readWatchStream } from './watch-stream'

const mergePatch = 'application/merge-patch+json'
// JSON is valid YAML, so an apply body can be the object as JSON.
const applyPatch = 'application/apply-patch+yaml'

/** A KubeClient that sends every call through `transport`. */
export function createKubeClient(transport: KubeTransport): KubeClient {
  return {
    async get(type, ref) {
      try {
        return await transport.request({
          method: 'GET',
          path: objectPath(type, ref),
          verb: 'get',
          resource: type.plural,
        })
      } catch (error) {
        if (hasKubeReason(error, 'NotFound')) return undefined
        throw error
      }
    },

    async list<T extends KubeObject>(type: ResourceType, options: ListOptions = {}) {
      const body = await transport.request<{
        items?: T[]
        metadata?: { continue?: string; resourceVersion?: string }
      }>({
        method: 'GET',
        path:
          collectionPath(type, options.namespace) +
          queryString({
            labelSelector: options.labelSelector,
            fieldSelector: options.fieldSelector,
            limit: options.limit,
            continue: options.continue,
          }),
        verb: 'list',
        resource: type.plural,
      })
      const page: ListPage<T> = {
        items: body.items ?? [],
        continue: body.metadata?.continue || undefined,
        resourceVersion: body.metadata?.resourceVersion ?? '',
      }
      return page
    },

    async create(type, obj) {
      return await transport.request({
        method: 'POST',
        path: collectionPath(type, obj.metadata?.namespace),
        body: { apiVersion: apiVersionOf(type), kind: type.kind, ...obj },
        verb: 'create',
        resource: type.plural,
      })
    },

    async mergePatch(type, ref, patch, options = {}) {
      return await transport.request({
        method: 'PATCH',
        path: objectPath(type, ref, options.subresource),
        body: patch,
        contentType: mergePatch,
        verb: options.subresource ? `patch-${options.subresource}` : 'patch',
        resource: type.plural,
      })
    },

    async apply(type, obj, options) {
      return await transport.request({
        method: 'PATCH',
        path:
          objectPath(type, refOf(obj), options.subresource) +
          queryString({ fieldManager: options.fieldManager, force: options.force }),
        body: { apiVersion: apiVersionOf(type), kind: type.kind, ...obj },
        contentType: applyPatch,
        verb: options.subresource ? `apply-${options.subresource}` : 'apply',
        resource: type.plural,
      })
    },

    async delete(type, ref, options = {}) {
      const preconditions =
        options.uid || options.resourceVersion
          ? { uid: options.uid, resourceVersion: options.resourceVersion }
          : undefined
      try {
        const answer = await transport.request<KubeObject | undefined>({
          method: 'DELETE',
          path: objectPath(type, ref),
          body: {
            apiVersion: 'v1',
            kind: 'DeleteOptions',
            ...(preconditions ? { preconditions } : {}),
            ...(options.propagationPolicy ? { propagationPolicy: options.propagationPolicy } : {}),
          },
          verb: 'delete',
          resource: type.plural,
        })
        // A deletion removed at once answers with a Status (or, for some kinds, the deleted
        // object); one still pending answers with the object, its deletionTimestamp set.
        return answer?.kind !== 'Status' && answer?.metadata?.deletionTimestamp ? 'going' : 'gone'
      } catch (error) {
        if (hasKubeReason(error, 'NotFound')) return false
        throw error
      }
    },

    async evict(ref, options = {}) {
      // https://kubernetes.io/docs/concepts/scheduling-eviction/api-eviction/
      await transport.request({
        method: 'POST',
        path: objectPath(coreTypes.pod, ref, 'eviction'),
        body: {
          apiVersion: 'policy/v1',
          kind: 'Eviction',
          metadata: { name: ref.name, namespace: ref.namespace },
          deleteOptions: {
            ...(options.dryRun ? { dryRun: ['All'] } : {}),
            ...(options.gracePeriodSeconds === undefined
              ? {}
              : { gracePeriodSeconds: options.gracePeriodSeconds }),
          },
        },
        verb: 'evict',
        resource: 'pods',
      })
    },

    async recordEvent(event) {
      await recordDeduplicatedEvent(transport, event, new Date())
    },

    async watch(type, options, onEvent) {
      const stream = await transport.stream({
        method: 'GET',
        path:
          collectionPath(type, options.namespace) +
          queryString({
            watch: true,
            allowWatchBookmarks: true,
            labelSelector: options.labelSelector,
            resourceVersion: options.resourceVersion,
            timeoutSeconds: options.timeoutSeconds,
          }),
        verb: 'watch',
        resource: type.plural,
        signal: options.signal,
        // The apiserver ends the stream after timeoutSeconds; silence well past that is a dead
        // connection, not a quiet watch.
        ...(options.timeoutSeconds === undefined
          ? {}
          : { idleTimeoutMs: options.timeoutSeconds * 1000 + 30_000 }),
      })
      await readWatchStream(stream, options.signal, onEvent)
    },

    close() {
      transport.close()
    },
  }
}
