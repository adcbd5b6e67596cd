/**
 * @module The machine-api installed into a benchmark's control plane: CRDs and admission/conversion
 * webhooks served by the bundled webhook child process (dist/webhook.js).
 */
import { KubeConfig } from '@kubernetes/client-node'
import { createKubeClient } from '../../../src/kube/dynamic-client'
import { createHttpTransport, type KubeTransport } from '../../../src/kube/http-transport'
import type { KubeClient } from '../../../src/kube/kube-client'
import type { ControlPlane } from '../../harness/controlplane'
import { type InstalledApi, installApi } from '../../harness/install-api'
import { type Kubectl, kubectlFor } from '../../harness/kube'
import {
  type Certificates,
  type HttpsChild,
  makeCertificates,
  startWebhookChild,
  type WebhookChildOptions,
} from './webhook-child'

/** A control plane with the API installed. */
export interface BenchApi {
  kc: KubeConfig
  kubeconfigPath: string
  kubectl: Kubectl
  transport: KubeTransport
  kube: KubeClient
  certs: Certificates
  webhook: HttpsChild
  /** `uninstall()` removes the admission webhook configurations (the CRDs stay). */
  installed: InstalledApi
  /** Stops the webhook child and closes the client (the runner stops the control plane). */
  close(): Promise<void>
}

/**
 * Starts the bundled webhook (with `webhook`'s extra node flags and environment, e.g. a profiler)
 * and installs CRDs and webhook configurations pointing at it.
 */
export async function installBenchApi(
  controlPlane: ControlPlane,
  webhook: Pick<WebhookChildOptions, 'nodeArgs' | 'env'> = {},
): Promise<BenchApi> {
  const kc = new KubeConfig()
  kc.loadFromFile(controlPlane.kubeconfigPath)
  const kubectl = kubectlFor(controlPlane.kubectlPath, controlPlane.kubeconfigPath)
  const certs = makeCertificates()
  let child: HttpsChild | undefined
  let installed: InstalledApi
  try {
    child = await startWebhookChild({
      ...webhook,
      certs,
      kubeconfigPath: controlPlane.kubeconfigPath,
    })
    installed = await installApi(kc, { url: child.url, caBundle: certs.caBundle })
  } catch (error) {
    await child?.stop()
    certs.remove()
    throw error
  }
  const transport = createHttpTransport(kc, () => {})
  const started = child
  return {
    kc,
    kubeconfigPath: controlPlane.kubeconfigPath,
    kubectl,
    transport,
    kube: createKubeClient(transport),
    certs,
    webhook: started,
    installed,
    async close() {
      transport.close()
      await started.stop()
      certs.remove()
    },
  }
}

/** Runs `work` on every item with at most `concurrency` at once. */
export async function forEachConcurrently<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T
      await work(item)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker))
}
