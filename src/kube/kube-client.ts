/**
 * @module The port every reconciler and transport uses to talk to the apiserver. Implemented by
 * `createKubeClient` (dynamic-client.ts); it reads fresh state on every call and caches nothing.
 */
import type { KubeObject, ObjectRef, ResourceType } from './resource'

/** One page of a list call. `continue` is set while more pages remain. */
export interface ListPage<T extends KubeObject> {
  items: T[]
  continue: string | undefined
  resourceVersion: string
}

/** Options of a list call; `namespace` omitted lists across all namespaces. */
export interface ListOptions {
  namespace?: string | undefined
  labelSelector?: string | undefined
  fieldSelector?: string | undefined
  limit?: number | undefined
  continue?: string | undefined
}

/** One line of a watch stream. `BOOKMARK` only advances the resourceVersion. */
export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR'
  object: KubeObject
}

/** Options of a watch call. */
export interface WatchOptions {
  namespace?: string | undefined
  labelSelector?: string | undefined
  resourceVersion?: string | undefined
  /** Server-side timeout; the apiserver closes the stream cleanly after it. */
  timeoutSeconds?: number | undefined
  signal: AbortSignal
}

/** An Event about an object, written as core/v1 Event so `kubectl describe` shows it. */
export interface EventInput {
  regarding: KubeObject
  type: 'Normal' | 'Warning'
  reason: string
  message: string
  /** The component name shown as the Event's source. */
  reportingController: string
}

/** What a delete did (see KubeClient.delete); truthy when this call deleted. */
export type DeleteOutcome = 'gone' | 'going' | false

/** Typed access to the apiserver. Every method throws KubeApiError on a non-2xx answer. */
export interface KubeClient {
  /** The object, or undefined when it does not exist. */
  get<T extends KubeObject>(type: ResourceType, ref: ObjectRef): Promise<T | undefined>
  /** One page; pass `continue` from the previous page to get the next one. */
  list<T extends KubeObject>(type: ResourceType, options?: ListOptions): Promise<ListPage<T>>
  /** Creates `obj` (its metadata names the namespace); AlreadyExists on a name collision. */
  create<T extends KubeObject>(type: ResourceType, obj: T): Promise<T>
  /**
   * RFC 7386 merge patch, on the object or a subresource (`status`). Put
   * `metadata.resourceVersion` in the patch to make it conditional (Conflict when stale).
   */
  mergePatch<T extends KubeObject>(
    type: ResourceType,
    ref: ObjectRef,
    patch: object,
    options?: { subresource?: string },
  ): Promise<T>
  /** Server-side apply of the fields in `obj`, owned by `fieldManager`. */
  apply<T extends KubeObject>(
    type: ResourceType,
    obj: T,
    options: { fieldManager: string; force?: boolean; subresource?: string },
  ): Promise<T>
  /**
   * Deletes: `gone` when the apiserver removed it at once, `going` when it waits on finalizers
   * or a grace period (it still reads, with a deletionTimestamp), false when it was already
   * gone. Preconditions turn a stale delete into Conflict.
   */
  delete(
    type: ResourceType,
    ref: ObjectRef,
    options?: { uid?: string; resourceVersion?: string; propagationPolicy?: string },
  ): Promise<DeleteOutcome>
  /** Evicts a Pod through the eviction subresource; TooManyRequests when a PDB forbids it. */
  evict(
    ref: { namespace: string; name: string },
    options?: { dryRun?: boolean; gracePeriodSeconds?: number },
  ): Promise<void>
  /**
   * Records an Event; the same Event again (object, type, reason, message) counts on the existing
   * one instead of adding another. Failures are reported to the caller, who usually ignores them.
   */
  recordEvent(event: EventInput): Promise<void>
  /** Streams watch events until the server ends the stream or `signal` aborts. */
  watch(
    type: ResourceType,
    options: WatchOptions,
    onEvent: (event: WatchEvent) => void,
  ): Promise<void>
  /** Releases connections. */
  close(): void
}
