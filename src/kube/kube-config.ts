/**
 * @module Loads the kubeconfig. Entry points import it (also with `import()`) instead of the
 * package: a dynamic import of `@kubernetes/client-node` itself keeps every export of the package
 * in the bundle (about 2 MB of generated API classes and models), this file keeps only KubeConfig.
 */
import { KubeConfig } from '@kubernetes/client-node'

/** $KUBECONFIG, ~/.kube/config or the in-cluster service account, in that order. */
export function loadDefaultKubeConfig(): KubeConfig {
  const kc = new KubeConfig()
  kc.loadFromDefault()
  return kc
}
