/** @module The kube layer's public surface (re-exports only). */
export { createKubeClient } from './dynamic-client'
export { asKubeApiError, hasKubeReason, KubeApiError, type KubeReason } from './errors'
export { createHttpTransport, type KubeCallRecorder, type KubeTransport } from './http-transport'
export type {
  EventInput,
  KubeClient,
  ListOptions,
  ListPage,
  WatchEvent,
  WatchOptions,
} from './kube-client'
export { defaultPageSize, listPages } from './paged-list'
export * from './resource'
