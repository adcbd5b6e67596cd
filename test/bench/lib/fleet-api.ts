/**
 * @module The machine-api CRDs and webhooks on a benchmark's control plane, served by an
 * in-process webhook server (as test/chaos/lib/environment.ts does for scenarios), plus clients.
 */
import { KubeConfig } from '@kubernetes/client-node'
import { builtInProviderSpecSchemas } from '../../../src/providers/schemas'
import type { ControlPlane } from '../../harness/controlplane'
import { installApi } from '../../harness/install-api'
import { type Kubectl, kubectlFor } from '../../harness/kube'
import { startTestWebhookServer } from '../../harness/webhook-server'

export interface FleetApi {
  kc: KubeConfig
  kubectl: Kubectl
  /** Uninstalls the webhooks and stops the webhook server. */
  close(): Promise<void>
}

/** Installs the API on `controlPlane`. */
export async function installFleetApi(controlPlane: ControlPlane): Promise<FleetApi> {
  const kc = new KubeConfig()
  kc.loadFromFile(controlPlane.kubeconfigPath)
  const kubectl = kubectlFor(controlPlane.kubectlPath, controlPlane.kubeconfigPath)
  const webhook = await startTestWebhookServer({
    kubeConfig: kc,
    providerSchemas: builtInProviderSpecSchemas,
  })
  try {
    const api = await installApi(kc, webhook)
    return {
      kc,
      kubectl,
      async close() {
        try {
          await api.uninstall()
        } finally {
          await webhook.stop()
        }
      },
    }
  } catch (error) {
    await webhook.stop()
    throw error
  }
}
