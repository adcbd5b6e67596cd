/** @module The `kwok` provider: simulated machines for tests, benchmarks and the cloudless demo. */
import type { Provider } from '../registry'
import { parseProviderSpec } from '../spec'
import { createKwokActuator } from './actuator'
import type { NodeWriter } from './node-writer'
import { kwokProviderSpecSchema } from './spec'

/**
 * The `kwok` provider; `nodes` is the caller's Node client (see NodeWriter).
 * @example createProviderRegistry([createKwokProvider({ nodes: clientNodeWriter(kc) })])
 */
export function createKwokProvider(options: { nodes: NodeWriter }): Provider {
  return {
    name: 'kwok',
    specSchema: kwokProviderSpecSchema,
    actuator: createKwokActuator(options.nodes),
    // The simulated Node reports its spec's allocatable as capacity, on the system kwok's
    // node-initialize stage gives every Node (amd64, linux).
    async capacity(request) {
      const spec = parseProviderSpec(kwokProviderSpecSchema, request.providerSpec)
      return {
        capacity: { ...spec.allocatable },
        nodeInfo: { architecture: 'amd64', operatingSystem: 'linux' },
      }
    },
  }
}
