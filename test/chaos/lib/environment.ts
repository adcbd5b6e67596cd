/**
 * @module Where a scenario runs: a control plane (the test run's shared one when the short test
 * passes it and the scenario does not need its own, else a fresh one) with the machine-api CRDs and
 * webhooks installed, served by an in-process webhook server.
 */
import { KubeConfig } from '@kubernetes/client-node'
import type { ProviderSpecSchemas } from '../../../src/api/shared/provider-spec'
import { builtInProviderSpecSchemas } from '../../../src/providers/schemas'
import { type ControlPlane, startControlPlane } from '../../harness/controlplane'
import { type InstalledApi, installApi } from '../../harness/install-api'
import { type Kubectl, kubectlFor } from '../../harness/kube'
import { startTestWebhookServer, type TestWebhookServer } from '../../harness/webhook-server'

/** A control plane someone else started (the vitest global setup's). */
export interface SharedControlPlane {
  kubeconfigPath: string
  kubectlPath: string
}

export interface ChaosEnvironment {
  kubeconfigPath: string
  kc: KubeConfig
  kubectl: Kubectl
  /** Only when the scenario asked for its own control plane (to stop its apiserver). */
  own?: ControlPlane
  webhook: TestWebhookServer
  api: InstalledApi
  /** Uninstalls the webhooks, stops the webhook server and the own control plane. */
  close(): Promise<void>
}

/**
 * Starts (or borrows) a control plane and installs the API. `own: true` always starts a fresh one
 * with kcm, scheduler and kwok.
 */
export async function startChaosEnvironment(options: {
  shared?: SharedControlPlane
  own?: boolean
  providerSchemas?: ProviderSpecSchemas
}): Promise<ChaosEnvironment> {
  const own = options.own || !options.shared ? await startControlPlane() : undefined
  const target = own ?? (options.shared as SharedControlPlane)
  const kc = new KubeConfig()
  kc.loadFromFile(target.kubeconfigPath)
  const kubectl = kubectlFor(target.kubectlPath, target.kubeconfigPath)
  let webhook: TestWebhookServer | undefined
  try {
    webhook = await startTestWebhookServer({
      kubeConfig: kc,
      providerSchemas: options.providerSchemas ?? builtInProviderSpecSchemas,
    })
    const api = await installApi(kc, webhook)
    const started = webhook
    return {
      kubeconfigPath: target.kubeconfigPath,
      kc,
      kubectl,
      own,
      webhook: started,
      api,
      async close() {
        try {
          await api.uninstall()
          await started.stop()
        } finally {
          await own?.stop()
        }
      },
    }
  } catch (error) {
    await webhook?.stop()
    await own?.stop()
    throw error
  }
}
