// Stands in for @kubernetes/client-node's dist/gen/index.js when dist/config.js imports it (see
// scripts/build/plugins.mjs): the two names KubeConfig uses, from their own files.
export { createConfiguration } from '@kubernetes/client-node/dist/gen/configuration.js'
export { ServerConfiguration } from '@kubernetes/client-node/dist/gen/servers.js'
