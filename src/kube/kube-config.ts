/**
 * @module Loads the kubeconfig. Entry points import it (also with `import()`) instead of the
 * package: a dynamic import of `@kubernetes/client-node` itself keeps every export of the package
 * in the bundle (about 2 MB of generated API classes and models). The class comes from its own file
 * of the package (exact version in package.json), not the index, whose other modules (exec,
 * attach, cp: ws, tar-fs, streamx...) would be evaluated at every start for nothing.
 */
import { KubeConfig } from '@kubernetes/client-node/dist/config.js'

/** $KUBECONFIG, ~/.kube/config or the in-cluster service account, in that order. */
export function loadDefaultKubeConfig(): KubeConfig {
  return loadKubeConfig(undefined)
}

/** The kubeconfig file at `path`, or the default one when no path is given. */
export function loadKubeConfig(path: string | undefined): KubeConfig {
  const kc = new KubeConfig()
  if (path) kc.loadFromFile(path)
  else kc.loadFromDefault()
  return kc
}
