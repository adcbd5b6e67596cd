/**
 * @module The Node a Machine reconcile reads, for a sweep to hand over from its paged list of
 * Nodes (src/bus/related-pages.ts): the one status.nodeRef names. The Node link, the Node sync
 * and the kwok provider's instance check then read it without a GET. A Machine not linked yet
 * names none and reads for itself.
 */
import type { RelatedObjects } from '../../bus/related-pages'
import { coreTypes, type KubeObject } from '../../kube/resource'

/** The Machine's linked Node, by status.nodeRef. */
export const machineRelatedNode: RelatedObjects = {
  type: coreTypes.node,
  refsOf(machine: KubeObject) {
    const status = (machine as { status?: { nodeRef?: { name?: unknown } } }).status
    const name = status?.nodeRef?.name
    return typeof name === 'string' && name !== '' ? [{ name }] : []
  },
}
