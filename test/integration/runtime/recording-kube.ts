/**
 * @module A KubeClient for the test control plane that records each request as `verb resource`
 * (e.g. `get secrets`), so a test can assert what a piece of code asked the apiserver.
 */
import type { KubeConfig } from '@kubernetes/client-node'
import { afterAll, beforeAll } from 'vitest'
import { createKubeClient } from '../../../src/kube/dynamic-client'
import { createHttpTransport } from '../../../src/kube/http-transport'
import type { KubeClient } from '../../../src/kube/kube-client'
import { testKubeConfig } from '../../harness/kube'

/** Sets up the client before the file's tests and closes it after them. */
export function useRecordingKube(): { kc: KubeConfig; kube: KubeClient; calls: string[] } {
  const calls: string[] = []
  const handle = { calls } as { kc: KubeConfig; kube: KubeClient; calls: string[] }
  beforeAll(() => {
    handle.kc = testKubeConfig()
    handle.kube = createKubeClient(
      createHttpTransport(handle.kc, (c) => calls.push(`${c.verb} ${c.resource}`)),
    )
  })
  afterAll(() => handle.kube.close())
  return handle
}
