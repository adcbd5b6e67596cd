/**
 * @module Lists a kind page by page (limit/continue) so memory holds one page, never the fleet.
 * https://kubernetes.io/docs/reference/using-api/api-concepts/#retrieving-large-results-sets-in-chunks
 */
import type { KubeClient, ListOptions, ListPage } from './kube-client'
import type { KubeObject, ResourceType } from './resource'

/** The page size used when the caller does not choose one. */
export const defaultPageSize = 500

/**
 * Yields each page of `type` in turn. A continue token that expires mid-walk (410) is raised to
 * the caller; the next walk starts afresh, which is what a periodic sweep wants.
 */
export async function* listPages<T extends KubeObject>(
  kube: KubeClient,
  type: ResourceType,
  options: Omit<ListOptions, 'continue'> = {},
): AsyncGenerator<ListPage<T>> {
  let token: string | undefined
  do {
    const page: ListPage<T> = await kube.list<T>(type, {
      ...options,
      limit: options.limit ?? defaultPageSize,
      continue: token,
    })
    yield page
    token = page.continue
  } while (token)
}
